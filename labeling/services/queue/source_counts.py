"""The Assignments tab's problem sources with their counts (all, open, unassigned), bounded.

Counting them is a GROUP BY over every non-gold solution of the project with a probe of its
assignments (`problem_source_list`): 0.04 s at 10k solutions, about 3 s at a million, and the
tab asked twice per load (the page and its count). So, as the dashboard's metrics do
(services/projects/metrics.py), a project of at most SOURCE_COUNTS_LIVE_MAX non-gold solutions
is counted live (exact, cheap), and a larger one reads a stored snapshot (SourceCountRow, one
row per source) that a background task computes:

- The snapshot is exact while nothing it read changed: it keeps the project's metrics version
  (moved by every write to what it counts: imports, submit / reject / resubmit, gold set /
  unset, the explorer's requeue, project settings such as the overlap, the Django admin's edits
  of solutions and problems; tests/metrics/test_metrics_version.py has a test per path) and the
  project's assignment version (moved by `assignment_create` / `assignment_clear`:
  `source_counts_mark`), both read before it was counted. Equal to the current ones: served as
  exact, three statements over the stored rows, none over the solutions.
- Behind either, the rows are served as they are with `as_of` (when they were counted) and a
  refresh (`source_counts_refresh_task`, through the outbox) is queued once the snapshot is
  older than the metrics' refresh interval (DUTY times its own counting's duration, within
  [5 s, 15 min]: a tab watched while a team labels keeps the database busy a tenth of the time
  at most), one pending at a time; a refresh lost with its worker is queued again by the next
  read after the max age. A large project never counted answers no rows, `refreshing`.

This is a snapshot rather than counts kept by every writer (exact, but a dozen writers each
moving three counters, and the overlap change rewriting them all): the versions already
say when it is stale, and staleness costs an "as of" line on an admin's page, not a wrong
assignment: the assignment POST chooses its solutions with its own exact filters at write time.

Tasks import services, never the reverse: the task is sent by its name.
"""

from dataclasses import dataclass
from datetime import datetime
from time import perf_counter

from django.conf import settings
from django.db import connection, transaction
from django.db.models import F, QuerySet
from django.db.models.expressions import RawSQL
from django.utils import timezone

from labeling.models import Project, Solution, SourceCountRow, SourceCountsSnapshot
from labeling.pg.named_locks import named_xact_lock
from labeling.selectors.admin import problem_source_list
from labeling.services.jobs.outbox import outbox_add
from labeling.services.projects.metrics import max_age, refresh_interval
from labeling.services.projects.metrics_version import metrics_version_sql

REFRESH_TASK = "labeling.tasks.source_counts_refresh_task"

_TABLE = SourceCountsSnapshot._meta.db_table
# The header row of the project, created when missing; `bump` added to its assignment version.
_UPSERT = (
    f"INSERT INTO {_TABLE} (project_id, duration_ms, assignments_version, solutions)"
    " VALUES (%s, 0, %s, 0) ON CONFLICT (project_id) DO "
)


def _live_max() -> int:
    return getattr(settings, "SOURCE_COUNTS_LIVE_MAX", 20_000)


@dataclass(frozen=True)
class SourceCountsAnswer:
    rows: QuerySet  # as problem_source_list's: problem__source, solutions, open, unassigned
    as_of: datetime | None  # None: exact (counted now, or nothing changed since)
    refreshing: bool  # a refresh is queued and not done yet


def source_counts_mark(*, project_id: int) -> None:
    """Move the project's assignment version, in the caller's transaction: for every service
    that creates or deletes assignments (one upsert; the row stays locked to the commit, so
    assignment writes of one project queue behind each other, which they are rare enough for).
    """
    with connection.cursor() as cursor:
        cursor.execute(
            _UPSERT + f"UPDATE SET assignments_version = {_TABLE}.assignments_version + 1",
            [project_id, 1],
        )


def source_counts_refresh(*, project: Project) -> SourceCountsSnapshot:
    """Count the project's sources now and store them with the versions read before counting
    (a write committed meanwhile leaves the snapshot behind: the next read refreshes again).
    Idempotent: a redelivered task counts again. Under the project's refresh lock on
    PostgreSQL, so two refreshes do not interleave their rows."""
    with connection.cursor() as cursor:  # the header, outside the transaction: no row lock held
        cursor.execute(_UPSERT + "NOTHING", [project.pk, 0])
    with transaction.atomic():
        if connection.vendor == "postgresql":
            named_xact_lock(f"source-counts-{project.pk}")
        read = (
            SourceCountsSnapshot.objects.filter(project=project)
            .annotate(version=RawSQL(metrics_version_sql(), [project.pk]))
            .values("assignments_version", "version")
            .get()
        )
        # The overlap after the versions: an overlap change committed before this read is in it.
        project.refresh_from_db(fields=["overlap"])
        started = perf_counter()
        rows = [
            SourceCountRow(
                project=project,
                source=row["problem__source"],
                solutions=row["solutions"],
                open=row["open"],
                unassigned=row["unassigned"],
            )
            for row in problem_source_list(project=project)
        ]
        SourceCountRow.objects.filter(project=project).delete()
        SourceCountRow.objects.bulk_create(rows, batch_size=2000)
        SourceCountsSnapshot.objects.filter(project=project).update(
            computed_at=timezone.now(),
            duration_ms=int((perf_counter() - started) * 1000),
            labels_version=read["version"],
            computed_assignments=read["assignments_version"],
            solutions=sum(row.solutions for row in rows),
        )
    return SourceCountsSnapshot.objects.get(project=project)


def source_counts_get(*, project: Project) -> SourceCountsAnswer:
    """The project's sources with their counts: live for a small project (by the stored total
    when it was counted, else a count that stops past the bound), else from the snapshot:
    exact at the current versions, else with `as_of`, queueing a refresh when due."""
    snapshot = (
        SourceCountsSnapshot.objects.filter(project=project)
        .annotate(version=RawSQL(metrics_version_sql(), [project.pk]))
        .first()
    )
    if (snapshot is None or snapshot.solutions <= _live_max()) and _small(project):
        return SourceCountsAnswer(
            rows=problem_source_list(project=project), as_of=None, refreshing=False
        )
    rows = (
        SourceCountRow.objects.filter(project=project)
        .order_by("source")
        .values("solutions", "open", "unassigned", problem__source=F("source"))
    )
    if snapshot is not None and _exact(snapshot):
        return SourceCountsAnswer(rows=rows, as_of=None, refreshing=False)
    refreshing = snapshot is not None and _pending(snapshot)
    if not refreshing and (snapshot is None or snapshot.computed_at is None or _due(snapshot)):
        source_counts_request_refresh(project=project)  # False: queued meanwhile by another
        refreshing = True
    return SourceCountsAnswer(
        rows=rows, as_of=None if snapshot is None else snapshot.computed_at, refreshing=refreshing
    )


@transaction.atomic
def source_counts_request_refresh(*, project: Project) -> bool:
    """Queue a refresh (through the outbox: a broker that is down leaves it to the outbox's
    sweep); False when one is pending already, so an admin page read by many queues one."""
    with connection.cursor() as cursor:
        cursor.execute(_UPSERT + "NOTHING", [project.pk, 0])
    snapshot = SourceCountsSnapshot.objects.select_for_update().get(project=project)
    if _pending(snapshot):
        return False
    SourceCountsSnapshot.objects.filter(pk=snapshot.pk).update(requested_at=timezone.now())
    outbox_add(task=REFRESH_TASK, args=[project.pk])
    return True


def _small(project: Project) -> bool:
    """At most the live bound of non-gold solutions, counted no further than one past it."""
    bound = _live_max()
    solutions = Solution.objects.filter(project=project, is_gold=False)
    return solutions.values("pk")[: bound + 1].count() <= bound


def _exact(snapshot: SourceCountsSnapshot) -> bool:
    return (
        snapshot.computed_at is not None
        and snapshot.labels_version == snapshot.version
        and snapshot.computed_assignments == snapshot.assignments_version
    )


def _pending(snapshot: SourceCountsSnapshot) -> bool:
    """A refresh queued within the max age (a lost one is queued again) and not done yet."""
    return (
        snapshot.requested_at is not None
        and snapshot.requested_at > timezone.now() - max_age()
        and (snapshot.computed_at is None or snapshot.computed_at < snapshot.requested_at)
    )


def _due(snapshot: SourceCountsSnapshot) -> bool:
    """Older than its refresh interval (the metrics' rule, from its own duration)."""
    return snapshot.computed_at < timezone.now() - refresh_interval(snapshot)  # type: ignore[arg-type]
