"""A run's chunk of solutions processed with a fixed number of queries, whatever its size.

What a worker does beside the engines is a few statements per chunk, not a dozen per solution
(bench/run_speed_bench.py measures the difference): the chunk's pending items are claimed with
one probe of the solution's items per solution and locked by id (never a walk of the run's
items: autolabel.run_progress.run_item_ids),
its solutions, problems and steps read with two, the engines' suggestions written with one
multi-row upsert (labeling.pg.rows_insert.insert_rows) and withdrawn verdicts deleted with one, the
review reasons refreshed with one statement for the chunk's solutions that have submitted
annotations (every reason reads submitted labels, so a solution without any has none: see
labeling.selectors.review.reasons), and the items marked and the run's counters added to in one
short transaction (autolabel.run_progress: no statement reads the whole run).

The effects are those of processing each solution on its own (autolabel.services'
idempotency holds): sources that combine others (consensus) run after the others' suggestions
are stored, an engine's error fails its item only, a backend that is down stores what was
computed and re-raises so the task retries the rest.
"""

import logging
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from autolabel.engines.base import EngineResult, SolutionInput
from autolabel.errors import BackendUnavailable, ItemSkipped
from autolabel.limits import limits
from autolabel.models import AutolabelItem, AutolabelRun, ItemStatus
from autolabel.registry import ENGINES, engine_for, source_applies
from autolabel.run_progress import ItemOutcome, items_record, run_item_ids, verdicts_of
from labeling.models import (
    Annotation,
    AnnotationStatus,
    Domain,
    Solution,
    Step,
    Suggestion,
    sources_for_problem,
)
from labeling.pg.rows_insert import insert_rows, json_value, time_value
from labeling.selectors.review import AUTO_CONFLICT_SOURCES
from labeling.services.imports.tables import SUGGESTION_COLUMNS
from labeling.services.projects.metrics_version import metrics_version_bump_of_solutions
from labeling.services.review.reasons import review_reasons_refresh

log = logging.getLogger(__name__)
# Solutions per write transaction: a submit waiting on a chunk's row locks waits at most for
# this many solutions' writes (about 160 ms for 20 on the loaded dev machine).
WRITE_BATCH = 20
STOP_CHECK_S = 1.0  # a paused or cancelled run stops within about this long (one query a check)


@dataclass
class SolutionWork:
    """One solution of the chunk: its item, its stored rows, and what was done to it."""

    item: AutolabelItem
    solution: Solution
    steps: list[tuple[int, str, dict]]  # (step id, text, metadata) in index order
    groups: tuple[list[str], list[str]]  # sources on the bare solution, then on suggestions
    written: int = 0
    error: str = ""
    reached: bool = (
        False  # not reached: the run was paused or cancelled first; the item stays pending
    )
    ran: set[int] = field(default_factory=set)  # the groups whose results are stored
    verdicts: Counter = field(default_factory=Counter)  # of the suggestions written

    @property
    def finished(self) -> bool:
        """Failed, or every group of its sources stored."""
        return bool(self.error) or (
            self.reached and all(i in self.ran for i in (0, 1) if self.groups[i])
        )

    @property
    def step_ids(self) -> dict[int, int]:
        return {index: step_id for index, (step_id, _, _) in enumerate(self.steps)}


def sources_for(run: AutolabelRun, solution: Solution) -> list[str]:
    """The run's sources that apply to this solution's problem (all of them outside a
    many-domains project, whose sources all apply to its one domain)."""
    if run.project.domain != Domain.MIXED:
        return list(run.sources)
    domain = solution.problem.domain or run.project.blank_domain  # blank: the default
    own = sources_for_problem(domain, Domain.MIXED)
    return [name for name in run.sources if name in own or source_applies(name, domain)]


def source_groups(sources: list[str]) -> tuple[list[str], list[str]]:
    """Engines that combine other sources (consensus) run last, on what the others stored."""
    first = [n for n in sources if not getattr(ENGINES.get(n), "needs_suggestions", False)]
    return first, [n for n in sources if n not in first]


def stored_suggestions(works: list[SolutionWork]) -> dict[int, dict[str, tuple]]:
    """Per solution, every stored non-consensus suggestion as {"source:agent": values a step}:
    one query for the chunk."""
    position = {
        step_id: (work.solution.pk, i, len(work.steps))
        for work in works
        for i, (step_id, _, _) in enumerate(work.steps)
    }
    tables: dict[int, dict[str, list[int | None]]] = {work.solution.pk: {} for work in works}
    rows = Suggestion.objects.filter(step_id__in=list(position)).exclude(source="consensus")
    for step_id, source, agent, value in rows.order_by("id").values_list(
        "step_id", "source", "agent", "value"
    ):
        solution_id, i, count = position[step_id]
        values = tables[solution_id].setdefault(f"{source}:{agent}", [None] * count)
        values[i] = value
    return {
        sid: {key: tuple(values) for key, values in table.items()} for sid, table in tables.items()
    }


def solution_input(
    solution: Solution,
    steps: list[tuple[int, str, dict]],
    suggestions: dict | None = None,
    caps: dict[str, float] | None = None,
) -> SolutionInput:
    problem = solution.problem
    return SolutionInput(
        problem=problem.text,
        gold_answer=problem.answer,
        steps=tuple(text for _, text, _ in steps),
        final_answer=solution.final_answer,
        suggestions=suggestions or {},
        tests=(problem.metadata or {}).get("tests"),
        answer_correct=solution.answer_correct,
        step_metadata=tuple(metadata or {} for _, _, metadata in steps),
        problem_metadata=problem.metadata or {},
        limits=limits() if caps is None else caps,
    )


def chunk_works(run: AutolabelRun, items: list[AutolabelItem]) -> list[SolutionWork]:
    """The items' solutions with their problems (one query) and steps (one query)."""
    solutions = Solution.objects.select_related("problem").in_bulk([i.solution_id for i in items])
    steps: dict[int, list[tuple[int, str, dict]]] = {sid: [] for sid in solutions}
    rows = Step.objects.filter(solution_id__in=list(solutions)).order_by("solution_id", "index")
    for solution_id, step_id, text, metadata in rows.values_list(
        "solution_id", "id", "text", "metadata"
    ):
        steps[solution_id].append((step_id, text, metadata))
    return [
        SolutionWork(
            item=item,
            solution=solutions[item.solution_id],
            steps=steps[item.solution_id],
            groups=source_groups(sources_for(run, solutions[item.solution_id])),
        )
        for item in items
        if item.solution_id in solutions
    ]


def items_claim(run: AutolabelRun, solution_ids: list[int]) -> list[AutolabelItem]:
    """The chunk's pending items, each attempt counted; found one probe a solution
    (run_item_ids: the run's items are rows the planner has not seen), then locked by id."""
    ids = run_item_ids(run_id=run.pk, solution_ids=solution_ids)
    with transaction.atomic():
        # Status checked here, after the lock: with the status in the statement a planner
        # may walk the run's pending items on (run, status) instead.
        items = [
            item
            for item in AutolabelItem.objects.select_for_update()
            .filter(pk__in=ids)
            .order_by("solution_id")
            if item.status == ItemStatus.PENDING
        ]
        if items:
            AutolabelItem.objects.filter(pk__in=[i.pk for i in items]).update(
                attempts=F("attempts") + 1, updated_at=timezone.now()
            )
    for item in items:
        item.attempts += 1
    return items


def suggestions_write(
    entries: list[tuple[Solution, dict[int, int], list[EngineResult]]],
) -> list[int]:
    """Store engines' results for several solutions (each with its steps' ids by index);
    re-running overwrites, never duplicates. Returns the suggestions written per entry.

    One multi-row upsert for the suggestions, one DELETE for withdrawn verdicts, one for stale
    consensus, an UPDATE only for a solution whose own fields change, one review-reason
    refresh. Call inside a transaction."""
    now = time_value(timezone.now())
    rows: dict[tuple[int, str, str], tuple] = {}
    withdrawn = Q()
    kept_consensus: dict[int, list[int]] = {}
    reasons_of: list[int] = []
    written = []
    for solution, step_ids, results in entries:
        count = 0
        for result in results:
            mine = [
                (step_ids[s.step_index], s) for s in result.suggestions if s.step_index in step_ids
            ]
            for step_id, s in mine:
                rows[(step_id, result.source, result.agent)] = (
                    step_id,
                    result.source,
                    result.agent,
                    s.value,
                    s.score,
                    json_value(s.evidence),
                    now,
                    now,
                )
            count += len(mine)
            gone = [step_ids[i] for i in result.withdrawn if i in step_ids]
            if gone:  # the engine no longer says anything there: an old verdict must not stay
                withdrawn |= Q(step_id__in=gone, source=result.source, agent=result.agent)
            if result.source == "consensus":
                kept_consensus[solution.pk] = [step_id for step_id, _ in mine]
            if result.source in AUTO_CONFLICT_SOURCES:  # a refuted step is a review reason
                reasons_of.append(solution.pk)
            _solution_fields_update(solution, result)
        written.append(count)
    insert_rows(
        Suggestion._meta.db_table,
        SUGGESTION_COLUMNS,
        list(rows.values()),
        conflict=("step_id", "source", "agent"),
        update=("value", "score", "evidence", "updated_at"),
    )
    if kept_consensus:  # a consensus that no longer holds must not leave stale labels behind
        stale = Q()
        for solution_id, kept in kept_consensus.items():
            stale |= Q(step__solution_id=solution_id) & ~Q(step_id__in=kept)
        Suggestion.objects.filter(stale, source="consensus").delete()
    if withdrawn:
        Suggestion.objects.filter(withdrawn).delete()
    if reasons_of:
        _review_reasons_refresh(reasons_of)
    # Suggestions written or withdrawn: the metrics' agreement with machine sources, of these
    # solutions (logged: the next refresh recomputes their parts only); projects in id order.
    of_project: dict[int, list[int]] = defaultdict(list)
    for solution, _, _ in entries:
        of_project[solution.project_id].append(solution.pk)
    for project_id in sorted(of_project):
        metrics_version_bump_of_solutions(
            project_id=project_id, solution_ids=of_project[project_id]
        )
    return written


def _solution_fields_update(solution: Solution, result: EngineResult) -> None:
    updates: dict = {}
    if result.answer_correct is not None:
        updates["answer_correct"] = result.answer_correct
    if result.final_answer and not solution.final_answer:
        updates["final_answer"] = result.final_answer
    if result.solution_evidence:
        solution.refresh_from_db(fields=["metadata"])
        updates["metadata"] = {**solution.metadata, result.source: result.solution_evidence}
    if updates:
        Solution.objects.filter(pk=solution.pk).update(**updates)
        for name, value in updates.items():
            setattr(solution, name, value)


def _review_reasons_refresh(solution_ids: list[int]) -> None:
    """Refresh the reasons of those of the solutions that have submitted annotations.

    The rows are locked first, in id order (as review_reasons_refresh does), so a submit racing
    on one of them either commits before the check below sees its annotation, or waits and then
    reads the suggestions just written: no stored mask misses the other's rows."""
    ids = sorted(set(solution_ids))
    list(Solution.objects.filter(pk__in=ids).order_by("pk").select_for_update().values_list("pk"))
    labeled = list(
        Annotation.objects.filter(solution_id__in=ids, status=AnnotationStatus.SUBMITTED)
        .order_by()
        .values_list("solution_id", flat=True)
        .distinct()
    )
    if labeled:
        review_reasons_refresh(solution_ids=labeled, locked=True)


def _write(entries: list[tuple[SolutionWork, list[EngineResult]]], run: AutolabelRun) -> None:
    """The chunk's writes in transactions of at most WRITE_BATCH solutions, so a chunk of 500
    holds its solutions' row locks (the review-reason refresh) no longer than one of 20."""
    for start in range(0, len(entries), WRITE_BATCH):
        _write_batch(entries[start : start + WRITE_BATCH], run)


def _write_batch(entries: list[tuple[SolutionWork, list[EngineResult]]], run: AutolabelRun) -> None:
    """One transaction for the batch; should it fail, one a solution, so that only a solution
    whose own rows fail is marked failed."""
    if not entries:
        return
    try:
        with transaction.atomic():
            counts = suggestions_write([(w.solution, w.step_ids, r) for w, r in entries])
        for (work, results), count in zip(entries, counts, strict=True):
            work.written += count
            work.verdicts.update(verdicts_of(results, work.step_ids))
        return
    except BackendUnavailable:
        raise
    except Exception:
        log.exception("autolabel run %s: a chunk's write; writing one solution at a time", run.pk)
    for work, results in entries:
        try:
            with transaction.atomic():
                work.written += suggestions_write([(work.solution, work.step_ids, results)])[0]
            work.verdicts.update(verdicts_of(results, work.step_ids))
        except Exception as exc:
            log.exception("autolabel run %s, solution %s", run.pk, work.solution.pk)
            work.error = f"{type(exc).__name__}: {exc}"[:2000]


def _items_finish(run: AutolabelRun, works: list[SolutionWork]) -> list[AutolabelItem]:
    """Mark the finished items and add them to the run's counters in one transaction; only
    items still pending count (autolabel.run_progress). Returns the items marked here."""
    outcomes = [
        ItemOutcome(
            item=work.item,
            status=ItemStatus.FAILED if work.error else ItemStatus.DONE,
            error=work.error,
            suggestions=work.written,
            verdicts=work.verdicts,
        )
        for work in works
    ]
    return [o.item for o in items_record(run_id=run.pk, outcomes=outcomes)]


def _prefetch(run: AutolabelRun, works: list[SolutionWork]) -> None:
    """Let engines that score in batches (prm) score the chunk at once (a chunk of one is
    scored as it is processed). Best effort: an engine that fails here fails again, with its
    error stored, when each solution is processed."""
    if len(works) < 2:
        return
    for name in run.sources:
        engine = ENGINES.get(name)
        if not hasattr(engine, "prefetch"):
            continue
        mine = [solution_input(w.solution, w.steps) for w in works if name in w.groups[0]]
        if not mine:
            continue
        try:
            engine.prefetch(mine, run.params.get(name, {}))
        except Exception:
            log.exception("autolabel run %s: %s prefetch", run.pk, name)


def _stop_checker(stop: Callable[[], bool] | None) -> Callable[[], bool]:
    """`stop`, asked before the first solution and then at most every STOP_CHECK_S."""
    if stop is None:
        return lambda: False
    asked = [float("-inf"), False]

    def check() -> bool:
        if not asked[1] and time.monotonic() - asked[0] >= STOP_CHECK_S:
            asked[0], asked[1] = time.monotonic(), stop()
        return bool(asked[1])

    return check


def autolabel_chunk_process(
    *,
    run: AutolabelRun,
    solution_ids: list[int],
    stop: Callable[[], bool] | None = None,
) -> list[AutolabelItem]:
    """Run every source of the run on the chunk's pending solutions; returns the items
    processed (done or failed) and counted here. `stop` (a paused or cancelled run) leaves the
    rest pending."""
    items = items_claim(run, solution_ids)
    if not items:
        return []
    works = chunk_works(run, items)
    _prefetch(run, works)
    stopped = _stop_checker(stop)
    caps = limits()
    for phase in (0, 1):
        stored = {}
        if phase == 1:
            stored = stored_suggestions([w for w in works if w.reached and w.groups[1]])
        entries: list[tuple[SolutionWork, list[EngineResult]]] = []
        down: BackendUnavailable | None = None
        for work in works:
            if phase == 0:
                if stopped():
                    break  # the run was paused or cancelled: the rest stays pending
                work.reached = True
            if work.error or not work.reached or not work.groups[phase]:
                continue
            data = solution_input(work.solution, work.steps, stored.get(work.solution.pk), caps)
            try:
                results = [engine_for(n)(data, run.params.get(n, {})) for n in work.groups[phase]]
            except BackendUnavailable as exc:
                down = exc  # store what was computed; the task retries the chunk
                break
            except ItemSkipped as exc:  # over its budget: the reason is the failure, as it is
                work.error = str(exc)[:2000]
                continue
            except Exception as exc:  # an engine's bug must not stop the run: its item fails
                log.exception("autolabel run %s, solution %s", run.pk, work.solution.pk)
                work.error = f"{type(exc).__name__}: {exc}"[:2000]
                continue
            entries.append((work, results))
        _write(entries, run)
        for work, _ in entries:
            work.ran.add(phase)
        if down is not None:
            _items_finish(run, [w for w in works if w.finished])
            raise down
    return _items_finish(run, [w for w in works if w.finished])
