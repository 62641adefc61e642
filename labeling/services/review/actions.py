"""Reviewer actions: accept an annotation, reject it back to its annotator, adjudicate.

Every action locks the solution row first (`SELECT ... FOR UPDATE`) and re-reads what it
decides on inside the lock, so two reviewers acting on one solution at once serialize: the
second sees the first's result and gets a Conflict instead of silently overwriting it.
A reviewer may name the resolution they looked at (`expected_resolution_id`, None for "none
yet"); if another resolution became current meanwhile, the action is refused.
No label is deleted: a rejected annotation keeps its labels, resolutions are superseded.
"""

from collections.abc import Iterable, Mapping
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from labeling.errors import Conflict, ValidationFailed
from labeling.importers.dependencies import uses_normal, uses_problem
from labeling.models import (
    Annotation,
    AnnotationStatus,
    Comment,
    LabelAction,
    Provenance,
    Resolution,
    ReviewAction,
    ReviewActionKind,
    Solution,
    StepLabel,
)
from labeling.pg.db_retry import retry_on_conflict
from labeling.services.gold.pace import answers_bump
from labeling.services.labeling.history import label_history_write, label_state
from labeling.services.projects.metrics_version import metrics_version_bump
from labeling.services.queue.pool import queue_open_refresh
from labeling.services.review.reasons import review_reasons_refresh
from labeling.services.review.resolutions import (
    resolution_create,
    resolution_current,
    resolution_withdraw,
)

ANY: Any = object()  # expected_resolution_id not given: do not check


def _lock_solution(solution_id: int) -> Solution:
    return (
        Solution.objects.select_for_update(of=("self",))
        .select_related("project")
        .get(pk=solution_id)
    )


def _check_expected(solution_id: int, expected_resolution_id: int | None) -> Resolution | None:
    current = resolution_current(solution_id=solution_id)
    if expected_resolution_id is not ANY and (current.pk if current else None) != (
        expected_resolution_id
    ):
        raise Conflict(
            "Another reviewer resolved this solution while you were looking at it. Reload.",
            current_resolution_id=current.pk if current else None,
        )
    return current


def _submitted(annotation_id: int) -> Annotation:
    annotation = Annotation.objects.get(pk=annotation_id)
    if annotation.status != AnnotationStatus.SUBMITTED:
        raise Conflict(
            f"This annotation is {annotation.status}, not submitted: another review got there "
            "first or it is still being labeled.",
            status=annotation.status,
        )
    return annotation


def _comment(*, action: ReviewAction, body: str) -> None:
    if body:
        Comment.objects.create(
            solution_id=action.solution_id, author=action.reviewer, body=body, review=action
        )


@retry_on_conflict
@transaction.atomic
def review_accept(
    *,
    annotation: Annotation,
    reviewer,
    comment: str = "",
    expected_resolution_id: int | None = ANY,
) -> Resolution:
    """The annotation's labels become the solution's resolved label (provenance reviewer)."""
    solution = _lock_solution(annotation.solution_id)
    annotation = _submitted(annotation.pk)
    _check_expected(solution.pk, expected_resolution_id)
    action = ReviewAction.objects.create(
        solution=solution,
        annotation=annotation,
        reviewer=reviewer,
        action=ReviewActionKind.ACCEPT,
        comment=comment.strip(),
    )
    _comment(action=action, body=comment.strip())
    labels = list(annotation.labels.values_list("step_id", "rating", "uses"))
    return resolution_create(
        solution=solution,
        ratings={step_id: rating for step_id, rating, _ in labels},
        provenance=Provenance.REVIEWER,
        resolved_by=reviewer,
        review=action,
        annotations=[annotation],
        uses={step_id: uses for step_id, _, uses in labels},
    )


@retry_on_conflict
@transaction.atomic
def review_reject(*, annotation: Annotation, reviewer, comment: str) -> Annotation:
    """Send a submitted annotation back to its annotator with a comment; returns the rework.

    The rejected annotation keeps its labels and stops counting as submitted; a new draft for
    the same annotator `revises` it, starting from a copy of its labels. The annotator's queue
    serves that draft before anything new, and it holds the rejected one's overlap slot (see
    `labeling.services.queue.claim.overlap_holders`), so nobody else takes its place meanwhile. A
    current resolution that rested on the rejected annotation is withdrawn.
    """
    comment = comment.strip()
    if not comment:
        raise ValidationFailed("Say what is wrong: a rejection needs a comment.", field="comment")
    solution = _lock_solution(annotation.solution_id)
    annotation = _submitted(annotation.pk)
    if annotation.annotator_id is None:
        raise ValidationFailed(
            "Imported labels have no annotator to send them back to.", field="annotation"
        )
    now = timezone.now()
    Annotation.objects.filter(pk=annotation.pk).update(
        status=AnnotationStatus.REJECTED, version=F("version") + 1, updated_at=now
    )
    Solution.objects.filter(pk=solution.pk).update(submitted_count=F("submitted_count") - 1)
    answers_bump(
        project=solution.project, user_id=annotation.annotator_id, by=-1, gold=solution.is_gold
    )
    review_reasons_refresh(solution_ids=[solution.pk])
    queue_open_refresh(solution_ids=[solution.pk])
    metrics_version_bump(project_id=solution.project_id, solution_id=solution.pk)
    current = resolution_current(solution_id=solution.pk)
    # An accepted or consensus resolution rests on this annotation; an adjudication does not.
    if (
        current is not None
        and current.annotations.filter(pk=annotation.pk).exists()
        and (
            current.provenance != Provenance.REVIEWER
            or (current.review and current.review.action == ReviewActionKind.ACCEPT)
        )
    ):
        resolution_withdraw(resolution=current, user=reviewer)
    action = ReviewAction.objects.create(
        solution=solution,
        annotation=annotation,
        reviewer=reviewer,
        action=ReviewActionKind.REJECT,
        comment=comment,
    )
    _comment(action=action, body=comment)
    rework = Annotation.objects.create(
        solution=solution,
        annotator_id=annotation.annotator_id,
        revises=annotation,
        shown_suggestions=annotation.shown_suggestions,
    )
    old = list(
        annotation.labels.values(
            "step_id", "rating", "unsure", "comment", "alternative_text", "uses"
        )
    )
    StepLabel.objects.bulk_create(StepLabel(annotation=rework, **row) for row in old)
    label_history_write(
        annotation=rework,
        solution_id=solution.pk,
        user=reviewer,
        action=LabelAction.REWORK,
        before={},
        after={row["step_id"]: label_state(row) for row in old},
    )
    return rework


@retry_on_conflict
@transaction.atomic
def review_adjudicate(
    *,
    solution: Solution,
    reviewer,
    labels: Iterable[Mapping],
    comment: str = "",
    expected_resolution_id: int | None = ANY,
) -> Resolution:
    """The reviewer's own rating for every step becomes the resolved label.

    `labels`: [{step_id, rating, uses?}] covering every step once; a rating may be null (left
    unrated, e.g. after the first error); `uses`, where given, are the earlier steps (0-based)
    the step uses as the reviewer decided (null or absent: the step's own stand). The
    submitted annotations on the solution at this moment are recorded as what the reviewer
    adjudicated between.
    """
    solution = _lock_solution(solution.pk)
    allowed = set(solution.project.rating_values)
    index_of = dict(solution.steps.values_list("id", "index"))
    step_ids = set(index_of)
    ratings: dict[int, int | None] = {}
    decided_uses: dict[int, list[int] | None] = {}
    for i, label in enumerate(labels):
        step_id, rating = label["step_id"], label.get("rating")
        if step_id not in step_ids:
            raise ValidationFailed(
                f"labels[{i}]: step {step_id} is not a step of this solution.",
                field=f"labels[{i}].step_id",
            )
        if step_id in ratings:
            raise ValidationFailed(
                f"labels[{i}]: step {step_id} is labeled twice.", field=f"labels[{i}]"
            )
        if rating is not None and rating not in allowed:
            raise ValidationFailed(
                f"labels[{i}]: rating {rating} is not on this project's scale {sorted(allowed)}.",
                field=f"labels[{i}].rating",
            )
        if (uses := label.get("uses")) is not None:
            if why := uses_problem(uses, index_of[step_id], len(index_of)):
                raise ValidationFailed(
                    f"labels[{i}].uses: {why}.",
                    field=f"labels[{i}].uses",
                    step_index=index_of[step_id],
                )
            uses = uses_normal(uses)
        ratings[step_id], decided_uses[step_id] = rating, uses
    missing = step_ids - set(ratings)
    if missing:
        raise ValidationFailed(
            f"Every step needs a decision; {len(missing)} missing.",
            field="labels",
            missing_step_ids=sorted(missing),
        )
    _check_expected(solution.pk, expected_resolution_id)
    action = ReviewAction.objects.create(
        solution=solution,
        reviewer=reviewer,
        action=ReviewActionKind.ADJUDICATE,
        comment=comment.strip(),
    )
    _comment(action=action, body=comment.strip())
    submitted = Annotation.objects.filter(
        solution=solution, status=AnnotationStatus.SUBMITTED
    ).values_list("id", flat=True)
    return resolution_create(
        solution=solution,
        ratings=ratings,
        provenance=Provenance.REVIEWER,
        resolved_by=reviewer,
        review=action,
        annotations=list(submitted),
        uses=decided_uses,
    )
