"""A run's items written and its chunks sent to the workers, in work that does not grow with
the project or the run.

- The items are written by the database, `INSERT ... SELECT` of the matching solutions' ids
  (no id passes through Python): creating a run is a fixed number of statements, and a start
  writes a run created over the API in batches by solution id, each its own short
  transaction, sending the first window after the first batch (so the first chunk does not
  wait for a million items). Chunks that end before the write has a next item for them are
  owed (`dispatch_owed`) and sent after the next batch, so the window stays full; the run
  finishes only once every item is written (`prepared`).
- The chunks are sent a window at a time: the start (or a resume) sends at most
  CHUNKS_IN_FLIGHT chunks, and each chunk, when it ends, sends the next one. A chunk takes
  the run's pending items after the run's dispatch cursor (`dispatched_to`, the highest
  solution id sent since the last start), read on the partial index of pending items and
  advanced under the run's row lock, so concurrent chunks take disjoint ranges.

So the broker holds at most a window of a run's chunks: a pause or cancel leaves little to
drain (the chunks check the run's status first), and a Redis that loses its messages loses at
most a window, which the recovery sweep (autolabel.recovery) sends again by restarting the run:
a start resets the cursor, and every item still pending is taken again (a chunk processes only
pending items, each counted once: autolabel.run_progress).
"""

from __future__ import annotations

from django.conf import settings
from django.db import connection, transaction
from django.db.models import F, QuerySet
from django.utils import timezone

from autolabel.models import AutolabelItem, AutolabelRun, ItemStatus, RunStatus

CHUNKS_IN_FLIGHT = 32


def chunks_in_flight() -> int:
    """How many of a run's chunks the start sends at once (AUTOLABEL_CHUNKS_IN_FLIGHT)."""
    return max(1, int(getattr(settings, "AUTOLABEL_CHUNKS_IN_FLIGHT", CHUNKS_IN_FLIGHT)))


def run_items_write(
    *, run: AutolabelRun, solution_ids: QuerySet, after: int = 0, limit: int | None = None
) -> tuple[int, int]:
    """Write one pending item per solution of `solution_ids` (a queryset of ids in id order),
    in one statement: all of them, or with `limit` the first `limit` after solution id `after`
    (a batch of a start's write: autolabel.services.autolabel_run_prepare_batch). A solution
    whose item is there already is skipped (the (run, solution) key). Returns (items written,
    solutions listed): fewer listed than `limit` means the batch was the last."""
    table = AutolabelItem._meta.db_table
    columns = "(run_id, solution_id, status, attempts, suggestions, error, updated_at)"
    values = [run.pk, ItemStatus.PENDING, timezone.now()]
    with connection.cursor() as cursor:
        if limit is None:
            query, params = solution_ids.query.sql_with_params()
            cursor.execute(
                f"INSERT INTO {table} {columns} "  # noqa: S608 - the table's name, Django's SQL
                f"SELECT %s, ids.id, %s, 0, 0, '', %s FROM ({query}) AS ids",
                [*values, *params],
            )
            return cursor.rowcount, cursor.rowcount
        query, params = solution_ids.filter(pk__gt=after)[:limit].query.sql_with_params()
        if connection.vendor == "postgresql":
            cursor.execute(
                f"WITH ids AS ({query}), written AS ("  # noqa: S608 - as above
                f"INSERT INTO {table} {columns} SELECT %s, ids.id, %s, 0, 0, '', %s FROM ids "
                "ON CONFLICT (run_id, solution_id) DO NOTHING RETURNING 1) "
                "SELECT (SELECT count(*) FROM written), (SELECT count(*) FROM ids)",
                [*params, *values],
            )
            written, listed = cursor.fetchone()
            return written, listed
        # SQLite (`make run`'s embedded database) has no INSERT in a WITH: the batch listed by
        # one statement and written by another ("WHERE true": SQLite's upsert after a SELECT).
        cursor.execute(f"SELECT count(*) FROM ({query}) AS ids", params)  # noqa: S608
        (listed,) = cursor.fetchone()
        cursor.execute(
            f"INSERT INTO {table} {columns} "  # noqa: S608 - as above
            f"SELECT %s, ids.id, %s, 0, 0, '', %s FROM ({query}) AS ids WHERE true "
            "ON CONFLICT (run_id, solution_id) DO NOTHING",
            [*values, *params],
        )
        return cursor.rowcount, listed


def _pending_after(run_id: int, after: int, limit: int) -> list[int]:
    """The run's pending solution ids after `after`, in order: a walk of the partial index."""
    return list(
        AutolabelItem.objects.filter(
            run_id=run_id, status=ItemStatus.PENDING, solution_id__gt=after
        )
        .order_by("solution_id")
        .values_list("solution_id", flat=True)[:limit]
    )


def _take(run: AutolabelRun, *, size: int, chunks: int) -> list[list[int]]:
    """Up to `chunks` chunks of the pending items after the cursor, the cursor moved past
    them (also `run.dispatched_to`). The caller holds the run's row lock."""
    ids = _pending_after(run.pk, run.dispatched_to, size * chunks)
    if ids:
        run.dispatched_to = ids[-1]
        AutolabelRun.objects.filter(pk=run.pk).update(
            dispatched_to=ids[-1], dispatched_at=timezone.now()
        )
    return [ids[i : i + size] for i in range(0, len(ids), size)]


@transaction.atomic
def run_dispatch_start(*, run: AutolabelRun, size: int) -> list[list[int]]:
    """The first window of a run's chunks, from its first pending item; marks it running.
    A start sent again (a redelivery, a resume, the recovery sweep) starts over from the
    first pending item. Nothing for a run that is not pending or running. While the start
    still writes the run's items, the window's chunks it could not fill are owed."""
    run = AutolabelRun.objects.select_for_update().get(pk=run.pk)
    if run.status not in (RunStatus.PENDING, RunStatus.RUNNING):
        return []
    if run.status == RunStatus.PENDING:
        run.status, run.started_at = RunStatus.RUNNING, timezone.now()
        AutolabelRun.objects.filter(pk=run.pk).update(status=run.status, started_at=run.started_at)
    run.dispatched_to = 0
    taken = _take(run, size=size, chunks=chunks_in_flight())
    owed = 0 if run.prepared else chunks_in_flight() - len(taken)
    AutolabelRun.objects.filter(pk=run.pk).update(
        dispatched_to=run.dispatched_to, dispatch_owed=owed
    )
    return taken


@transaction.atomic
def run_dispatch_next(*, run: AutolabelRun, size: int) -> list[int]:
    """The next chunk, for a chunk that just ended: none when the run is not running (paused,
    cancelled, finished) or every pending item was sent. One that finds none while the start
    still writes the items leaves its place in the window owed (`run_dispatch_owed`)."""
    run = (
        AutolabelRun.objects.select_for_update()
        .only("status", "dispatched_to", "prepared")
        .filter(pk=run.pk)
        .first()
    )
    if run is None or run.status != RunStatus.RUNNING:
        return []
    taken = _take(run, size=size, chunks=1)
    if not taken and not run.prepared:
        AutolabelRun.objects.filter(pk=run.pk).update(dispatch_owed=F("dispatch_owed") + 1)
    return taken[0] if taken else []


@transaction.atomic
def run_dispatch_owed(*, run: AutolabelRun, size: int) -> list[list[int]]:
    """The chunks the window is owed, of the items after the cursor, for the start after it
    wrote a batch of them: the chunks that ended before there was a next one to send (the
    workers outran the write), or the window's places the first batch could not fill."""
    run = (
        AutolabelRun.objects.select_for_update()
        .only("status", "dispatched_to", "dispatch_owed")
        .filter(pk=run.pk)
        .first()
    )
    if run is None or run.status != RunStatus.RUNNING or not run.dispatch_owed:
        return []
    taken = _take(run, size=size, chunks=run.dispatch_owed)
    if taken:
        AutolabelRun.objects.filter(pk=run.pk).update(dispatch_owed=F("dispatch_owed") - len(taken))
    return taken
