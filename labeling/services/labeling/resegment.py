"""Re-segmenting a solution while labeling it: split a step in two, merge a step with the next.

Only where the project allows it (`Project.allow_resegment`), only by the annotator of a draft,
and only while that draft is the solution's one annotation: a solution that another annotator
claimed or submitted, a resolution, or a gold question keeps the segmentation its labels were
given on (409). What happens to what hangs on the steps:

- Labels (the draft's StepLabels): a split step's label is removed and both halves start
  unrated (the annotator rates them; half of a wrong step may be right). A merge keeps the
  lower (worse) rating of the two: a wrong half makes the merged step wrong; if neither is
  wrong and one is unrated, the merged step is unrated. `unsure` is kept if either was;
  comments and corrected texts are joined.
- Suggestions on the affected steps are removed: they described the old text.
- Step alternatives (imported completions) on an affected step refuse the change (409).
- History: one LabelHistory row (action `split` or `merge`) per affected label, on the step
  that stays; a merged-away step's history and review comments move to the step it joined.
- `uses` (the steps' imported or detected dependencies and the draft's own marks) are
  renumbered: after a split, a use of the split step becomes a use of both halves; after a
  merge, a use of either step becomes a use of the merged one.
- The annotation's version goes up (the caller names the version it read): a stale tab of
  the same draft gets a 409 instead of labels written against the old step ids.
"""

from django.db import transaction
from django.db.models import F

from labeling.api.bounds import MAX_LABELS
from labeling.errors import Conflict, NotAllowed, ValidationFailed
from labeling.models import (
    Annotation,
    AnnotationStatus,
    Comment,
    LabelAction,
    LabelHistory,
    Resolution,
    Solution,
    Step,
    StepAlternative,
    StepLabel,
    Suggestion,
)
from labeling.services.labeling.annotations import _bump_version, _check_editable
from labeling.services.labeling.history import label_state
from labeling.services.projects.metrics_version import metrics_version_bump

# Step indices are shifted through this offset (two UPDATEs) so that the unique
# (solution, index) constraint holds after every row of each statement.
_SHIFT = 1_000_000


def _check_allowed(annotation: Annotation, user) -> Solution:
    """Lock the solution and check the rules that do not depend on the step; the solution."""
    _check_editable(annotation, user)
    solution = (
        Solution.objects.select_for_update()
        .select_related("project")
        .get(pk=annotation.solution_id)
    )
    if not solution.project.allow_resegment:
        raise NotAllowed("This project does not allow splitting or merging steps.")
    if solution.is_gold:
        raise Conflict("This is a gold question: its steps cannot be split or merged.")
    others = (
        Annotation.objects.filter(solution_id=solution.pk)
        .exclude(pk=annotation.pk)
        .exclude(status=AnnotationStatus.DISCARDED)
    )
    if others.exists():
        raise Conflict(
            "Another annotation of this solution exists (claimed or submitted): its labels "
            "are on the current steps, so they cannot be split or merged.",
            reason="other_annotations",
        )
    if Resolution.objects.filter(solution_id=solution.pk).exists():
        raise Conflict("This solution has a resolved label set: its steps cannot change.")
    return solution


def _step(solution: Solution, step_id: int, field: str = "step_id") -> Step:
    step = Step.objects.filter(solution_id=solution.pk, pk=step_id).first()
    if step is None:
        raise ValidationFailed(f"Step {step_id} is not a step of this solution.", field=field)
    return step


def _refuse_alternatives(step_ids: list[int]) -> None:
    if StepAlternative.objects.filter(step_id__in=step_ids).exists():
        raise Conflict(
            "This step has imported alternative completions; it cannot be split or merged.",
            reason="alternatives",
        )


def _remap_uses(solution: Solution, annotation: Annotation, mapping) -> None:
    """Renumber every step's `uses` and the draft's marked `uses` with `mapping` (old index ->
    new indices), dropping any that would not be earlier than the step itself."""
    for step in Step.objects.filter(solution_id=solution.pk).exclude(uses=[]):
        new = sorted({n for old in step.uses for n in mapping(old) if n < step.index})
        if new != step.uses:
            Step.objects.filter(pk=step.pk).update(uses=new)
    labels = StepLabel.objects.filter(annotation=annotation, uses__isnull=False).select_related(
        "step"
    )
    for label in labels:
        new = sorted({n for old in label.uses for n in mapping(old) if n < label.step.index})
        if new != label.uses:
            StepLabel.objects.filter(pk=label.pk).update(uses=new)


def _shift(solution: Solution, above: int, by: int) -> None:
    """Move every step with index > `above` by `by` (±1), keeping indices unique throughout."""
    rows = Step.objects.filter(solution_id=solution.pk, index__gt=above)
    rows.update(index=F("index") + _SHIFT)
    Step.objects.filter(solution_id=solution.pk, index__gt=above + _SHIFT).update(
        index=F("index") - _SHIFT + by
    )


def _state(label: StepLabel | None) -> dict | None:
    return label_state(label.__dict__) if label is not None else None


def _history(annotation: Annotation, user, step: Step, action: str, before, after) -> None:
    LabelHistory.objects.create(
        annotation=annotation,
        solution_id=annotation.solution_id,
        step=step,
        user=user if getattr(user, "pk", None) else None,
        action=action,
        before=before,
        after=after,
    )


@transaction.atomic
def step_split(
    *, annotation: Annotation, user, version: int, step_id: int, offset: int
) -> Annotation:
    """Split step `step_id` at character `offset` of its text: the step keeps the text
    before it, a new step right after it gets the rest (whitespace at the cut trimmed).
    Both halves start unrated."""
    solution = _check_allowed(annotation, user)
    step = _step(solution, step_id)
    text = step.text
    if not 0 < offset < len(text):
        raise ValidationFailed(
            f"offset {offset} is not inside step {step.index + 1}'s text (1 to {len(text) - 1}).",
            field="offset",
        )
    left, right = text[:offset].rstrip(), text[offset:].lstrip()
    if not left or not right:
        raise ValidationFailed(
            "Splitting there would leave an empty step; pick a point between two words.",
            field="offset",
        )
    if Step.objects.filter(solution_id=solution.pk).count() >= MAX_LABELS:
        raise ValidationFailed(f"A solution has at most {MAX_LABELS} steps.", field="step_id")
    _refuse_alternatives([step.pk])
    _bump_version(annotation, version, request_id=None)  # last check: a stale version is a 409
    at = step.index
    _shift(solution, at, +1)
    Step.objects.filter(pk=step.pk).update(text=left)
    new = Step.objects.create(
        solution_id=solution.pk,
        index=at + 1,
        text=right,
        metadata={},
        uses=step.uses,
        uses_source=step.uses_source,
        thinking=step.thinking,  # half of a reasoning step is a reasoning step
    )
    _remap_uses(
        solution,
        annotation,
        lambda old: [old] if old < at else [at, at + 1] if old == at else [old + 1],
    )
    label = StepLabel.objects.filter(annotation=annotation, step_id=step.pk).first()
    before = _state(label)
    if label is not None:
        if label.uses is not None:  # the halves keep the marked dependencies, unrated
            StepLabel.objects.filter(pk=label.pk).update(
                rating=None, unsure=False, comment="", alternative_text=""
            )
            StepLabel.objects.create(annotation=annotation, step=new, uses=label.uses)
        else:
            label.delete()
    _history(annotation, user, step, LabelAction.SPLIT, before, None)
    Suggestion.objects.filter(step_id=step.pk).delete()
    # The project's steps (its stats), this solution's labels and suggestions (its parts).
    metrics_version_bump(project_id=solution.project_id, solution_id=solution.pk)
    annotation.refresh_from_db()
    return annotation


def _merged_label(first: StepLabel | None, second: StepLabel | None) -> dict | None:
    labels = [label for label in (first, second) if label is not None]
    if not labels:
        return None
    ratings = [label.rating for label in (first, second)]
    if -1 in ratings:
        rating = -1
    elif None in ratings:
        rating = None
    else:
        rating = min(ratings)
    uses = [label.uses for label in labels if label.uses is not None]
    return {
        "rating": rating,
        "unsure": any(label.unsure for label in labels),
        "comment": "\n".join(label.comment for label in labels if label.comment),
        "alternative_text": "\n".join(
            label.alternative_text for label in labels if label.alternative_text
        ),
        "uses": sorted({k for u in uses for k in u}) if uses else None,
    }


@transaction.atomic
def step_merge(*, annotation: Annotation, user, version: int, step_id: int) -> Annotation:
    """Merge step `step_id` with the step after it (texts joined by a line break); the merged
    step keeps the worse rating (see the module's docstring)."""
    solution = _check_allowed(annotation, user)
    step = _step(solution, step_id)
    following = Step.objects.filter(solution_id=solution.pk, index=step.index + 1).first()
    if following is None:
        raise ValidationFailed(
            f"Step {step.index + 1} is the last step: there is no next step to merge it with.",
            field="step_id",
        )
    if step.thinking != following.thinking:
        raise ValidationFailed(
            f"Step {step.index + 1} ends the model's reasoning and step {step.index + 2} starts "
            "its answer: a reasoning step and an answer step cannot be merged.",
            field="step_id",
        )
    _refuse_alternatives([step.pk, following.pk])
    _bump_version(annotation, version, request_id=None)  # last check: a stale version is a 409
    at = step.index
    first = StepLabel.objects.filter(annotation=annotation, step_id=step.pk).first()
    second = StepLabel.objects.filter(annotation=annotation, step_id=following.pk).first()
    merged = _merged_label(first, second)
    # What hangs on the merged-away step moves to the step it joins (or goes, see above).
    LabelHistory.objects.filter(step_id=following.pk).update(step_id=step.pk)
    Comment.objects.filter(step_id=following.pk).update(step_id=step.pk)
    Suggestion.objects.filter(step_id__in=[step.pk, following.pk]).delete()
    StepLabel.objects.filter(annotation=annotation, step_id__in=[step.pk, following.pk]).delete()
    uses = sorted(set(step.uses) | {k for k in following.uses if k != at})
    Step.objects.filter(pk=step.pk).update(text=f"{step.text}\n{following.text}", uses=uses)
    following.delete()
    _shift(solution, at + 1, -1)
    _remap_uses(solution, annotation, lambda old: [old] if old <= at else [old - 1])
    if merged is not None:
        label_uses = merged["uses"]
        if label_uses is not None:
            merged["uses"] = [k for k in label_uses if k != at]
        StepLabel.objects.create(annotation=annotation, step=step, **merged)
    after = label_state(merged) if merged is not None else None
    # A row for the step that stays (always: the merge is on record) and one for the label
    # of the step merged into it, if it had one.
    _history(annotation, user, step, LabelAction.MERGE, _state(first), after)
    if second is not None:
        _history(annotation, user, step, LabelAction.MERGE, _state(second), after)
    # The project's steps (its stats), this solution's labels and suggestions (its parts).
    metrics_version_bump(project_id=solution.project_id, solution_id=solution.pk)
    annotation.refresh_from_db()
    return annotation
