"""Comments, review actions and label history of a solution, and what an annotator sees
about their own work (the reviews of it, their rejections)."""

from collections.abc import Iterable

from django.db.models import Exists, OuterRef, Q, QuerySet, Subquery

from labeling.models import (
    Annotation,
    AnnotationStatus,
    Comment,
    LabelHistory,
    Project,
    ReviewAction,
    Solution,
)


def comment_rows(comments: Iterable[Comment]) -> list[dict]:
    return [
        {
            "id": c.id,
            "step_id": c.step_id,
            "author": c.author.username,
            "body": c.body,
            "review_id": c.review_id,
            "created_at": c.created_at,
        }
        for c in comments
    ]


def comment_list(*, solution: Solution, step_id: int | None = None, annotator=None) -> list[dict]:
    """A solution's comments, oldest first; only one step's thread when `step_id` is given.

    With `annotator` (an annotator reading), a reviewer's comment on a review of someone
    else's annotation is left out: annotators see the threads and their own reviews only.
    """
    qs = Comment.objects.filter(solution=solution).select_related("author")
    if step_id is not None:
        qs = qs.filter(step_id=step_id)
    if annotator is not None:
        qs = qs.exclude(
            Q(review__annotation__isnull=False) & ~Q(review__annotation__annotator=annotator)
        )
    return comment_rows(qs.order_by("id"))


def review_action_rows(qs: QuerySet[ReviewAction]) -> list[dict]:
    return [
        {
            "id": r.id,
            "action": r.action,
            "annotation_id": r.annotation_id,
            "reviewer": r.reviewer.username,
            "comment": r.comment,
            "created_at": r.created_at,
        }
        for r in qs.select_related("reviewer").order_by("id")
    ]


def label_history_rows(*, solution: Solution, limit: int = 500) -> list[dict]:
    """The solution's label changes, newest first (at most `limit`)."""
    qs = (
        LabelHistory.objects.filter(solution=solution)
        .select_related("user", "step")
        .order_by("-id")[:limit]
    )
    return [
        {
            "id": h.id,
            "annotation_id": h.annotation_id,
            "resolution_id": h.resolution_id,
            "step_id": h.step_id,
            "step_index": h.step.index,
            "user": h.user.username if h.user else None,
            "action": h.action,
            "before": h.before,
            "after": h.after,
            "at": h.at,
        }
        for h in qs
    ]


def annotation_feedback(*, annotation: Annotation) -> dict:
    """What an annotator sees about their own annotation: the reviews of it (and of the one
    it revises) with the reviewers' comments, and the solution's comment threads."""
    ids = [annotation.pk] + ([annotation.revises_id] if annotation.revises_id else [])
    rework = Annotation.objects.filter(revises_id=annotation.pk).values("pk", "status").first()
    return {
        "annotation_id": annotation.pk,
        "status": annotation.status,
        "revises_id": annotation.revises_id,
        "rework_id": rework["pk"] if rework else None,
        "rework_status": rework["status"] if rework else None,
        "reviews": review_action_rows(ReviewAction.objects.filter(annotation_id__in=ids)),
        "comments": comment_list(solution=annotation.solution, annotator=annotation.annotator),
    }


REWORK_DRAFT = "draft"


def rejection_list_for_user(*, project: Project, user, rework: str | None = None) -> QuerySet:
    """The user's rejected annotations in a project with the reviewer's comment, newest first
    (rows of dicts). `rework="draft"`: only those whose rework is still a draft (what the
    annotator has yet to rework)."""
    last_reject = ReviewAction.objects.filter(
        annotation_id=OuterRef("pk"), action="reject"
    ).order_by("-id")
    rows = (
        Annotation.objects.filter(
            solution__project=project, annotator=user, status=AnnotationStatus.REJECTED
        )
        .annotate(
            comment=Subquery(last_reject.values("comment")[:1]),
            reviewer=Subquery(last_reject.values("reviewer__username")[:1]),
            rejected_at=Subquery(last_reject.values("created_at")[:1]),
            rework_id=Subquery(Annotation.objects.filter(revises_id=OuterRef("pk")).values("pk")),
            rework_status=Subquery(
                Annotation.objects.filter(revises_id=OuterRef("pk")).values("status")
            ),
        )
        .order_by("-id")
    )
    if rework == REWORK_DRAFT:
        rows = rows.filter(
            Exists(
                Annotation.objects.filter(revises_id=OuterRef("pk"), status=AnnotationStatus.DRAFT)
            )
        )
    return rows.values(
        "id", "solution_id", "comment", "reviewer", "rejected_at", "rework_id", "rework_status"
    )
