"""A run's bookkeeping (autolabel.run_progress): counters added per chunk, exact under a
redelivered chunk and under concurrent chunks (real PostgreSQL, threads); no per-chunk
statement reads more of the run's items than the chunk holds (EXPLAIN ANALYZE); the rate,
verdicts and grouped failures."""

import json
import threading
from collections import Counter
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.utils import timezone

from autolabel.engines.base import EngineResult, StepSuggestion
from autolabel.models import AutolabelItem, AutolabelRun, RunStatus
from autolabel.registry import ENGINES
from autolabel.run_chunks import autolabel_chunk_process
from autolabel.run_progress import (
    MAX_ERROR_GROUPS,
    OTHER_ERRORS,
    error_groups_add,
    smoothed_rate,
    verdict_key,
)
from autolabel.services import (
    autolabel_item_fail,
    autolabel_run_chunks,
    autolabel_run_create,
    autolabel_run_refresh,
)
from labeling.models import Solution, Suggestion
from tests.factories import ProjectFactory, SolutionFactory

ITEMS_TABLE = AutolabelItem._meta.db_table


class Verdicts:
    """A symbolic stand-in writing −1, +1, doubtful and checks-out evidence; fails on the
    solutions named; waits at `gate` (a barrier) when given."""

    name, queue = "symbolic", "default"

    def __init__(self, fail_on=(), gate=None):
        self.fail_on, self.gate = set(fail_on), gate
        self.calls = 0
        self.lock = threading.Lock()

    def __call__(self, solution, params):
        with self.lock:
            self.calls += 1
        if self.gate is not None:
            self.gate.wait(10)
        if solution.problem in self.fail_on:
            raise ValueError("no parse")
        result = EngineResult(source="symbolic", agent="scripted")
        result.suggestions = [
            StepSuggestion(step_index=0, value=-1, evidence={"kind": "refuted"}),
            StepSuggestion(step_index=1, value=1),
            StepSuggestion(step_index=2, value=None, evidence={"kind": "doubtful"}),
            StepSuggestion(step_index=3, value=None, evidence={"kind": "checks out"}),
        ]
        return result


def _project(n: int):
    project = ProjectFactory()
    for i in range(n):
        SolutionFactory(problem__project=project, problem__text=f"problem {i:04d}", steps=4)
    return project


def _run(project, **kwargs) -> AutolabelRun:
    run = autolabel_run_create(project=project, sources=["symbolic"], **kwargs)
    autolabel_run_chunks(run=run)  # its start task ran: running, started_at set
    run.refresh_from_db()
    return run


def _stored_verdicts(project) -> Counter:
    rows = Suggestion.objects.filter(step__solution__project=project).values_list(
        "value", "evidence"
    )
    return Counter(verdict_key(value, evidence) for value, evidence in rows)


def _verdicts(run: AutolabelRun) -> Counter:
    return Counter({k: v for k, v in run.verdicts.items() if v})


# Pure parts


def test_verdict_keys():
    assert [verdict_key(v, None) for v in (1, 0, -1)] == ["+1", "0", "-1"]
    assert verdict_key(None, {"kind": "doubtful"}) == "doubtful"
    assert verdict_key(None, {"kind": "checks out"}) == verdict_key(None, None) == "evidence"


def test_the_rate_is_smoothed_over_completions():
    t0 = timezone.now()
    first = smoothed_rate(rate=None, since=t0, now=t0 + timedelta(seconds=10), solutions=50)
    assert first == pytest.approx(5.0)
    # A chunk finishing a millisecond after another adds about n / tau: no spike.
    burst = smoothed_rate(rate=first, since=t0, now=t0 + timedelta(milliseconds=1), solutions=50)
    assert first < burst < first + 2
    # A steady 2 a second pulls the rate down towards 2, never below.
    rate, at = first, t0
    for _ in range(60):
        rate = smoothed_rate(rate=rate, since=at, now=at + timedelta(seconds=10), solutions=20)
        at += timedelta(seconds=10)
    assert rate == pytest.approx(2.0, rel=0.01)
    assert smoothed_rate(rate=3.0, since=None, now=t0, solutions=5) == 3.0


def test_failures_are_grouped_and_bounded():
    groups = error_groups_add([], ["ValueError: a", "ValueError: a\ntraceback", "KeyError: b"])
    assert groups == [
        {"error": "ValueError: a", "count": 2},
        {"error": "KeyError: b", "count": 1},
    ]
    many = error_groups_add(groups, [f"E{i}" for i in range(100)] + ["ValueError: a"])
    assert len(many) == MAX_ERROR_GROUPS + 1
    assert many[0] == {"error": "ValueError: a", "count": 3}
    assert many[-1]["error"] == OTHER_ERRORS
    assert sum(g["count"] for g in many) == 3 + 1 + 100


# Counters, verdicts and failures of a run


@pytest.mark.django_db
def test_a_runs_counters_verdicts_and_failures_add_up(monkeypatch):
    project = _project(14)
    failing = {"problem 0003", "problem 0007", "problem 0011"}
    monkeypatch.setitem(ENGINES, "symbolic", Verdicts(fail_on=failing))
    run = _run(project)
    for chunk in autolabel_run_chunks(run=run, size=4):
        autolabel_chunk_process(run=run, solution_ids=chunk)
    run = autolabel_run_refresh(run=run)
    assert (run.status, run.total, run.done, run.failed) == (RunStatus.DONE, 14, 11, 3)
    assert run.suggestions_written == Suggestion.objects.count() == 44
    assert (
        _verdicts(run)
        == _stored_verdicts(project)
        == Counter({"-1": 11, "+1": 11, "doubtful": 11, "evidence": 11})
    )
    assert run.error_groups == [{"error": "ValueError: no parse", "count": 3}]
    assert [e["error"] for e in run.errors] == ["ValueError: no parse"] * 3
    assert run.rate is not None and run.rate > 0 and run.rate_at is not None


@pytest.mark.django_db
def test_items_failed_by_the_task_count_once(monkeypatch):
    project = _project(6)
    monkeypatch.setitem(ENGINES, "symbolic", Verdicts())
    run = _run(project)
    ids = list(run.items.order_by("solution_id").values_list("solution_id", flat=True))
    autolabel_chunk_process(run=run, solution_ids=ids[:2])
    for _ in range(2):  # the task out of retries, twice (a redelivery)
        autolabel_item_fail(run=run, solution_ids=ids, error="Backend down: refused")
    run = autolabel_run_refresh(run=run)
    assert (run.status, run.done, run.failed) == (RunStatus.DONE, 2, 4)
    assert run.error_groups == [{"error": "Backend down: refused", "count": 4}]


@pytest.mark.django_db
def test_a_redelivered_chunk_counts_nothing_twice(monkeypatch):
    project = _project(8)
    engine = Verdicts()
    monkeypatch.setitem(ENGINES, "symbolic", engine)
    run = _run(project)
    ids = list(run.items.order_by("solution_id").values_list("solution_id", flat=True))
    assert len(autolabel_chunk_process(run=run, solution_ids=ids[:5])) == 5
    before = AutolabelRun.objects.values("done", "failed", "suggestions_written", "verdicts")
    before = before.get(pk=run.pk)
    assert autolabel_chunk_process(run=run, solution_ids=ids[:5]) == []  # redelivered
    after = AutolabelRun.objects.values("done", "failed", "suggestions_written", "verdicts")
    assert after.get(pk=run.pk) == before
    assert engine.calls == 5


# Concurrency on real PostgreSQL: threads, each with its own connection


def _in_thread(target, errors):
    def body():
        try:
            target()
        except Exception as exc:  # surfaced by the test
            errors.append(exc)
        finally:
            connection.close()

    return threading.Thread(target=body)


@pytest.mark.django_db(transaction=True)
def test_one_chunk_delivered_twice_at_once_counts_each_item_once(monkeypatch):
    """Both deliveries claim the same pending items and process them in step (each engine
    call waits at a barrier for the other delivery's): each item counts in one of them."""
    project = _project(6)
    monkeypatch.setitem(ENGINES, "symbolic", Verdicts(gate=threading.Barrier(2)))
    run = _run(project)
    ids = list(run.items.order_by("solution_id").values_list("solution_id", flat=True))
    counted: list[int] = []
    errors: list[Exception] = []

    def deliver():
        counted.append(len(autolabel_chunk_process(run=run, solution_ids=ids)))

    threads = [_in_thread(deliver, errors), _in_thread(deliver, errors)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors, errors
    assert sorted(counted) == [0, 6]
    run = autolabel_run_refresh(run=run)
    assert (run.status, run.done, run.failed) == (RunStatus.DONE, 6, 0)
    assert run.suggestions_written == Suggestion.objects.count() == 24
    assert _verdicts(run) == _stored_verdicts(project)
    assert set(run.items.values_list("attempts", flat=True)) == {2}  # both claimed each item


@pytest.mark.django_db(transaction=True)
def test_concurrent_chunks_add_up_exactly(monkeypatch):
    project = _project(24)
    gate = threading.Barrier(4)
    monkeypatch.setitem(ENGINES, "symbolic", Verdicts(fail_on={"problem 0005", "problem 0017"}))
    run = _run(project)
    chunks = autolabel_run_chunks(run=run, size=6)
    assert len(chunks) == 4
    errors: list[Exception] = []

    def chunk_of(ids):
        def body():
            gate.wait(10)  # the four chunks finish together
            autolabel_chunk_process(run=run, solution_ids=ids)
            autolabel_run_refresh(run=run)

        return body

    threads = [_in_thread(chunk_of(ids), errors) for ids in chunks]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors, errors
    run.refresh_from_db()
    assert (run.status, run.total, run.done, run.failed) == (RunStatus.DONE, 24, 22, 2)
    assert run.suggestions_written == Suggestion.objects.count() == 88
    assert _verdicts(run) == _stored_verdicts(project)
    assert sum(g["count"] for g in run.error_groups) == len(run.errors) == 2


# EXPLAIN: no per-chunk statement reads the whole run


def _item_rows_read(plan: dict) -> int:
    """Rows of the items table a plan read: what its scans returned and what they threw
    away (a filter, a recheck), over all loops."""
    total = 0
    if plan.get("Relation Name") == ITEMS_TABLE:
        loops = plan.get("Actual Loops", 1)
        kept = plan.get("Actual Rows", 0)
        removed = plan.get("Rows Removed by Filter", 0) + plan.get(
            "Rows Removed by Index Recheck", 0
        )
        total += (kept + removed) * loops
    if plan.get("Node Type") == "Bitmap Index Scan" and plan.get("Index Name", "").startswith(
        "autolabelitem"
    ):
        total += plan.get("Actual Rows", 0) * plan.get("Actual Loops", 1)
    for child in plan.get("Plans", []):
        total += _item_rows_read(child)
    return total


class ExplainItems:
    """Before each statement on the items table, EXPLAIN ANALYZE it in a savepoint that is
    rolled back (sequential scans off, so a small table shows the plan a big one gets)."""

    def __init__(self):
        self.reads: list[tuple[int, str, object]] = []
        self.busy = False

    def __call__(self, execute, sql, params, many, context):
        if self.busy or many or ITEMS_TABLE not in sql or sql.lstrip().upper().startswith("SAVE"):
            return execute(sql, params, many, context)
        self.busy = True
        try:
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute("SET LOCAL enable_seqscan = off")
                cursor.execute(f"EXPLAIN (ANALYZE, FORMAT JSON) {sql}", params)
                plan = cursor.fetchone()[0]
                plan = json.loads(plan) if isinstance(plan, str) else plan
                self.reads.append((_item_rows_read(plan[0]["Plan"]), sql, plan))
                transaction.set_rollback(True)
        finally:
            self.busy = False
        return execute(sql, params, many, context)


@pytest.mark.postgres  # reads PostgreSQL's plans
@pytest.mark.django_db
@pytest.mark.usefixtures("vacuumed_database")
def test_no_statement_of_a_chunk_reads_more_items_than_the_chunk_holds(monkeypatch):
    project = _project(120)
    monkeypatch.setitem(ENGINES, "symbolic", Verdicts(fail_on={"problem 0101"}))
    run = _run(project)
    chunks = autolabel_run_chunks(run=run, size=5)
    for chunk in chunks[:-4]:  # most of the run is done already
        autolabel_chunk_process(run=run, solution_ids=chunk)
    with connection.cursor() as cursor:  # the statistics autovacuum keeps on a big table
        cursor.execute(f"ANALYZE {ITEMS_TABLE}")
        # ...and what they would say of one: the planner scales a table's row count by its
        # pages, and on 120 items in 4 pages a scan of the whole run can cost less than the
        # chunk's index probes, depending on what earlier tests left in the file (an xdist
        # worker's order). Told it holds 10,000 times as many rows (rolled back with the
        # test), it plans as it does for a real run.
        cursor.execute(
            "UPDATE pg_class SET reltuples = reltuples * 10000 WHERE oid = %s::regclass"
            " OR oid IN (SELECT indexrelid FROM pg_index WHERE indrelid = %s::regclass)",
            [ITEMS_TABLE, ITEMS_TABLE],
        )
    for chunk in chunks[-4:]:
        explain = ExplainItems()
        with connection.execute_wrapper(explain):
            autolabel_chunk_process(run=run, solution_ids=chunk)
            autolabel_run_refresh(run=run)
        assert len(explain.reads) >= 4  # claim, attempts, lock, mark, pending check
        worst = max(explain.reads)
        assert worst[0] <= len(chunk), json.dumps(worst[2], indent=1)
    run.refresh_from_db()
    assert (run.status, run.done, run.failed) == (RunStatus.DONE, 119, 1)
    assert Solution.objects.filter(project=project).count() == 120
