"""An annotator going back to their own work ("My work", the labeling page's Back): reopen
what they submitted or skipped, and resubmit a submission they changed.

Reopening a submission changes nothing on the server: the annotation keeps counting toward
the solution's overlap while it is edited (no lock is needed, its slot is its own), and
`annotation_resubmit` replaces its labels as a new version in the label history. Reopening a
skip claims the solution again through the queue's own rule and statement (overlap, other
annotators' locks, assignments), so it can fail when others have filled the solution since.
"""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from labeling.errors import Conflict
from labeling.models import (
    Annotation,
    AnnotationStatus,
    FinishReason,
    LabelAction,
    Project,
    Solution,
    StepLabel,
)
from labeling.selectors.labeling_page import solution_claimable_for_user
from labeling.selectors.my_work import my_work_last
from labeling.services.labeling.annotations import (
    LabelInput,
    _bump_version,
    _check_owner,
    _replayed,
    _write_labels,
    checked_submission,
)
from labeling.services.labeling.history import label_history_write, label_state
from labeling.services.labeling.solution_state import solution_state
from labeling.services.projects.metrics_version import metrics_version_bump
from labeling.services.queue.take import annotation_new, claim_take, lock_take
from labeling.services.review.reasons import review_reasons_refresh
from labeling.services.review.resolutions import (
    resolution_auto,
    resolution_current,
    resolution_withdraw,
)

_COPIED = ("step_id", "rating", "unsure", "comment", "alternative_text", "uses")


@dataclass(frozen=True)
class Reopened:
    """The annotation the labeling page opens, the user's lock on it (None: a submission,
    edited without one) and whether it was made by this reopen."""

    annotation: Annotation
    lock_expires_at: datetime | None
    created: bool = False


def _copy_labels(*, source: Annotation, target: Annotation, user: AbstractBaseUser) -> None:
    """A skipped annotation's labels into the new draft of the same solution (and history)."""
    rows = list(source.labels.values(*_COPIED))
    StepLabel.objects.bulk_create(StepLabel(annotation=target, **row) for row in rows)
    label_history_write(
        annotation=target,
        solution_id=target.solution_id,
        user=user,
        action=LabelAction.DRAFT,
        before={},
        after={row["step_id"]: label_state(row) for row in rows},
    )


@transaction.atomic
def annotation_reopen(*, annotation: Annotation, user: AbstractBaseUser) -> Reopened:
    """Open one of the user's own submitted or skipped annotations again.

    Submitted: the same annotation, to be changed and sent with `annotation_resubmit`.
    Skipped: the solution is claimed again if it is still available to the user (a new
    draft starting from the skipped labels, and the user's lock); a Conflict if others filled
    its overlap or it was assigned to someone else since. If the user already has a draft or a
    submission of that solution, that one is opened instead.
    """
    _check_owner(annotation, user)
    if annotation.status == AnnotationStatus.SUBMITTED:
        return Reopened(annotation=annotation, lock_expires_at=None)
    if annotation.status != AnnotationStatus.DISCARDED:
        raise Conflict(
            f"This annotation is {annotation.status}: only submitted or skipped work is "
            "reopened here (a draft or rework opens on the labeling page).",
            status=annotation.status,
        )
    project = annotation.solution.project
    # Waits for (does not skip) a claimer holding the row: the user asked for this one.
    solution = Solution.objects.select_for_update(of=("self",)).get(pk=annotation.solution_id)
    now = timezone.now()
    live = (
        Annotation.objects.filter(
            solution_id=solution.pk,
            annotator_id=user.pk,
            status__in=[AnnotationStatus.DRAFT, AnnotationStatus.SUBMITTED],
        )
        .select_related("solution__project")
        .first()
    )
    if live is not None:
        if live.status == AnnotationStatus.SUBMITTED:
            return Reopened(annotation=live, lock_expires_at=None)
        lock = lock_take(solution_id=solution.pk, user=user, ttl=project.lock_ttl_seconds, now=now)
        return Reopened(annotation=live, lock_expires_at=lock.expires_at)
    if solution.is_gold:  # gold has no overlap: everyone answers it
        lock = lock_take(solution_id=solution.pk, user=user, ttl=project.lock_ttl_seconds, now=now)
        draft = annotation_new(solution_id=solution.pk, user=user, now=now)
    else:
        claimable = solution_claimable_for_user(project=project, user=user, now=now)
        claim = None
        if claimable.filter(pk=solution.pk).exists():
            claim = claim_take(
                solution.pk,
                extra_overlap=solution.extra_overlap,  # read with the row lock above
                project=project,
                user=user,
                now=now,
            )
        if claim is None:
            raise Conflict(
                "This solution is no longer available to you: others have labeled it or "
                "hold it now, or it was assigned to someone else.",
                field="solution",
            )
        draft, lock = claim.annotation, claim.lock
    _copy_labels(source=annotation, target=draft, user=user)
    return Reopened(annotation=draft, lock_expires_at=lock.expires_at, created=True)


def my_work_back(*, project: Project, user: AbstractBaseUser) -> Reopened | None:
    """The labeling page's Back: reopen what the user submitted or skipped last (None: they
    have nothing yet)."""
    last = my_work_last(project=project, user=user)
    if last is None:
        return None
    last = Annotation.objects.select_related("solution__project").get(pk=last.pk)
    return annotation_reopen(annotation=last, user=user)


@transaction.atomic
def annotation_resubmit(
    *,
    annotation: Annotation,
    user: AbstractBaseUser,
    version: int,
    labels: Iterable[Mapping | LabelInput],
    finish_reason: str = FinishReason.SOLUTION,
    finish_reason_text: str = "",
    time_spent_ms: int | None = None,
    request_id: UUID | None = None,
) -> Annotation:
    """Replace a submitted annotation's labels: a new version of each changed label in the
    label history. The same checks as a submit: the version read (a stale one is a
    Conflict), the request id (a retry of the applied resubmit answers it again), complete
    labels. It still counts once toward the overlap. A current resolution that rests on it
    is withdrawn, so the solution goes back to review (or is resolved again by consensus
    where the project allows it).
    """
    _check_owner(annotation, user)
    locked = solution_state(
        solution_id=annotation.solution_id, annotation_id=annotation.pk, lock=True
    )
    replayed = _replayed(
        annotation=annotation,
        user=user,
        request_id=request_id,
        leaves=[AnnotationStatus.SUBMITTED, AnnotationStatus.REJECTED],
        locked=locked,
    )
    if replayed is not None:
        return replayed
    status = locked.annotation_row[1]
    if status != AnnotationStatus.SUBMITTED:
        raise Conflict(
            f"This annotation is {status}, not submitted: only a submission is resubmitted.",
            status=status,
        )
    project = annotation.solution.project
    parsed, reason = checked_submission(
        labels=labels,
        project=project,
        steps=locked.steps,
        finish_reason=finish_reason,
        finish_reason_text=finish_reason_text,
    )
    extra = {} if time_spent_ms is None else {"time_spent_ms": max(0, int(time_spent_ms))}
    _bump_version(
        annotation,
        version,
        request_id=request_id,
        status=AnnotationStatus.SUBMITTED,
        finish_reason=reason,
        finish_reason_text=finish_reason_text.strip(),
        submitted_at=timezone.now(),
        **extra,
    )
    _write_labels(annotation, parsed, project, user=user, action=LabelAction.SUBMIT, state=locked)
    solution_id = annotation.solution_id
    current = resolution_current(solution_id=solution_id)
    if current is not None and current.annotations.filter(pk=annotation.pk).exists():
        resolution_withdraw(resolution=current, user=user)
    review_reasons_refresh(solution_ids=[solution_id], locked=True)
    metrics_version_bump(project_id=project.pk, solution_id=solution_id)
    if project.auto_resolve and not locked.is_gold:
        resolution_auto(solution_id=solution_id)
    return annotation
