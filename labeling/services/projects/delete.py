"""Deleting a project: marked at once, its rows deleted in the background in small batches.

One `DELETE` of a big project (a cascade over millions of labels and history rows) held locks
for minutes, deadlocked with annotators writing into it (the admin got a 500, annotators a
503), and died with the request. Instead `project_delete` marks the project (`deleted_at`):
from that commit on every endpoint of it answers 410 `project_deleted` (labeling.api.access)
and it leaves every list. Then `project_purge` (a Celery task, resumed by the recovery sweep
when a worker dies mid-way: autolabel.recovery) deletes its solutions a batch at a time,
children first, each batch one short transaction, and the project row last.

Locking: a batch first locks its solutions' rows in id order, the order every writer takes
(a submit locks its solution, then the annotation): a submit in flight finishes first or
finds its rows gone (the API then answers `project_deleted`), and the batch never holds a
row a writer holds while waiting for another.
"""

from __future__ import annotations

import logging
import shutil

from django.core.files.storage import default_storage
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from labeling.models import (
    Annotation,
    Assignment,
    Comment,
    Export,
    GoldLabel,
    ImportJob,
    LabelHistory,
    Problem,
    ProblemBand,
    ProblemSignature,
    Project,
    Resolution,
    ResolutionLabel,
    ReviewAction,
    Solution,
    Step,
    StepAlternative,
    StepLabel,
    Suggestion,
    TaskLock,
)
from labeling.pg.db_retry import retry_on_conflict
from labeling.services.jobs.outbox import outbox_add
from labeling.services.media.images import media_delete_project

log = logging.getLogger(__name__)

PURGE_TASK = "labeling.tasks.project_purge_task"
BATCH = 200  # solutions per transaction: a few thousand child rows, well under a second


@transaction.atomic
def project_delete(*, project: Project) -> Project:
    """Mark the project deleted and start the background purge (after commit). Deleting one
    already marked starts the purge again (it is idempotent) and keeps the first time."""
    now = timezone.now()
    # FOR UPDATE, the one lock a job's start (project_live_hold's FOR KEY SHARE) waits for.
    Project.objects.select_for_update().filter(pk=project.pk).values_list("pk").first()
    Project.objects.filter(pk=project.pk, deleted_at__isnull=True).update(deleted_at=now)
    project.deleted_at = Project.objects.values_list("deleted_at", flat=True).get(pk=project.pk)
    _runs_cancel(project_id=project.pk, now=now)
    # Through the outbox (sent after the commit, or by the sweep when the broker is down); by
    # name (labeling.tasks imports this module), routed by CELERY_TASK_ROUTES.
    outbox_add(task=PURGE_TASK, args=[project.pk])
    return project


def _runs_cancel(*, project_id: int, now) -> None:
    """The project's auto-label and training runs still pending, running or paused are cancelled, as
    their cancel buttons would: their workers stop instead of failing on vanished rows (a
    training process sees the status and kills the trainer)."""
    from autolabel.models import AutolabelRun, RunStatus
    from training_runs.models import TrainingRun, TrainingStatus

    AutolabelRun.objects.filter(
        project_id=project_id,
        status__in=(RunStatus.PENDING, RunStatus.RUNNING, RunStatus.PAUSED),
    ).update(status=RunStatus.CANCELLED, finished_at=now)
    TrainingRun.objects.filter(
        project_id=project_id, status__in=(TrainingStatus.PENDING, TrainingStatus.RUNNING)
    ).update(status=TrainingStatus.CANCELLED, finished_at=now)


def _delete(qs: QuerySet) -> int:
    """One DELETE statement, without Django's collector: the children are deleted here in
    order, and the collector would read every row (and refuse the PROTECTed ones) first."""
    return qs._raw_delete(qs.db)


def _solution_children(ids: list[int]) -> list[QuerySet]:
    """Every row below these solutions, leaves first (PostgreSQL checks the foreign keys at
    commit, so the order is for readers of the code and for SQLite)."""
    of = Q(solution_id__in=ids)
    step = Q(step__solution_id__in=ids)
    resolution = Q(resolution__solution_id__in=ids)
    from autolabel.models import AutolabelItem

    return [
        LabelHistory.objects.filter(of | step | Q(annotation__solution_id__in=ids) | resolution),
        Comment.objects.filter(of | step | Q(review__solution_id__in=ids)),
        ResolutionLabel.objects.filter(resolution | step),
        Resolution.annotations.through.objects.filter(resolution),
        Resolution.objects.filter(of),
        ReviewAction.objects.filter(of),
        StepLabel.objects.filter(Q(annotation__solution_id__in=ids) | step),
        Annotation.objects.filter(of),
        Suggestion.objects.filter(step),
        GoldLabel.objects.filter(step),
        StepAlternative.objects.filter(step),
        AutolabelItem.objects.filter(of),
        Assignment.objects.filter(of),
        TaskLock.objects.filter(of),
        Step.objects.filter(of),
        Solution.objects.filter(id__in=ids),
    ]


@retry_on_conflict
@transaction.atomic
def _purge_batch(*, project_id: int, size: int) -> int:
    """Delete up to `size` solutions of the project with everything below them."""
    ids = list(
        Solution.objects.filter(project_id=project_id)
        .order_by("pk")
        .select_for_update()
        .values_list("pk", flat=True)[:size]
    )
    for qs in _solution_children(ids) if ids else []:
        _delete(qs)
    return len(ids)


@retry_on_conflict
@transaction.atomic
def _purge_problems(*, project_id: int, size: int) -> int:
    """Delete up to `size` of the project's problems that have no solution left."""
    ids = list(
        Problem.objects.filter(project_id=project_id, solutions__isnull=True)
        .order_by("pk")
        .values_list("pk", flat=True)[:size]
    )
    if not ids:
        return 0
    # Their near-duplicate keys and signatures first (rows that reference them).
    _delete(ProblemBand.objects.filter(problem_id__in=ids))
    _delete(ProblemSignature.objects.filter(problem_id__in=ids))
    return _delete(Problem.objects.filter(pk__in=ids))


@retry_on_conflict
@transaction.atomic
def _purge_project_row(*, project_id: int) -> bool:
    """The project itself with its few remaining rows (members, invites, imports, exports,
    runs, snapshots): Django's cascade, small now. Then the export, import and media files and
    the training runs' directories (trained models included); files already gone are fine."""
    from training_runs.services import training_dirs_of_project

    project = Project.objects.select_for_update().filter(pk=project_id).first()
    if project is None:
        return False
    files = [
        name
        for model in (Export, ImportJob)
        for name in model.objects.filter(project_id=project_id).values_list("file", flat=True)
        if name
    ]
    training_dirs = training_dirs_of_project(project_id=project_id)
    project.delete()

    def delete_files() -> None:  # once the rows are gone for good
        for name in files:
            default_storage.delete(name)
        media_delete_project(project_id=project_id)
        for directory in training_dirs:
            shutil.rmtree(directory, ignore_errors=True)

    transaction.on_commit(delete_files)
    return True


def project_purge(*, project_id: int, batch: int = BATCH) -> dict[str, int]:
    """Delete a project marked deleted, a batch per transaction. Idempotent and resumable:
    a run killed half-way leaves whole batches done, and the next run goes on from there.
    A project not marked deleted (or gone already) is left alone."""
    if not Project.objects.filter(pk=project_id, deleted_at__isnull=False).exists():
        return {"solutions": 0, "problems": 0, "project": 0}
    solutions = problems = 0
    while done := _purge_batch(project_id=project_id, size=batch):
        solutions += done
    while done := _purge_problems(project_id=project_id, size=batch):
        problems += done
    gone = _purge_project_row(project_id=project_id)
    log.info("project %s deleted: %s solutions, %s problems", project_id, solutions, problems)
    return {"solutions": solutions, "problems": problems, "project": int(gone)}
