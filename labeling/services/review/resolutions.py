"""A solution's resolved label: created by review, by agreeing annotators, or by machines.

Callers hold the solution's row lock (`Solution.objects.select_for_update()`), so two
resolutions of one solution never race; the partial unique constraint on `is_current` is the
backstop. A new resolution supersedes the current one, which stays in the table.
"""

from collections.abc import Iterable, Mapping

from django.db import transaction

from labeling.models import (
    Annotation,
    AnnotationStatus,
    LabelAction,
    Provenance,
    Resolution,
    ResolutionLabel,
    ReviewAction,
    Solution,
    StepLabel,
    Suggestion,
)
from labeling.rules.overlap import solution_overlap
from labeling.services.labeling.history import USES_FIELD, label_history_write
from labeling.services.projects.metrics_version import (
    metrics_version_bump,
    metrics_version_bump_of_solution,
)
from labeling.services.webhooks.events import (
    REVIEW_RESOLVED,
    review_resolved_data,
    webhook_event_emit,
)
from labeling.steps.uses import majority_uses


def _label_state(rating: int | None, uses: list[int] | None) -> dict:
    """A resolved label as the history records it; `uses` only where decided."""
    return {"rating": rating} if uses is None else {"rating": rating, USES_FIELD: list(uses)}


def _resolution_state(resolution: Resolution | None) -> dict[int, dict]:
    if resolution is None:
        return {}
    return {
        step_id: _label_state(rating, uses)
        for step_id, rating, uses in resolution.labels.values_list("step_id", "rating", "uses")
    }


def resolution_current(*, solution_id: int) -> Resolution | None:
    return Resolution.objects.filter(solution_id=solution_id, is_current=True).first()


def resolution_create(
    *,
    solution: Solution,
    ratings: Mapping[int, int | None],
    provenance: str,
    resolved_by=None,
    review: ReviewAction | None = None,
    annotations: Iterable[Annotation | int] = (),
    uses: Mapping[int, list[int] | None] | None = None,
) -> Resolution:
    """Make `ratings` (step id → rating) the solution's resolved label; caller holds the lock.

    `uses` (step id → the earlier steps it uses, 0-based): the dependencies decided with it,
    where decided; a step left out keeps its own (`Step.uses`). Callers validate them."""
    uses = uses or {}
    steps = list(solution.steps.order_by("index").values_list("id", "index"))
    current = resolution_current(solution_id=solution.pk)
    before = _resolution_state(current)
    if current is not None:
        Resolution.objects.filter(pk=current.pk).update(is_current=False)
    first_error = next((index for step_id, index in steps if ratings.get(step_id) == -1), None)
    resolution = Resolution.objects.create(
        solution=solution,
        provenance=provenance,
        first_error_index=first_error,
        resolved_by=resolved_by,
        review=review,
        supersedes=current,
    )
    ResolutionLabel.objects.bulk_create(
        ResolutionLabel(
            resolution=resolution,
            step_id=step_id,
            rating=ratings.get(step_id),
            uses=uses.get(step_id),
        )
        for step_id, _ in steps
    )
    resolution.annotations.set(annotations)
    # The review progress; the solution's annotations (accept, adjudicate) too.
    metrics_version_bump(project_id=solution.project_id, solution_id=solution.pk)
    label_history_write(
        resolution=resolution,
        solution_id=solution.pk,
        user=resolved_by,
        action=LabelAction.RESOLVE,
        before=before,
        after={
            step_id: _label_state(ratings.get(step_id), uses.get(step_id)) for step_id, _ in steps
        },
    )
    # The project as the caller loaded it (no query to skip the event), else its id.
    project = solution.project if Solution.project.is_cached(solution) else solution.project_id
    webhook_event_emit(
        project=project, event_type=REVIEW_RESOLVED, data=review_resolved_data(resolution)
    )
    return resolution


def resolution_withdraw(*, resolution: Resolution, user) -> None:
    """The current resolution stops being current (its basis was rejected); nothing is deleted."""
    Resolution.objects.filter(pk=resolution.pk).update(is_current=False)
    metrics_version_bump_of_solution(solution_id=resolution.solution_id)
    label_history_write(
        resolution=resolution,
        solution_id=resolution.solution_id,
        user=user,
        action=LabelAction.WITHDRAW,
        before=_resolution_state(resolution),
        after={},
    )


def resolution_auto(*, solution_id: int) -> Resolution | None:
    """Human consensus: resolve when the overlap's annotators all submitted the same labels.

    Runs inside `annotation_submit`'s transaction (solution row locked). Only when the project
    allows it, at least two (and at least the solution's effective overlap: the project's plus
    a requeue's `extra_overlap`) people submitted, nothing is resolved
    yet, every step's rating is identical across them and no step is marked unsure.
    """
    solution = Solution.objects.select_related("project").get(pk=solution_id)
    project = solution.project
    if solution.is_gold or not project.auto_resolve:
        return None  # gold has its known labels; answers to it are measured, not resolved
    if resolution_current(solution_id=solution_id) is not None:
        return None
    submitted = list(
        Annotation.objects.filter(
            solution_id=solution_id,
            status=AnnotationStatus.SUBMITTED,
            annotator__isnull=False,
            imported=False,
        ).values_list("id", flat=True)
    )
    if len(submitted) < max(2, solution_overlap(project=project, solution=solution)):
        return None
    step_ids = list(solution.steps.order_by("index").values_list("id", flat=True))
    by_annotation: dict[int, dict[int, int | None]] = {pk: {} for pk in submitted}
    marks: dict[int, list[list[int] | None]] = {step_id: [] for step_id in step_ids}
    for annotation_id, step_id, rating, unsure, uses in (
        StepLabel.objects.filter(annotation_id__in=submitted)
        .order_by("annotation_id")
        .values_list("annotation_id", "step_id", "rating", "unsure", "uses")
    ):
        if unsure:
            return None
        by_annotation[annotation_id][step_id] = rating
        marks[step_id].append(uses)
    vectors = {tuple(labels.get(s) for s in step_ids) for labels in by_annotation.values()}
    if len(vectors) != 1:
        return None
    (agreed,) = vectors
    return resolution_create(
        solution=solution,
        ratings=dict(zip(step_ids, agreed, strict=True)),
        provenance=Provenance.HUMAN_CONSENSUS,
        annotations=submitted,
        # The ratings agree; the dependencies are the ones most of those who marked gave,
        # as an export of these annotations would write them.
        uses={step_id: majority_uses(given) for step_id, given in marks.items()},
    )


@transaction.atomic
def resolution_from_suggestions(
    *, solution: Solution, source: str = "consensus"
) -> Resolution | None:
    """Auto consensus: resolve from one machine source when it rated every step, unanimously.

    Does nothing when the solution already has a resolution (humans and reviewers win).
    """
    locked = Solution.objects.select_for_update().get(pk=solution.pk)
    if Solution.project.is_cached(solution):  # the webhook check reads it: no query then
        locked.project = solution.project
    if resolution_current(solution_id=locked.pk) is not None:
        return None
    step_ids = list(locked.steps.values_list("id", flat=True))
    values: dict[int, set[int | None]] = {step_id: set() for step_id in step_ids}
    for step_id, value in Suggestion.objects.filter(
        step__solution=locked, source=source
    ).values_list("step_id", "value"):
        values[step_id].add(value)
    if not step_ids or any(len(v) != 1 or None in v for v in values.values()):
        return None
    return resolution_create(
        solution=locked,
        ratings={step_id: next(iter(v)) for step_id, v in values.items()},
        provenance=Provenance.AUTO_CONSENSUS,
    )
