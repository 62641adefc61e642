"""Serving project metrics: from a snapshot at the project's metrics version, else live for
small projects and from a snapshot by age for large ones.

Every write that changes what the metrics read moves the project's metrics version
(`metrics_version.py`), and a snapshot records the version it was computed at: while they are
equal the snapshot is exact and is served as it is, one statement (a dashboard polled while
nobody labels). Otherwise a project of at most `METRICS_LIVE_MAX_ANNOTATIONS` submitted
annotations is computed now and stored at the version read before; a larger one answers from
its snapshot and, when it is missing, stale or asked to, queues
`project_metrics_refresh_task` (at most one queued per `METRICS_MAX_AGE_SECONDS`).

Tasks import services, never the reverse: the task is sent by its name (routed by
CELERY_TASK_ROUTES like any other), so this module does not import labeling.tasks.
"""

import json
from dataclasses import dataclass
from datetime import datetime, timedelta
from time import perf_counter

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from django.db.models.expressions import RawSQL
from django.utils import timezone

from labeling.metrics.domains import project_metrics_by_domain as project_metrics
from labeling.metrics.queries import submitted_annotations
from labeling.models import MetricsSnapshot, Project, Solution
from labeling.selectors.labeling_page import project_stats
from labeling.services.jobs.outbox import outbox_add
from labeling.services.projects.metrics_version import metrics_version_get, metrics_version_sql

REFRESH_TASK = "labeling.tasks.project_metrics_refresh_task"
STATS_KEY = "stats"  # the project's stats, kept in the snapshot's data beside the metrics


def _live_max() -> int:
    return getattr(settings, "METRICS_LIVE_MAX_ANNOTATIONS", 20_000)


def _max_age() -> timedelta:
    return timedelta(seconds=getattr(settings, "METRICS_MAX_AGE_SECONDS", 15 * 60))


@dataclass(frozen=True)
class MetricsAnswer:
    data: dict | None  # None: nothing computed yet, a refresh is queued
    computed_at: datetime | None
    cached: bool
    refreshing: bool


def metrics_refresh(*, project: Project, version: int | None = None) -> MetricsSnapshot:
    """Compute the project's metrics now and store them as its snapshot, with the project's
    stats (`project_stats_get` serves them to a large project's pages) and the metrics version
    read before they were computed (`version`, when the caller has just read it)."""
    if version is None:
        version = metrics_version_get(project_id=project.pk)
    started = perf_counter()
    # As the snapshot's field stores it (dates as ISO strings), so that the returned snapshot
    # answers what a later read of it will.
    data = json.loads(json.dumps(project_metrics(project), cls=DjangoJSONEncoder))
    data[STATS_KEY] = project_stats(project=project)
    snapshot, _ = MetricsSnapshot.objects.update_or_create(
        project=project,
        defaults={
            "data": data,
            "computed_at": timezone.now(),
            "duration_ms": int((perf_counter() - started) * 1000),
            "labels_version": version,
        },
    )
    return snapshot


@transaction.atomic
def metrics_request_refresh(*, project: Project) -> bool:
    """Record that a refresh is queued; False when one was queued recently and not done yet,
    so a page polled by many reviewers queues one task, not one per request."""
    snapshot, _ = MetricsSnapshot.objects.select_for_update().get_or_create(project=project)
    now = timezone.now()
    pending = snapshot.requested_at is not None and (
        snapshot.computed_at is None or snapshot.computed_at < snapshot.requested_at
    )
    if pending and snapshot.requested_at > now - _max_age():
        return False
    snapshot.requested_at = now
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
    changes them moves it), else counted now for a project of at most
    METRICS_LIVE_MAX_ANNOTATIONS solutions, else from the snapshot (queueing a refresh when
    stale), since counting a million solutions' eight million steps on every page that shows
    the project is what grew (bench/scale_bench.py). A large project without a snapshot yet
    is counted now, once, and a refresh is queued."""
    snapshot, version = _snapshot_and_version(project)
    stats = snapshot.data.get(STATS_KEY) if snapshot is not None and snapshot.data else None
    if stats is not None and snapshot.labels_version == version:
        return StatsAnswer(stats=stats, computed_at=None)
    live_max = _live_max()
    if Solution.objects.filter(project=project).values("pk")[: live_max + 1].count() <= live_max:
        return StatsAnswer(stats=project_stats(project=project), computed_at=None)
    if stats is None or snapshot.computed_at < timezone.now() - _max_age():
        metrics_request_refresh(project=project)
    if stats is None:
        return StatsAnswer(stats=project_stats(project=project), computed_at=None)
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


def metrics_get(*, project: Project, refresh: bool = False) -> MetricsAnswer:
    """The project's metrics: the snapshot when computed at the project's current metrics
    version (exact), else computed now and stored when small, else the snapshot (queueing a
    refresh when it is missing or stale). `refresh` skips the version's answer: a small
    project is computed now, a large one's refresh is queued (a write outside the services,
    the Django admin's, moves no version)."""
    snapshot, version = _snapshot_and_version(project)
    done = snapshot is not None and snapshot.computed_at is not None
    if done and snapshot.labels_version == version and not refresh:
        return MetricsAnswer(
            data=_without_stats(snapshot.data),
            computed_at=snapshot.computed_at,
            cached=True,
            refreshing=False,
        )
    live_max = _live_max()  # counted no further: whether there are more, not how many
    if submitted_annotations(project).values("pk")[: live_max + 1].count() <= live_max:
        # Stored with the stats, so that the project's pages read them at this version too.
        stored = metrics_refresh(project=project, version=version)
        return MetricsAnswer(
            data=_without_stats(stored.data),
            computed_at=stored.computed_at,
            cached=False,
            refreshing=False,
        )
    stale = not done or snapshot.computed_at < timezone.now() - _max_age()
    refreshing = False
    if refresh or stale:
        metrics_request_refresh(project=project)
        refreshing = True
    return MetricsAnswer(
        data=_without_stats(snapshot.data) if done else None,
        computed_at=snapshot.computed_at if done else None,
        cached=True,
        refreshing=refreshing,
    )
