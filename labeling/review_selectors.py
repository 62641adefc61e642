"""Reads for review: the queue ordered by need, one solution's review page, feedback.

The queue's reasons are computed by the database with subqueries over the submitted labels
(`reasons_mask`); nothing loads labels into Python to decide what needs review. Computing them
for a whole project on every page load takes seconds past ~10k solutions, so a project with
`review_reasons_stored` reads the mask the services store on each solution
(`Solution.review_reasons`, labeling/services/review_reasons.py) instead: the same expression,
evaluated when the inputs change rather than when a reviewer opens a page.
"""

from datetime import datetime

from django.db.models import (
    Case,
    Count,
    Exists,
    ExpressionWrapper,
    F,
    IntegerField,
    Max,
    Min,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
)
from django.db.models.functions import Coalesce

from labeling.models import (
    Annotation,
    AnnotationStatus,
    Comment,
    GoldLabel,
    LabelHistory,
    Project,
    Resolution,
    ReviewAction,
    Solution,
    StepLabel,
    Suggestion,
    SuggestionSource,
)
from labeling.selectors import media_urls, step_meta, tool_names

# In the order the queue serves them; solutions with none of these come last ("rest").
REASONS = ("disagreement", "unsure", "gold_failure", "auto_conflict")
# Machine sources whose −1 ("refuted") contradicts a human +1 as a human-vs-auto conflict.
AUTO_CONFLICT_SOURCES = (SuggestionSource.SYMBOLIC,)
NO_ERROR = 1_000_000  # first-error index of an annotation without a −1 step
QUEUE_STATES = ("unresolved", "resolved", "all")


def _first_error(annotation_ref: str = "pk") -> Subquery:
    return Subquery(
        StepLabel.objects.filter(annotation_id=OuterRef(annotation_ref), rating=-1)
        .order_by("step__index")
        .values("step__index")[:1]
    )


def reason_sets(scope: dict) -> dict[str, list[QuerySet]]:
    """Per reason, uncorrelated subqueries returning the ids of solutions that have it.

    `scope` restricts the solutions: {"project": p} for a queue, {"pk": id} for one. Each set
    is one pass over the scope's submitted labels (GROUP BY step or annotation), so the
    database builds it once (a hashed subplan) instead of once per solution.
    """
    on_solution = {f"solution__{k}": v for k, v in scope.items()}
    labels = StepLabel.objects.filter(
        annotation__status=AnnotationStatus.SUBMITTED,
        **{f"annotation__{k}": v for k, v in on_solution.items()},
    ).order_by()
    annotations = Annotation.objects.filter(
        status=AnnotationStatus.SUBMITTED, **on_solution
    ).order_by()
    # A step whose submitted ratings differ.
    step_differs = (
        labels.values("annotation__solution_id", "step_id")
        .annotate(lo=Min("rating"), hi=Max("rating"))
        .filter(lo__lt=F("hi"))
        .values("annotation__solution_id")
    )
    # Annotations whose first −1 differs (no −1 counts as its own value).
    first_error_differs = (
        annotations.annotate(fe=Coalesce(_first_error(), NO_ERROR))
        .values("solution_id")
        .annotate(kinds=Count("fe", distinct=True))  # one copy of the subquery, not two
        .filter(kinds__gt=1)
        .values("solution_id")
    )
    gold_step_differs = (
        labels.filter(
            annotation__solution__is_gold=True,
            step__gold__rating__isnull=False,
            rating__isnull=False,
        )
        .exclude(rating=F("step__gold__rating"))
        .values("annotation__solution_id")
    )
    gold_first_error = Coalesce(
        Subquery(
            GoldLabel.objects.filter(step__solution_id=OuterRef("solution_id"), rating=-1)
            .order_by("step__index")
            .values("step__index")[:1]
        ),
        NO_ERROR,
    )
    gold_first_error_differs = (
        annotations.filter(solution__is_gold=True)
        .annotate(fe=Coalesce(_first_error(), NO_ERROR), gold_fe=gold_first_error)
        .exclude(fe=F("gold_fe"))
        .values("solution_id")
    )
    refuted = labels.filter(
        rating=1,
        step__suggestions__source__in=AUTO_CONFLICT_SOURCES,
        step__suggestions__value=-1,
    ).values("annotation__solution_id")
    return {
        "disagreement": [step_differs, first_error_differs],
        "unsure": [labels.filter(unsure=True).values("annotation__solution_id")],
        "gold_failure": [gold_step_differs, gold_first_error_differs],
        "auto_conflict": [refuted],
    }


# Reason bits: the first reason has the highest bit, so ordering by the mask descending serves
# every disagreement first (those with more reasons before the rest of them), then unsure, ...
REASON_BITS = {name: 1 << (len(REASONS) - 1 - i) for i, name in enumerate(REASONS)}


def _reason_conditions(scope: dict) -> dict[str, Q]:
    conditions = {}
    for name, sets in reason_sets(scope).items():
        condition = Q(pk__in=sets[0])
        for other in sets[1:]:
            condition |= Q(pk__in=other)
        conditions[name] = condition
    return conditions


def reasons_mask(scope: dict) -> ExpressionWrapper:
    """The reason bit mask (REASON_BITS) of each solution in `scope`, computed live.

    One expression holds every reason so the database builds each reason's id set once;
    separate boolean columns plus a CASE over them would build each set twice.
    """
    mask = sum(
        (
            Case(When(condition, then=Value(REASON_BITS[name])), default=Value(0))
            for name, condition in _reason_conditions(scope).items()
        ),
        start=Value(0),
    )
    return ExpressionWrapper(mask, output_field=IntegerField())


def masks_with(reason: str) -> list[int]:
    """Every mask value that has `reason` ("rest": none), for a filter on the stored mask."""
    if reason == "rest":
        return [0]
    return [m for m in range(1 << len(REASONS)) if m & REASON_BITS[reason]]


def with_review_reasons(
    qs: QuerySet[Solution], *, scope: dict, stored: bool = False
) -> QuerySet[Solution]:
    """Annotate solutions with `reasons`, a bit mask (REASON_BITS), and queue columns.

    `stored`: read Solution.review_reasons instead of computing the mask over `scope`.
    """
    submitted = Annotation.objects.filter(
        solution_id=OuterRef("pk"), status=AnnotationStatus.SUBMITTED
    ).order_by()
    current = Resolution.objects.filter(solution_id=OuterRef("pk"), is_current=True)
    return qs.annotate(
        reasons=F("review_reasons") if stored else reasons_mask(scope),
        annotations_submitted=Subquery(
            submitted.values("solution_id").annotate(n=Count("*")).values("n")
        ),
        last_submitted_at=Subquery(
            submitted.values("solution_id").annotate(m=Max("submitted_at")).values("m")
        ),
        resolution_id=Subquery(current.values("pk")[:1]),
        resolution_provenance=Subquery(current.values("provenance")[:1]),
    )


def review_queue(
    *,
    project: Project,
    annotator_id: int | None = None,
    source: str | None = None,
    submitted_from: datetime | None = None,
    submitted_to: datetime | None = None,
    state: str = "unresolved",
    reason: str | None = None,
) -> QuerySet[Solution]:
    """Solutions with submitted labels, most in need of review first.

    Order: disagreement (a step's ratings or the first-error index differ between submitted
    annotations), unsure steps, gold failures (a rated step or the first error differs from the
    gold label), human-vs-auto conflicts (a submitted +1 on a step a symbolic check refuted),
    then the rest; oldest solution first within each. `state`: unresolved (no current
    resolution, default), resolved or all. Filters: a submitting annotator, the problem's
    source, the submission time, one reason. The reasons are the stored ones when the project
    has `review_reasons_stored` (the same values, see the module docstring).
    """
    submitted = Annotation.objects.filter(
        solution_id=OuterRef("pk"), status=AnnotationStatus.SUBMITTED
    )
    if annotator_id is not None:
        submitted_by = submitted.filter(annotator_id=annotator_id)
    else:
        submitted_by = submitted
    if submitted_from is not None:
        submitted_by = submitted_by.filter(submitted_at__gte=submitted_from)
    if submitted_to is not None:
        submitted_by = submitted_by.filter(submitted_at__lt=submitted_to)
    qs = Solution.objects.filter(project=project).filter(Exists(submitted_by))
    if source:
        qs = qs.filter(problem__source=source)
    current = Resolution.objects.filter(solution_id=OuterRef("pk"), is_current=True)
    if state == "unresolved":
        qs = qs.filter(~Exists(current))
    elif state == "resolved":
        qs = qs.filter(Exists(current))
    stored = project.review_reasons_stored
    qs = with_review_reasons(
        qs.select_related("problem"), scope={"project": project}, stored=stored
    )
    if stored:
        if reason in REASONS or reason == "rest":
            qs = qs.filter(review_reasons__in=masks_with(reason))
        return qs.order_by("-reasons", "id")
    conditions = _reason_conditions({"project": project})
    if reason in REASONS:
        qs = qs.filter(conditions[reason])
    elif reason == "rest":
        for condition in conditions.values():
            qs = qs.exclude(condition)
    return qs.order_by("-reasons", "id")


def review_queue_counts(*, project: Project, state: str = "unresolved") -> dict[str, int]:
    """How many queued solutions have each reason (one solution can count under several).

    One GROUP BY over the reason mask: at most 2^len(REASONS) rows.
    """
    rows = (
        review_queue(project=project, state=state)
        .order_by()
        .values("reasons")
        .annotate(n=Count("id"))
        .values_list("reasons", "n")
    )
    counts = {"total": 0, **{name: 0 for name in REASONS}, "rest": 0}
    for mask, n in rows:
        counts["total"] += n
        for name, bit in REASON_BITS.items():
            if mask & bit:
                counts[name] += n
        if not mask:
            counts["rest"] += n
    return counts


def review_annotator_list(*, project: Project) -> list[dict]:
    """The people whose submitted (or rejected) annotations the queue can be filtered by."""
    rows = (
        Annotation.objects.filter(
            solution__project=project,
            annotator__isnull=False,
            status__in=[AnnotationStatus.SUBMITTED, AnnotationStatus.REJECTED],
        )
        .order_by("annotator__username")
        .values_list("annotator_id", "annotator__username")
        .distinct()
    )
    return [{"id": user_id, "username": username} for user_id, username in rows]


def item_reasons(solution: Solution) -> list[str]:
    return [name for name in REASONS if solution.reasons & REASON_BITS[name]]


def _annotator_name(annotation: Annotation) -> str:
    if annotation.annotator_id is not None:
        return annotation.annotator.username
    return annotation.external_annotator or "imported"


def _comment_rows(comments) -> list[dict]:
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
    return _comment_rows(qs.order_by("id"))


def _resolution_payload(resolution: Resolution | None) -> dict | None:
    if resolution is None:
        return None
    return {
        "id": resolution.id,
        "provenance": resolution.provenance,
        "first_error_index": resolution.first_error_index,
        "resolved_by": resolution.resolved_by.username if resolution.resolved_by else None,
        "annotation_ids": sorted(a.pk for a in resolution.annotations.all()),
        "is_current": resolution.is_current,
        "created_at": resolution.created_at,
        "labels": [
            {"step_id": lab.step_id, "rating": lab.rating} for lab in resolution.labels.all()
        ],
    }


def review_detail(*, solution: Solution) -> dict:
    """The review page: every annotation side by side per step, suggestions with evidence,
    gold, comments, reviews, label history and resolutions. A fixed number of queries."""
    solution = (
        with_review_reasons(Solution.objects.filter(pk=solution.pk), scope={"pk": solution.pk})
        .select_related("problem", "project")
        .get()
    )
    annotations = list(
        Annotation.objects.filter(solution=solution)
        .exclude(status=AnnotationStatus.DISCARDED)
        .select_related("annotator")
        .annotate(first_error_index=_first_error())
        .prefetch_related(Prefetch("labels", queryset=StepLabel.objects.order_by("step_id")))
        .order_by("id")
    )
    steps = list(
        solution.steps.order_by("index")
        .select_related("gold")
        .prefetch_related(
            Prefetch("suggestions", queryset=Suggestion.objects.order_by("source", "agent"))
        )
        .annotate(alternatives_count=Count("alternatives"))
    )
    by_annotation = {a.pk: {lab.step_id: lab for lab in a.labels.all()} for a in annotations}
    resolutions = list(
        Resolution.objects.filter(solution=solution)
        .select_related("resolved_by")
        .prefetch_related("annotations", "labels")
        .order_by("-id")
    )
    current = next((r for r in resolutions if r.is_current), None)
    resolved = {lab.step_id: lab.rating for lab in current.labels.all()} if current else {}

    def gold_rating(step) -> int | None:
        gold = getattr(step, "gold", None) if solution.is_gold else None
        return gold.rating if gold else None

    return {
        "solution": {
            "id": solution.id,
            "generator": solution.generator,
            "final_answer": solution.final_answer,
            "answer_correct": solution.answer_correct,
            "is_gold": solution.is_gold,
            "source": solution.source,
        },
        "problem": {
            "id": solution.problem.id,
            "text": solution.problem.text,
            "answer": solution.problem.answer,
            "source": solution.problem.source,
            "images": media_urls(
                project_id=solution.project_id, metadata=solution.problem.metadata
            ),
            "tools": tool_names(solution.problem.metadata),
        },
        "project": {
            "id": solution.project.id,
            "name": solution.project.name,
            "rating_values": list(solution.project.rating_values),
            "first_error_mode": solution.project.first_error_mode,
        },
        "reasons": item_reasons(solution),
        "annotations": [
            {
                "id": a.id,
                "annotator": _annotator_name(a),
                "annotator_id": a.annotator_id,
                "imported": a.imported,
                "status": a.status,
                "revises_id": a.revises_id,
                "finish_reason": a.finish_reason,
                "finish_reason_text": a.finish_reason_text,
                "time_spent_ms": a.time_spent_ms,
                "submitted_at": a.submitted_at,
                "first_error_index": a.first_error_index,
            }
            for a in annotations
        ],
        "steps": [
            {
                "id": step.id,
                "index": step.index,
                "text": step.text,
                "meta": step_meta(step.metadata),
                "images": media_urls(project_id=solution.project_id, metadata=step.metadata),
                "alternatives_count": step.alternatives_count,
                "gold_rating": gold_rating(step),
                "resolved_rating": resolved.get(step.id),
                "labels": [
                    {
                        "annotation_id": a.id,
                        "rating": lab.rating if lab else None,
                        "unsure": lab.unsure if lab else False,
                        "comment": lab.comment if lab else "",
                        "alternative_text": lab.alternative_text if lab else "",
                    }
                    for a in annotations
                    for lab in [by_annotation[a.pk].get(step.id)]
                ],
                "suggestions": [
                    {
                        "source": s.source,
                        "agent": s.agent,
                        "value": s.value,
                        "score": s.score,
                        "evidence": s.evidence,
                    }
                    for s in step.suggestions.all()
                ],
            }
            for step in steps
        ],
        "resolution": _resolution_payload(current),
        "resolutions": [_resolution_payload(r) for r in resolutions],
        "comments": _comment_rows(
            Comment.objects.filter(solution=solution).select_related("author").order_by("id")
        ),
        "reviews": review_action_rows(ReviewAction.objects.filter(solution=solution)),
        "history": label_history_rows(solution=solution),
    }


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


def rejection_list_for_user(*, project: Project, user) -> list[dict]:
    """The user's rejected annotations in a project with the reviewer's comment, newest first."""
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
        .values(
            "id",
            "solution_id",
            "comment",
            "reviewer",
            "rejected_at",
            "rework_id",
            "rework_status",
        )
    )
    return list(rows)
