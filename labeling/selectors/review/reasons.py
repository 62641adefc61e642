"""Why a solution needs review: the reasons (disagreement between annotators, unsure steps, gold
failures, human-vs-auto conflicts, a single annotator), computed by the database as one bit
mask per solution (`reasons_mask`) with subqueries over the submitted labels; nothing loads
labels into Python to decide. labeling/services/review/reasons.py stores the same expression on
each solution.
"""

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
    Solution,
    StepLabel,
    SuggestionSource,
)

# In the order the queue serves them; solutions with none of these come last ("rest": two or
# more annotators who agree). "single_annotator": one submitted annotation, so nobody agreed
# or disagreed with it; it is never shown as agreement.
REASONS = ("disagreement", "unsure", "gold_failure", "auto_conflict", "single_annotator")
# Machine sources whose −1 ("refuted") contradicts a human +1 as a human-vs-auto conflict.
AUTO_CONFLICT_SOURCES = (SuggestionSource.SYMBOLIC,)
NO_ERROR = 1_000_000  # first-error index of an annotation without a −1 step


def first_error_subquery(annotation_ref: str = "pk") -> Subquery:
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
        annotations.annotate(fe=Coalesce(first_error_subquery(), NO_ERROR))
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
        .annotate(fe=Coalesce(first_error_subquery(), NO_ERROR), gold_fe=gold_first_error)
        .exclude(fe=F("gold_fe"))
        .values("solution_id")
    )
    refuted = labels.filter(
        rating=1,
        step__suggestions__source__in=AUTO_CONFLICT_SOURCES,
        step__suggestions__value=-1,
    ).values("annotation__solution_id")
    single = (
        annotations.values("solution_id").annotate(n=Count("id")).filter(n=1).values("solution_id")
    )
    return {
        "disagreement": [step_differs, first_error_differs],
        "unsure": [labels.filter(unsure=True).values("annotation__solution_id")],
        "gold_failure": [gold_step_differs, gold_first_error_differs],
        "auto_conflict": [refuted],
        "single_annotator": [single],
    }


# Reason bits: the first reason has the highest bit, so ordering by the mask descending serves
# every disagreement first (those with more reasons before the rest of them), then unsure, ...
REASON_BITS = {name: 1 << (len(REASONS) - 1 - i) for i, name in enumerate(REASONS)}


def reason_conditions(scope: dict) -> dict[str, Q]:
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
            for name, condition in reason_conditions(scope).items()
        ),
        start=Value(0),
    )
    return ExpressionWrapper(mask, output_field=IntegerField())


def has_submission(scope_ref: str = "pk") -> Exists:
    """Whether the solution has a submitted annotation: Solution.has_submission, stored by
    the same statements as the mask."""
    return Exists(
        Annotation.objects.filter(
            solution_id=OuterRef(scope_ref), status=AnnotationStatus.SUBMITTED
        ).order_by()
    )


def masks_with(reason: str) -> list[int]:
    """Every mask value that has `reason` ("rest": none), for a filter on the stored mask."""
    if reason == "rest":
        return [0]
    return [m for m in range(1 << len(REASONS)) if m & REASON_BITS[reason]]


def item_reasons(solution: Solution) -> list[str]:
    return [name for name in REASONS if solution.reasons & REASON_BITS[name]]
