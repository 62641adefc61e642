"""The review queue as first written, kept as bench/review_queue_bench.py's baseline.

A verbatim copy of labeling/selectors/review.py's queue functions before the queue was made
fast (each reason an uncorrelated `pk IN (subquery)` over all the project's submitted labels,
recomputed on every page load). Not used by the application.
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
    GoldLabel,
    Project,
    Resolution,
    Solution,
    StepLabel,
)
from labeling.selectors.review import AUTO_CONFLICT_SOURCES, NO_ERROR, REASONS


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


REASON_BITS = {name: 1 << (len(REASONS) - 1 - i) for i, name in enumerate(REASONS)}


def _reason_conditions(scope: dict) -> dict[str, Q]:
    conditions = {}
    for name, sets in reason_sets(scope).items():
        condition = Q(pk__in=sets[0])
        for other in sets[1:]:
            condition |= Q(pk__in=other)
        conditions[name] = condition
    return conditions


def with_review_reasons(qs: QuerySet[Solution], *, scope: dict) -> QuerySet[Solution]:
    """Annotate solutions with `reasons`, a bit mask (REASON_BITS), and queue columns.

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
    submitted = Annotation.objects.filter(
        solution_id=OuterRef("pk"), status=AnnotationStatus.SUBMITTED
    ).order_by()
    current = Resolution.objects.filter(solution_id=OuterRef("pk"), is_current=True)
    return qs.annotate(
        reasons=ExpressionWrapper(mask, output_field=IntegerField()),
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
    source, the submission time, one reason.
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
    qs = with_review_reasons(qs.select_related("problem"), scope={"project": project})
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
