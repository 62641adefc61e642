"""Send again the jobs whose Celery message was lost, so no run stalls for ever.

A Redis that restarts without persistence (or with its data lost) forgets every message it
held: queued chunks of an auto-label run, a queued export, import or training run, and the
unacked messages of a worker that died meanwhile. Their rows still say pending or running,
and nothing would ever move them again. Every job here is idempotent (an auto-label item is
processed once, an export or import rebuilds, a training run takes over a stale lease), so the
cure is to send the job's first task again, once nobody holds it (a project delete left half
done by a killed worker is one such job: labeling.services.projects.delete; a claim-pool
refresh after an overlap change another: labeling.services.queue.pool; the problems' domain
names cleared after a project left many-domains a third: labeling.services.projects.domain_change):

- it is unfinished, not run inline by the CLI, and showed no sign of life (progress, heartbeat,
  start) for `stall_s` (an export the CLI builds writes its heartbeat with its progress);
- no worker holds a task for it (running, prefetched, or waiting for a retry), asked over the
  broker (annotate.inflight); when no worker answers, nothing is sent;
- its queues are empty: a message still waiting there may be its own.

`lost_work_requeue` runs every RECOVERY_SWEEP_S from Celery beat (CELERY_BEAT_SCHEDULE).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db.models import F, QuerySet
from django.db.models.functions import Coalesce, Greatest
from django.utils import timezone

from annotate.inflight import InFlight, in_flight, queue_depth
from annotate.queues import Queue
from autolabel.models import AutolabelRun, RunStatus
from autolabel.registry import chunk_queue
from labeling.models import Export, ImportJob, Project
from labeling.models.exports import ExportStatus
from labeling.models.imports import ImportStatus
from labeling.services.jobs.outbox import outbox_unsent_jobs
from training_runs.models import TrainingRun, TrainingStatus

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class JobKind:
    """One kind of background job: its unfinished rows with their last sign of life, the
    task that (re)starts one from its id, and every task name that works on it."""

    name: str
    task: str
    tasks: tuple[str, ...]
    unfinished: Callable[[], QuerySet]
    queues: Callable[[object], set[str]]


def _autolabel_runs() -> QuerySet:
    """Pending or running runs (a paused one waits for its resume, which sends it again);
    a chunk completion or a resume (rate_at) and a chunk sent (dispatched_at: every chunk that
    ends sends the next) are signs of life too. Read on the run's row alone: a sweep every
    minute must not read a run's million items (a chunk still at work is held by its worker)."""
    running = [RunStatus.PENDING, RunStatus.RUNNING]
    return AutolabelRun.objects.filter(status__in=running, inline=False).annotate(
        alive_at=Greatest(
            Coalesce("started_at", "created_at"),
            Coalesce("rate_at", "created_at"),
            Coalesce("dispatched_at", "created_at"),
        )
    )


def _autolabel_queues(run: AutolabelRun) -> set[str]:
    return {Queue.DEFAULT, chunk_queue(run.sources)}


def _exports() -> QuerySet:
    return Export.objects.filter(status__in=[ExportStatus.PENDING, ExportStatus.RUNNING]).annotate(
        alive_at=Coalesce("heartbeat_at", "started_at", "created_at")
    )


def _imports() -> QuerySet:
    return ImportJob.objects.filter(
        status__in=[ImportStatus.PENDING, ImportStatus.RUNNING]
    ).annotate(alive_at=F("created_at"))


def _training_runs() -> QuerySet:
    return TrainingRun.objects.filter(
        status__in=[TrainingStatus.PENDING, TrainingStatus.RUNNING]
    ).annotate(alive_at=Coalesce("heartbeat_at", "started_at", "created_at"))


def _deleted_projects() -> QuerySet:
    """Projects marked deleted whose rows a purge has not finished deleting (the row goes
    last). Their sign of life is the mark: a purge running longer is held by its worker."""
    return Project.objects.filter(deleted_at__isnull=False).annotate(alive_at=F("deleted_at"))


def _marked(mark: str) -> QuerySet:
    """Projects whose `mark` (a job's start, cleared when the job ends) is set. Its sign of life
    is the mark: a longer walk is held by its worker."""
    return Project.objects.filter(**{f"{mark}__isnull": False}).annotate(alive_at=F(mark))


def _queue_refreshes() -> QuerySet:
    """Projects whose claim-pool flags an overlap change marked for a refresh."""
    return _marked("queue_refresh_since")


def _domain_clears() -> QuerySet:
    """Projects whose problems still name the domain they left many-domains for
    (labeling.services.projects.domain_change)."""
    return _marked("domain_clear_since")


KINDS = (
    JobKind(
        name="autolabel run",
        task="autolabel.tasks.autolabel_run_start_task",
        tasks=("autolabel.tasks.autolabel_run_start_task", "autolabel.tasks.autolabel_chunk_task"),
        unfinished=_autolabel_runs,
        queues=_autolabel_queues,
    ),
    JobKind(
        name="export",
        task="labeling.tasks.export_build_task",
        tasks=("labeling.tasks.export_build_task",),
        unfinished=_exports,
        queues=lambda _: {Queue.EXPORTS},
    ),
    JobKind(
        name="import",
        task="labeling.tasks.import_job_run_task",
        tasks=("labeling.tasks.import_job_run_task",),
        unfinished=_imports,
        queues=lambda _: {Queue.DEFAULT},
    ),
    JobKind(
        name="training run",
        task="autolabel.tasks.training_run_task",  # training_runs.tasks, its old name kept
        tasks=("autolabel.tasks.training_run_task",),
        unfinished=_training_runs,
        queues=lambda _: {Queue.GPU},
    ),
    JobKind(
        name="project delete",
        task="labeling.tasks.project_purge_task",
        tasks=("labeling.tasks.project_purge_task",),
        unfinished=_deleted_projects,
        queues=lambda _: {Queue.DEFAULT},
    ),
    JobKind(
        name="claim pool refresh",
        task="labeling.tasks.project_queue_refresh_task",
        tasks=("labeling.tasks.project_queue_refresh_task",),
        unfinished=_queue_refreshes,
        queues=lambda _: {Queue.DEFAULT},
    ),
    JobKind(
        name="problem domains clear",
        task="labeling.tasks.problem_domains_clear_task",
        tasks=("labeling.tasks.problem_domains_clear_task",),
        unfinished=_domain_clears,
        queues=lambda _: {Queue.DEFAULT},
    ),
)


def stall_s() -> float:
    return float(getattr(settings, "RECOVERY_STALL_S", 120))


def lost_jobs(*, held: InFlight, depth: Callable[[str], int]) -> list[tuple[JobKind, object]]:
    """The unfinished jobs nobody holds and no queue may still hold (a selector)."""
    cutoff = timezone.now() - timedelta(seconds=stall_s())
    unsent = outbox_unsent_jobs()  # the outbox sweep sends those; sending them here too doubles
    lost = []
    for kind in KINDS:
        for job in kind.unfinished().filter(alive_at__lt=cutoff).order_by("pk"):
            if (kind.task, job.pk) in unsent:
                continue
            if any(held.holds(task, job.pk) for task in kind.tasks):
                continue
            if any(depth(queue) for queue in kind.queues(job)):
                continue
            lost.append((kind, job))
    return lost


def lost_work_requeue() -> dict[str, list[int]]:
    """Send again each lost job's first task; returns {kind name: [ids sent]}."""
    from annotate.celery import app

    held = in_flight()
    if held is None:
        return {}
    depths: dict[str, int] = {}

    def depth(queue: str) -> int:
        if queue not in depths:
            depths[queue] = queue_depth(queue)
        return depths[queue]

    sent: dict[str, list[int]] = {}
    for kind, job in lost_jobs(held=held, depth=depth):
        log.warning("%s %s was lost by the broker; sending it again", kind.name, job.pk)
        app.send_task(kind.task, args=[job.pk])  # routed by CELERY_TASK_ROUTES
        sent.setdefault(kind.name, []).append(job.pk)
    return sent
