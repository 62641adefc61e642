"""Gold questions: solutions whose labels admins know, to measure annotators against."""

from collections.abc import Iterable, Mapping

from django.db import transaction
from django.db.models import Count, F, Q
from django.utils import timezone

from labeling.errors import ValidationFailed
from labeling.models import (
    Annotation,
    AnnotationStatus,
    GoldLabel,
    Project,
    ProjectMembership,
    Screening,
    Solution,
    StepLabel,
)
from labeling.selectors.labeling_page import gold_claimable_for_user
from labeling.services.gold.pace import answerers, answers_forget
from labeling.services.projects.metrics_version import metrics_version_bump
from labeling.services.queue.pool import queue_open_refresh
from labeling.services.review.reasons import review_reasons_refresh


@transaction.atomic
def gold_set(*, solution: Solution, labels: Iterable[Mapping], user=None) -> Solution:
    """Mark the solution gold with one known rating per step ([{step_id, rating}], all steps)."""
    solution = (
        Solution.objects.select_for_update(of=("self",))
        .select_related("project")
        .get(pk=solution.pk)
    )
    allowed = set(solution.project.rating_values)
    step_ids = set(solution.steps.values_list("id", flat=True))
    ratings = {label["step_id"]: label.get("rating") for label in labels}
    if set(ratings) != step_ids:
        raise ValidationFailed("Gold labels must name every step of the solution once.")
    if any(r is not None and r not in allowed for r in ratings.values()):
        raise ValidationFailed(f"Gold ratings must be on the project's scale {sorted(allowed)}.")
    for step_id, rating in ratings.items():
        GoldLabel.objects.update_or_create(
            step_id=step_id, defaults={"rating": rating, "set_by": user}
        )
    Solution.objects.filter(pk=solution.pk).update(is_gold=True)
    # Its annotations' gold accuracy (the partial aggregates): this solution's.
    metrics_version_bump(project_id=solution.project_id, solution_id=solution.pk)
    review_reasons_refresh(solution_ids=[solution.pk])
    queue_open_refresh(solution_ids=[solution.pk])
    # Its answers now count as gold answers: their authors' counts are recounted.
    answers_forget(project=solution.project, user_ids=answerers(solution_id=solution.pk))
    solution.is_gold = True
    return solution


@transaction.atomic
def gold_unset(*, solution: Solution) -> Solution:
    """Stop treating the solution as gold (its gold labels are kept for the record)."""
    Solution.objects.filter(pk=solution.pk).update(is_gold=False)
    # Its annotations' gold accuracy (the partial aggregates): this solution's.
    metrics_version_bump(project_id=solution.project_id, solution_id=solution.pk)
    review_reasons_refresh(solution_ids=[solution.pk])
    queue_open_refresh(solution_ids=[solution.pk])
    answers_forget(project=solution.project, user_ids=answerers(solution_id=solution.pk))
    solution.is_gold = False
    return solution


def screening_answers(*, project: Project, user, membership: ProjectMembership | None = None):
    """The user's submitted gold answers that count for screening: all of them, or those
    submitted since an admin reset a failed screening (`screening_reset_at`)."""
    if membership is None:
        membership = ProjectMembership.objects.filter(project=project, user=user).first()
    answers = Annotation.objects.filter(
        solution__project=project,
        annotator=user,
        status=AnnotationStatus.SUBMITTED,
        solution__is_gold=True,
    )
    if membership is not None and membership.screening_reset_at is not None:
        answers = answers.filter(submitted_at__gte=membership.screening_reset_at)
    return answers


def screening_evaluate(*, project: Project, user) -> str:
    """Judge a new annotator on their first `screening_size` gold answers (since the last
    reset): passed when the share of their rated steps that match gold reaches
    `screening_pass_rate`."""
    first = (
        screening_answers(project=project, user=user)
        .order_by("submitted_at", "id")
        .values_list("id", flat=True)[: project.screening_size]
    )
    counts = StepLabel.objects.filter(
        annotation_id__in=list(first), rating__isnull=False, step__gold__rating__isnull=False
    ).aggregate(n=Count("id"), agree=Count("id", filter=Q(rating=F("step__gold__rating"))))
    passed = counts["n"] > 0 and counts["agree"] / counts["n"] >= project.screening_pass_rate
    verdict = Screening.PASSED if passed else Screening.FAILED
    ProjectMembership.objects.filter(project=project, user=user).update(screening=verdict)
    return verdict


@transaction.atomic
def screening_reset(*, project: Project, user_id: int) -> ProjectMembership:
    """Let a member who failed the screening retake it: the verdict is cleared and only gold
    answers submitted from now on count, so the queue serves them `screening_size` gold
    questions they have not seen before judging again. Refused when no unseen gold question
    is left to retake it with (mark more solutions gold first)."""
    membership = (
        ProjectMembership.objects.select_for_update()
        .select_related("user")
        .filter(project=project, user_id=user_id)
        .first()
    )
    if membership is None:
        raise ValidationFailed("Not a member of this project.", field="user_id")
    if membership.screening != Screening.FAILED:
        raise ValidationFailed(
            f"{membership.user.username} has not failed the screening.", field="screening"
        )
    if not gold_claimable_for_user(project=project, user=membership.user).exists():
        raise ValidationFailed(
            f"{membership.user.username} has answered every gold question: mark more solutions "
            "gold before a retake.",
            field="screening",
        )
    membership.screening = ""
    membership.screening_reset_at = timezone.now()
    membership.save(update_fields=["screening", "screening_reset_at"])
    return membership
