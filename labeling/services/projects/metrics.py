"""Serving project metrics: from a snapshot at the project's metrics version, else live when
a computation is cheap, else from the snapshot with how old it is, refreshed in the background
at a bounded rate.

Every write that changes what the metrics read moves the project's metrics version
(`metrics_version.py`), and a snapshot records the version it was computed at: while they are
equal the snapshot is exact and is served as it is, one statement (a dashboard polled while
nobody labels). Otherwise (people labeling: the version moves every few seconds) a project
whose last computation took at most `METRICS_LIVE_MAX_MS` and that has at most
`METRICS_LIVE_MAX_ANNOTATIONS` submitted annotations is computed now and stored at the version
read before. Any other answers from its snapshot, saying how old it is (`computed_at`, and
`changes_since`: the writes committed since, the version's distance), and queues
`project_metrics_refresh_task` when the snapshot is older than its refresh interval: its own
computation's duration times `METRICS_REFRESH_DUTY` (a dashboard watched while a team labels
keeps the database busy at most 1/DUTY of the time), at least `METRICS_REFRESH_MIN_SECONDS`,
at most `METRICS_MAX_AGE_SECONDS`; one refresh pending at a time. A project without a
snapshot is computed now when small by count, else queued (the API answers 202).

Tasks import services, never the reverse: the task is sent by its name (routed by
CELERY_TASK_ROUTES like any other), so this module does not import labeling.tasks.
"""

import json
from dataclasses import dataclass
from datetime import datetime, timedelta
from time import perf_counter

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, transaction
from django.db.models import QuerySet
from django.db.models.expressions import RawSQL
from django.utils import timezone

from labeling.metrics.domains import project_metrics_by_domain as project_metrics
from labeling.metrics.queries import submitted_annotations
from labeling.models import MetricsSnapshot, Project, Solution
from labeling.pg.named_locks import named_xact_lock
from labeling.selectors.labeling_page import project_stats
from labeling.services.jobs.outbox import outbox_add
from labeling.services.projects.metrics_parts import metrics_parts_update
from labeling.services.projects.metrics_version import metrics_version_get, metrics_version_sql

REFRESH_TASK = "labeling.tasks.project_metrics_refresh_task"
STATS_KEY = "stats"  # the project's stats, kept in the snapshot's data beside the metrics


def _live_max() -> int:
    return getattr(settings, "METRICS_LIVE_MAX_ANNOTATIONS", 20_000)


def max_age() -> timedelta:
    """How old a snapshot may be, or a queued refresh before it is taken as lost."""
    return timedelta(seconds=getattr(settings, "METRICS_MAX_AGE_SECONDS", 15 * 60))


def _live_max_ms() -> int | None:
    """None: a small project (by count) is computed live whatever it costs (the tests)."""
    return getattr(settings, "METRICS_LIVE_MAX_MS", 150)


def refresh_interval(snapshot: MetricsSnapshot) -> timedelta:
    """How long a snapshot behind the version is served before a refresh is queued: DUTY times
    its own computation's duration, clamped to [METRICS_REFRESH_MIN_SECONDS, max age]."""
    duty = getattr(settings, "METRICS_REFRESH_DUTY", 10)
    least = timedelta(seconds=getattr(settings, "METRICS_REFRESH_MIN_SECONDS", 5))
    return min(max_age(), max(least, timedelta(milliseconds=duty * snapshot.duration_ms)))


@dataclass(frozen=True)
class MetricsAnswer:
    data: dict | None  # None: nothing computed yet, a refresh is queued
    computed_at: datetime | None
    cached: bool
    refreshing: bool  # a refresh is queued and not done yet
    # Writes that change the metrics committed since they were computed (0: exact; None: a
    # snapshot from before the versions, or none).
    changes_since: int | None = 0


def metrics_refresh(*, project: Project, version: int | None = None) -> MetricsSnapshot:
    """Compute the project's metrics now and store them as its snapshot, with the project's
    stats (`project_stats_get` serves them to a large project's pages) and the metrics version
    read before they were computed (`version`, when the caller has just read it).

    On PostgreSQL the rater-pair confusions and step-rating profiles come from the partial
    aggregates, recomputed for the solutions changed since the last refresh
    (metrics_parts.py), under the project's refresh lock, in one transaction with the
    snapshot; the version is the one read with the change log (not older than `version`)."""
    with transaction.atomic():
        partials = None
        if connection.vendor == "postgresql":
            named_xact_lock(f"metrics-refresh-{project.pk}")
            stored = MetricsSnapshot.objects.filter(project=project).first()
            started = perf_counter()
            update = metrics_parts_update(project=project, snapshot=stored)
            version, partials = update.version, update.totals
        else:
            started = perf_counter()
            if version is None:
                version = metrics_version_get(project_id=project.pk)
        # As the snapshot's field stores it (dates as ISO strings), so that the returned
        # snapshot answers what a later read of it will.
        data = json.loads(json.dumps(project_metrics(project, partials), cls=DjangoJSONEncoder))
        data[STATS_KEY] = project_stats(project=project) if partials is None else partials.stats()
        snapshot, _ = MetricsSnapshot.objects.update_or_create(
            project=project,
            defaults={
                "data": data,
                "computed_at": timezone.now(),
                "duration_ms": int((perf_counter() - started) * 1000),
                "labels_version": version,
                "partials": None if partials is None else update.stored,
            },
        )
    return snapshot


@transaction.atomic
def metrics_request_refresh(*, project: Project) -> bool:
    """Record that a refresh is queued; False when one was queued recently and not done yet,
    so a page polled by many reviewers queues one task, not one per request."""
    snapshot, _ = MetricsSnapshot.objects.select_for_update().get_or_create(project=project)
    if _pending(snapshot):
        return False
    snapshot.requested_at = timezone.now()
    snapshot.save(update_fields=["requested_at"])
    # Through the outbox: a broker that is down leaves it for the outbox sweep instead of
    # failing (or stalling) the page that asked for the metrics.
    outbox_add(task=REFRESH_TASK, args=[project.pk])
    return True


@dataclass(frozen=True)
class StatsAnswer:
    stats: dict[str, int]
    computed_at: datetime | None  # None: current (counted now, or at the metrics version)


def project_stats_get(*, project: Project) -> StatsAnswer:
    """The project's stats (problems, solutions, steps, annotations, complete solutions): from
    the metrics snapshot when it is at the project's metrics version (exact: every write that
    changes them moves it); behind it, from the snapshot too when the metrics are served from
    it (their computation is not cheap: the dashboard's two requests show one moment, and
    counting them was most of its project request while people label); else counted now for
    a project of at most METRICS_LIVE_MAX_ANNOTATIONS solutions, else from the snapshot
    (queueing a refresh past its `refresh_interval`), since counting a million solutions'
    eight million steps on every page that shows the project is what grew
    (bench/scale_bench.py). A large project without a snapshot yet is counted now, once, and
    a refresh is queued."""
    snapshot, version = _snapshot_and_version(project)
    stats = snapshot.data.get(STATS_KEY) if snapshot is not None and snapshot.data else None
    if stats is not None and snapshot.labels_version == version:
        return StatsAnswer(stats=stats, computed_at=None)
    if (stats is None or _cheap(snapshot)) and _small(project, Solution.objects):
        return StatsAnswer(stats=project_stats(project=project), computed_at=None)
    if stats is None:
        metrics_request_refresh(project=project)
        return StatsAnswer(stats=project_stats(project=project), computed_at=None)
    if _due(snapshot):
        metrics_request_refresh(project=project)
    return StatsAnswer(stats=stats, computed_at=snapshot.computed_at)


def _snapshot_and_version(project: Project) -> tuple[MetricsSnapshot | None, int]:
    """The project's snapshot and its current metrics version: one statement when it has a
    snapshot (the version a subquery of it), two when not."""
    snapshot = (
        MetricsSnapshot.objects.filter(project=project)
        .annotate(current_version=RawSQL(metrics_version_sql(), [project.pk]))
        .first()
    )
    if snapshot is None:
        return None, metrics_version_get(project_id=project.pk)
    return snapshot, int(snapshot.current_version)


def _without_stats(data: dict) -> dict:
    return {k: v for k, v in data.items() if k != STATS_KEY}


def _pending(snapshot: MetricsSnapshot) -> bool:
    """A refresh queued (within the max age: a lost one is queued again) and not done yet."""
    return (
        snapshot.requested_at is not None
        and snapshot.requested_at > timezone.now() - max_age()
        and (snapshot.computed_at is None or snapshot.computed_at < snapshot.requested_at)
    )


def _small(project: Project, rows: QuerySet | None = None) -> bool:
    """At most METRICS_LIVE_MAX_ANNOTATIONS of `rows` in the project (default: its submitted
    annotations), counted no further: whether there are more, not how many."""
    rows = submitted_annotations(project) if rows is None else rows.filter(project=project)
    live_max = _live_max()
    return rows.values("pk")[: live_max + 1].count() <= live_max


def _due(snapshot: MetricsSnapshot) -> bool:
    """Older than its refresh interval, and no refresh pending."""
    old = snapshot.computed_at < timezone.now() - refresh_interval(snapshot)
    return old and not _pending(snapshot)


def _cheap(snapshot: MetricsSnapshot | None) -> bool:
    """Whether a snapshot behind the version is computed again now (else served, with its
    age): no snapshot yet, or its own computation took at most METRICS_LIVE_MAX_MS."""
    live_max_ms = _live_max_ms()
    return snapshot is None or live_max_ms is None or snapshot.duration_ms <= live_max_ms


def metrics_get(*, project: Project, refresh: bool = False) -> MetricsAnswer:
    """The project's metrics: the snapshot when computed at the project's current metrics
    version (exact); else computed now and stored when small and cheap; else the snapshot with
    its age and `changes_since` (None data: nothing computed yet), queueing a refresh when it
    is older than `refresh_interval`. `refresh` skips the version's answer and the interval: a
    small project is computed now, a large one's refresh is queued (a write outside the
    services, the Django admin's, moves no version)."""
    snapshot, version = _snapshot_and_version(project)
    done = snapshot is not None and snapshot.computed_at is not None
    if done and snapshot.labels_version == version and not refresh:
        return MetricsAnswer(
            data=_without_stats(snapshot.data),
            computed_at=snapshot.computed_at,
            cached=True,
            refreshing=False,
        )
    if (refresh or _cheap(snapshot if done else None)) and _small(project):
        # Stored with the stats, so that the project's pages read them at this version too.
        stored = metrics_refresh(project=project, version=version)
        return MetricsAnswer(
            data=_without_stats(stored.data),
            computed_at=stored.computed_at,
            cached=False,
            refreshing=False,
        )
    if not done:
        metrics_request_refresh(project=project)
        return MetricsAnswer(
            data=None, computed_at=None, cached=True, refreshing=True, changes_since=None
        )
    refreshing = _pending(snapshot)  # then nothing more to queue (no lock taken)
    if (refresh and not refreshing) or _due(snapshot):
        metrics_request_refresh(project=project)  # False: queued meanwhile by another
        refreshing = True
    behind = None if snapshot.labels_version is None else version - snapshot.labels_version
    return MetricsAnswer(
        data=_without_stats(snapshot.data),
        computed_at=snapshot.computed_at,
        cached=True,
        refreshing=refreshing,
        changes_since=behind,
    )
