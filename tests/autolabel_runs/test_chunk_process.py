"""A run's chunk (autolabel.run_chunks): a fixed number of queries whatever the chunk's or the
run's size, the same stored results as one solution at a time, review reasons for solutions
with submitted annotations, a cancelled run stopping mid-chunk, a backend down mid-chunk."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from autolabel import run_chunks
from autolabel.engines.base import EngineResult, StepSuggestion
from autolabel.errors import BackendUnavailable
from autolabel.models import AutolabelRun, ItemStatus, RunStatus
from autolabel.registry import ENGINES
from autolabel.run_chunks import WRITE_BATCH, autolabel_chunk_process
from autolabel.services import (
    autolabel_item_process,
    autolabel_run_cancel,
    autolabel_run_chunks,
    autolabel_run_create,
)
from labeling.models import Annotation, AnnotationStatus, Solution, Suggestion
from labeling.selectors.review import REASON_BITS, reasons_mask
from labeling.services.imports import import_file
from tests.conftest import PROCESSBENCH
from tests.factories import ProjectFactory

pytestmark = pytest.mark.django_db


class Scripted:
    """A symbolic stand-in: −1 on the first step, +1 evidence on the second, the third's
    earlier verdict withdrawn. Counts its calls; can cancel the run or fail on a call."""

    name = "symbolic"
    queue = "default"

    def __init__(self, on_call=None):
        self.calls = 0
        self.on_call = on_call

    def __call__(self, solution, params):
        self.calls += 1
        if self.on_call is not None:
            self.on_call(self.calls)
        result = EngineResult(source="symbolic", agent="scripted")
        result.suggestions = [
            StepSuggestion(step_index=0, value=-1, evidence={"kind": "refuted"}),
            StepSuggestion(step_index=1, value=None, evidence={"kind": "checks out"}),
        ][: len(solution.steps)]
        result.withdrawn = [2] if len(solution.steps) > 2 else []
        return result


@pytest.fixture
def labeled_project(db):
    """The 100 ProcessBench solutions, their labels imported as submitted annotations."""
    project = ProjectFactory(name="PB labeled")
    import_file(project=project, path=PROCESSBENCH, fmt="processbench", labels_as="annotations")
    return project


def _ids(project, n):
    ids = Solution.objects.filter(project=project).order_by("id").values_list("id", flat=True)
    return list(ids[:n])


def _stored(project):
    return sorted(
        Suggestion.objects.filter(step__solution__project=project).values_list(
            "step_id", "source", "agent", "value", "evidence"
        )
    )


def _queries_of_a_chunk(project, *, run_size, chunk_size):
    run = autolabel_run_create(
        project=project, sources=["symbolic"], filter={"solution_ids": _ids(project, run_size)}
    )
    chunk = autolabel_run_chunks(run=run, size=chunk_size)[-1]
    assert len(chunk) == chunk_size
    with CaptureQueriesContext(connection) as queries:
        processed = autolabel_chunk_process(run=run, solution_ids=chunk)
    assert [item.status for item in processed] == [ItemStatus.DONE] * chunk_size
    return len(queries.captured_queries)


def test_a_chunks_queries_do_not_grow_with_the_chunk_or_the_run(labeled_project, monkeypatch):
    monkeypatch.setitem(ENGINES, "symbolic", Scripted())
    small = _queries_of_a_chunk(labeled_project, run_size=4, chunk_size=4)
    one_batch = _queries_of_a_chunk(labeled_project, run_size=WRITE_BATCH, chunk_size=WRITE_BATCH)
    two_batches = _queries_of_a_chunk(
        labeled_project, run_size=2 * WRITE_BATCH, chunk_size=2 * WRITE_BATCH
    )
    big_run = _queries_of_a_chunk(labeled_project, run_size=100, chunk_size=4)
    assert small == one_batch == big_run
    # A chunk of more than WRITE_BATCH solutions writes in one short transaction per batch.
    assert 0 < two_batches - one_batch <= 8
    # 15 statements (one the project's metrics version, one the items found by their key
    # before they are locked: autolabel.run_progress.run_item_ids) and 3 savepoints'
    # SAVEPOINT / RELEASE (in production: transactions); marking the items adds to the run's
    # counters (2 statements), it never recounts them.
    assert small <= 21


def test_a_chunk_stores_what_one_solution_at_a_time_stores(labeled_project, monkeypatch):
    """Chunks of 12 store the same suggestions, withdrawals, item counts and review reasons
    (stored == live) as chunks of one (autolabel_item_process)."""
    monkeypatch.setitem(ENGINES, "symbolic", Scripted())
    ids = _ids(labeled_project, 30)
    # Half the solutions lose their annotations: no human labels, no reasons to refresh.
    Annotation.objects.filter(solution_id__in=ids[::2]).delete()
    Solution.objects.filter(pk__in=ids).update(review_reasons=0)

    outcomes = []
    for one_at_a_time in (True, False):
        for step_id in _third_steps(ids):  # an earlier verdict, which the engine withdraws
            Suggestion.objects.create(
                step_id=step_id, source="symbolic", agent="scripted", value=-1
            )
        run = autolabel_run_create(
            project=labeled_project, sources=["symbolic"], filter={"solution_ids": ids}
        )
        if one_at_a_time:
            for sid in ids:
                autolabel_item_process(run=run, solution_id=sid)
        else:
            for chunk in autolabel_run_chunks(run=run, size=12):
                autolabel_chunk_process(run=run, solution_ids=chunk)
        items = sorted(run.items.values_list("solution_id", "status", "suggestions", "attempts"))
        reasons = sorted(Solution.objects.filter(pk__in=ids).values_list("pk", "review_reasons"))
        live = Solution.objects.filter(pk__in=ids).annotate(live=reasons_mask({"pk__in": ids}))
        assert dict(reasons) == dict(live.values_list("pk", "live"))
        outcomes.append((_stored(labeled_project), items, reasons))
        Suggestion.objects.filter(step__solution_id__in=ids).delete()
        Solution.objects.filter(pk__in=ids).update(review_reasons=0)
    assert outcomes[0] == outcomes[1]

    stored, items, reasons = outcomes[1]
    assert not [row for row in stored if row[3] == -1 and row[0] in _third_steps(ids)]
    assert {status for _, status, _, _ in items} == {ItemStatus.DONE}
    conflicts = [sid for sid, mask in reasons if mask & REASON_BITS["auto_conflict"]]
    assert conflicts and set(conflicts) <= set(ids[1::2])  # only where humans labeled


def _third_steps(ids):
    return set(
        Solution.objects.filter(pk__in=ids, steps__index=2).values_list("steps__id", flat=True)
    )


def test_reasons_of_labeled_solutions_are_refreshed_and_unlabeled_ones_are_not_touched(
    labeled_project, monkeypatch
):
    monkeypatch.setitem(ENGINES, "symbolic", Scripted())
    ids = _ids(labeled_project, 6)
    Annotation.objects.filter(solution_id__in=ids[:3]).update(status=AnnotationStatus.DRAFT)
    run = autolabel_run_create(
        project=labeled_project, sources=["symbolic"], filter={"solution_ids": ids}
    )
    refreshed = []
    real = run_chunks.review_reasons_refresh

    def spy(*, solution_ids, locked):
        refreshed.append(sorted(solution_ids))
        return real(solution_ids=solution_ids, locked=locked)

    monkeypatch.setattr(run_chunks, "review_reasons_refresh", spy)
    autolabel_chunk_process(run=run, solution_ids=ids)
    assert refreshed == [ids[3:]]  # one statement, for the three with submitted annotations


def test_a_cancelled_run_stops_mid_chunk_and_leaves_the_rest_pending(pb_project, monkeypatch):
    monkeypatch.setattr(run_chunks, "STOP_CHECK_S", 0.0)
    ids = _ids(pb_project, 10)
    run = autolabel_run_create(project=pb_project, sources=["symbolic"])

    def cancel_at_third(calls):
        if calls == 3:
            autolabel_run_cancel(run=AutolabelRun.objects.get(pk=run.pk))

    monkeypatch.setitem(ENGINES, "symbolic", Scripted(on_call=cancel_at_third))
    stop = lambda: AutolabelRun.objects.filter(pk=run.pk, status=RunStatus.CANCELLED).exists()  # noqa: E731
    processed = autolabel_chunk_process(run=run, solution_ids=ids, stop=stop)
    assert [item.solution_id for item in processed] == ids[:3]
    statuses = dict(run.items.filter(solution_id__in=ids).values_list("solution_id", "status"))
    assert [statuses[sid] for sid in ids] == [ItemStatus.DONE] * 3 + [ItemStatus.PENDING] * 7


def test_a_backend_down_mid_chunk_keeps_what_was_computed_and_a_retry_does_the_rest(
    pb_project, monkeypatch
):
    ids = _ids(pb_project, 8)

    def down_at_fourth(calls):
        if calls == 4:
            raise BackendUnavailable("judge server refused the connection")

    run = autolabel_run_create(project=pb_project, sources=["symbolic"])
    monkeypatch.setitem(ENGINES, "symbolic", Scripted(on_call=down_at_fourth))
    with pytest.raises(BackendUnavailable):
        autolabel_chunk_process(run=run, solution_ids=ids)
    done = run.items.filter(status=ItemStatus.DONE).order_by("solution_id")
    assert list(done.values_list("solution_id", flat=True)) == ids[:3]
    assert Suggestion.objects.filter(step__solution_id__in=ids[:3]).exists()
    assert not Suggestion.objects.filter(step__solution_id__in=ids[3:]).exists()

    monkeypatch.setitem(ENGINES, "symbolic", Scripted())
    processed = autolabel_chunk_process(run=run, solution_ids=ids)  # the task's retry
    assert [item.solution_id for item in processed] == ids[3:]
    items = run.items.filter(solution_id__in=ids)
    assert set(items.values_list("status", flat=True)) == {ItemStatus.DONE}
    assert items.get(solution_id=ids[5]).attempts == 2
    assert items.get(solution_id=ids[0]).attempts == 1


class JudgeStandIn:
    """Writes a judge's verdicts within the chunk: first error at step 1 on the first
    solution, at step 2 on the second (keyed by its problem text)."""

    name = "symbolic"
    queue = "default"

    def __init__(self, first_errors):
        self.first_errors = first_errors

    def __call__(self, solution, params):
        error = self.first_errors[solution.problem]
        result = EngineResult(source="judge", agent="critic")
        result.suggestions = [
            StepSuggestion(step_index=i, value=-1 if i == error else 1) for i in range(error + 1)
        ]
        return result


def test_consensus_in_a_chunk_reads_what_the_chunks_other_sources_just_stored(monkeypatch):
    from tests.factories import ProjectFactory, SolutionFactory, SuggestionFactory

    project = ProjectFactory()
    agree = SolutionFactory(problem__project=project, steps=3)
    differ = SolutionFactory(problem__project=project, steps=3)
    for solution in (agree, differ):
        steps = list(solution.steps.order_by("index"))
        for i, step in enumerate(steps[:2]):
            SuggestionFactory(step=step, source="rollout", agent="mc", value=1 if i < 1 else -1)
    # A consensus an earlier run stored on `differ`, which no longer holds.
    stale = differ.steps.get(index=0)
    SuggestionFactory(step=stale, source="consensus", agent="consensus:rollout+judge", value=1)
    first_errors = {agree.problem.text: 1, differ.problem.text: 2}
    monkeypatch.setitem(ENGINES, "symbolic", JudgeStandIn(first_errors))
    run = autolabel_run_create(project=project, sources=["consensus", "symbolic"])

    processed = autolabel_chunk_process(run=run, solution_ids=[agree.pk, differ.pk])

    assert [item.status for item in processed] == [ItemStatus.DONE] * 2
    got = Suggestion.objects.filter(source="consensus")
    assert sorted(got.values_list("step__solution_id", "step__index", "value")) == [
        (agree.id, 0, 1),
        (agree.id, 1, -1),
    ]
    differ.refresh_from_db()
    assert differ.metadata["consensus"]["first_errors"] == {"rollout": 1, "judge": 2}
    assert [item.suggestions for item in processed] == [2 + 2, 3]  # judge + consensus rows


def test_the_autolabel_command_inline_processes_every_chunk(pb_project, monkeypatch):
    from io import StringIO

    from django.core.management import call_command

    scripted = Scripted()
    monkeypatch.setitem(ENGINES, "symbolic", scripted)
    out = StringIO()
    args = ("--project", str(pb_project.pk), "--sources", "symbolic", "--inline")
    call_command("autolabel", *args, stdout=out)
    run = AutolabelRun.objects.get(project=pb_project)
    assert (run.status, run.done, run.failed) == (RunStatus.DONE, 100, 0)
    assert scripted.calls == 100
    assert f"Run {run.pk} done: 100 done, 0 failed" in out.getvalue()
