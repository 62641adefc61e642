"""A run's bookkeeping, kept incrementally: its counters, rate, verdicts and failures.

Each chunk adds what it did to the run's row in the transaction that marks its items, so the
cost of a chunk's bookkeeping does not grow with the run (no COUNT over the run's items):

- only items still pending are marked (locked first, in id order), and only those count: a
  redelivered chunk, or two deliveries of one chunk at once, count an item once;
- the run's row is locked for the update, so concurrent chunks add up exactly;
- the rate is smoothed over chunk completions (an exponentially weighted rate in time, with
  time constant RATE_TAU_S), so many workers finishing at once neither spike nor zero it;
- failures are grouped by message (at most MAX_ERROR_GROUPS, the rest under OTHER_ERRORS),
  the first MAX_STORED_ERRORS kept with their solution for display.

A run finishes when none of its items is pending, checked with one keyed lookup after the
chunk's commit (so of two chunks finishing last at once, the later one sees the other's).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from autolabel.engines.base import DOUBTFUL, EngineResult
from autolabel.models import AutolabelItem, AutolabelRun, ItemStatus, RunStatus
from labeling.services.webhooks.events import (
    AUTOLABEL_RUN_FINISHED,
    autolabel_run_finished_data,
    webhook_event_emit,
)

RATE_TAU_S = 30.0
MAX_ERROR_GROUPS = 20
MAX_STORED_ERRORS = 50
ERROR_KEY_CHARS = 300
OTHER_ERRORS = "Other errors"
VERDICT_KEYS = ("+1", "0", "-1", "doubtful", "evidence")
STOPPED = (RunStatus.PAUSED, RunStatus.CANCELLED)


@dataclass
class ItemOutcome:
    """One processed item: what to mark it, and the verdicts its processing wrote."""

    item: AutolabelItem
    status: str
    error: str = ""
    suggestions: int = 0
    verdicts: Counter | None = None


def verdict_key(value: int | None, evidence: dict | None) -> str:
    """ "+1", "0", "-1", or for evidence without a rating "doubtful" (a failed claim of a kind
    that has not earned a −1) or "evidence" (e.g. "checks out")."""
    if value is not None:
        return {1: "+1", 0: "0", -1: "-1"}.get(value, str(value))
    return DOUBTFUL if (evidence or {}).get("kind") == DOUBTFUL else "evidence"


def verdicts_of(results: Iterable[EngineResult], step_indexes: Iterable[int]) -> Counter:
    """The verdicts of the results' suggestions on steps that exist (those written)."""
    steps = set(step_indexes)
    return Counter(
        verdict_key(s.value, s.evidence)
        for result in results
        for s in result.suggestions
        if s.step_index in steps
    )


def smoothed_rate(
    *, rate: float | None, since: datetime | None, now: datetime, solutions: int
) -> float | None:
    """The run's rate after `solutions` more finished at `now`, the last completion at `since`.

    Irregular-time EWMA: the new observation solutions/dt weighs 1 - exp(-dt / tau); a chunk
    finishing right after another adds about solutions/tau, never a spike."""
    if since is None:
        return rate
    dt = (now - since).total_seconds()
    if dt <= 0:
        dt = 1e-3
    observed = solutions / dt
    if rate is None:
        return observed
    weight = 1.0 - math.exp(-dt / RATE_TAU_S)
    return rate + weight * (observed - rate)


def error_key(error: str) -> str:
    text = (error or "").strip().splitlines()
    return (text[0] if text else "Unknown error")[:ERROR_KEY_CHARS]


def error_groups_add(groups: list[dict], errors: Iterable[str]) -> list[dict]:
    """The groups with these errors counted in; new messages past MAX_ERROR_GROUPS count
    under OTHER_ERRORS (which is then the last group)."""
    counts = {g["error"]: g["count"] for g in groups}
    for error in errors:
        key = error_key(error)
        if key not in counts and len([k for k in counts if k != OTHER_ERRORS]) >= MAX_ERROR_GROUPS:
            key = OTHER_ERRORS
        counts[key] = counts.get(key, 0) + 1
    ordered = sorted(counts.items(), key=lambda kv: (kv[0] == OTHER_ERRORS, -kv[1], kv[0]))
    return [{"error": error, "count": count} for error, count in ordered]


def run_item_ids(*, run_id: int, solution_ids: list[int]) -> list[int]:
    """The ids of the run's items of these solutions: one probe of the solution's items per
    solution, the run checked on the few found (one item per run that covered it).

    The run's items are rows no ANALYZE has seen while it runs (written at its start;
    autovacuum lags or is off), so the statistics give the run one item, and `run_id = <run>
    AND solution_id = ANY(<chunk>)` was planned as a walk of the whole run on an index of the
    run with the chunk as a filter: per chunk, quadratic in the run. One probe per id with
    the run indexable was planned the same way, per id, wherever the statistics put a run at
    one or two items (many small runs), the run given as a constant or as an InitPlan
    parameter alike: every index on the run then costs as much as the (run, solution) key.
    `run_id + 0` takes the run out of the index choice (tests/autolabel_runs/test_run_plans.py;
    bench/run_beside_bench.py)."""
    if connection.vendor != "postgresql":
        items = AutolabelItem.objects.filter(run_id=run_id, solution_id__in=solution_ids)
        return list(items.values_list("pk", flat=True))
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT (SELECT i.id FROM {AutolabelItem._meta.db_table} i"  # noqa: S608 - the table
            " WHERE i.solution_id = u.k AND i.run_id + 0 = %s)"
            " FROM unnest(%s::bigint[]) u(k)",
            [run_id, list(solution_ids)],
        )
        return [pk for (pk,) in cursor.fetchall() if pk is not None]


def items_record(*, run_id: int, outcomes: list[ItemOutcome]) -> list[ItemOutcome]:
    """Mark the items still pending as their outcomes say and add them to the run's
    bookkeeping, in one transaction; returns the outcomes that counted (an item another
    delivery marked first counts there, not here)."""
    if not outcomes:
        return []
    now = timezone.now()
    with transaction.atomic():
        # Locked by id, the status read after the lock (the latest committed): with the
        # status in the statement a planner may walk the run's pending items instead.
        rows = (
            AutolabelItem.objects.select_for_update()
            .filter(pk__in=[o.item.pk for o in outcomes])
            .order_by("pk")
            .values_list("pk", "status")
        )
        still = {pk for pk, status in rows if status == ItemStatus.PENDING}
        mine = [o for o in outcomes if o.item.pk in still]
        if not mine:
            return []
        for o in mine:
            o.item.status, o.item.error, o.item.suggestions = o.status, o.error, o.suggestions
            o.item.updated_at = now
        AutolabelItem.objects.bulk_update(
            [o.item for o in mine], ["status", "error", "suggestions", "updated_at"]
        )
        _run_add(run_id=run_id, outcomes=mine, now=now)
    return mine


def _run_add(*, run_id: int, outcomes: list[ItemOutcome], now: datetime) -> None:
    run = (
        AutolabelRun.objects.select_for_update()
        .only("rate", "rate_at", "started_at", "verdicts", "error_groups", "errors")
        .get(pk=run_id)
    )
    failed = [o for o in outcomes if o.status == ItemStatus.FAILED]
    verdicts = Counter({k: v for k, v in (run.verdicts or {}).items() if isinstance(v, int)})
    for o in outcomes:
        verdicts.update(o.verdicts or {})
    fields: dict = {
        "done": F("done") + len(outcomes) - len(failed),
        "failed": F("failed") + len(failed),
        "suggestions_written": F("suggestions_written") + sum(o.suggestions for o in outcomes),
        "verdicts": dict(verdicts),
        "rate": smoothed_rate(
            rate=run.rate, since=run.rate_at or run.started_at, now=now, solutions=len(outcomes)
        ),
        "rate_at": now,
    }
    if failed:
        fields["error_groups"] = error_groups_add(run.error_groups or [], [o.error for o in failed])
        room = MAX_STORED_ERRORS - len(run.errors or [])
        if room > 0:
            fields["errors"] = [
                *(run.errors or []),
                *(
                    {"solution_id": o.item.solution_id, "error": o.error}
                    for o in sorted(failed, key=lambda o: o.item.solution_id)[:room]
                ),
            ]
    AutolabelRun.objects.filter(pk=run_id).update(**fields)


def items_fail(*, run: AutolabelRun, solution_ids: list[int], error: str) -> int:
    """Give up on the pending ones of these items (a task out of retries or time), counted."""
    ids = run_item_ids(run_id=run.pk, solution_ids=solution_ids)
    items = AutolabelItem.objects.filter(pk__in=ids, status=ItemStatus.PENDING).order_by("pk")
    outcomes = [ItemOutcome(item=i, status=ItemStatus.FAILED, error=error[:2000]) for i in items]
    return len(items_record(run_id=run.pk, outcomes=outcomes))


def run_finish_if_complete(*, run: AutolabelRun) -> bool:
    """Finish a running (or paused) run all of whose items are written (`prepared`: not while
    its start still writes them) and none pending: done, or failed when every item failed.
    One keyed lookup on (run, status). Call after the chunk's commit."""
    if AutolabelItem.objects.filter(run_id=run.pk, status=ItemStatus.PENDING).exists():
        return False
    with transaction.atomic():
        row = (
            AutolabelRun.objects.select_for_update()
            .filter(pk=run.pk, status__in=(RunStatus.RUNNING, RunStatus.PAUSED), prepared=True)
            .values("done", "failed")
            .first()
        )
        if row is None:
            return False
        status = RunStatus.FAILED if row["done"] == 0 and row["failed"] else RunStatus.DONE
        AutolabelRun.objects.filter(pk=run.pk).update(status=status, finished_at=timezone.now())
        # The one call that finished it tells the webhooks, in the same transaction.
        finished = AutolabelRun.objects.get(pk=run.pk)
        webhook_event_emit(
            project=finished.project_id,
            event_type=AUTOLABEL_RUN_FINISHED,
            data=autolabel_run_finished_data(finished),
        )
    return True


def eta_seconds(run: AutolabelRun) -> float | None:
    """Seconds left at the current rate, while the run is running and has one, and its items
    are all written (until then its `total` is not final)."""
    if run.status != RunStatus.RUNNING or not run.prepared or not run.rate or run.rate <= 0:
        return None
    left = max(0, run.total - run.done - run.failed)
    return round(left / run.rate, 1)
