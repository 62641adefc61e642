"""The label policy applied to a record: training labels, cuts, skipped records (pure).

- A rating becomes a training label: +1 True, −1 False, 0 as `neutral` says. An unrated step
  the labeler wrote themselves (PRM800K `human_completion`) is True when
  `human_written_positive` (as TRL's own PRM800K conversion does), else unlabeled.
- A row is the labeled prefix of a solution: it ends before the first unlabeled step, before
  the first unsure step when `unsure=truncate`, and after the first False step when
  `truncate_after_first_error` (the default, as ProcessBench and first-error labeling assume).
- A record is skipped whole when `unsure=drop` and any step is unsure, or when its agreement
  is below `min_agreement`.
"""

from operator import attrgetter

from .options import Filters, LabelPolicy, Neutral, Unsure
from .records import SolutionRecord, StepRecord

_unsure = attrgetter("unsure")


def positive_rating(rating: int, policy: LabelPolicy) -> bool:
    if rating == 0:
        return policy.neutral == Neutral.POSITIVE
    return rating > 0


def training_label(step: StepRecord, policy: LabelPolicy) -> bool | None:
    if step.rating is None:
        return True if policy.human_written_positive and step.human_written else None
    return positive_rating(step.rating, policy)


def soft_label(step: StepRecord, label: bool) -> float:
    return step.soft if step.soft is not None else float(label)


_last_rated: tuple[LabelPolicy | None, dict[int | None, bool]] = (None, {})


def _rated(policy: LabelPolicy) -> dict[int | None, bool]:
    """training_label of a step rated -1, 0 or +1 (what every rated step is), for the policy
    of the last call (an export asks with one policy object for every row)."""
    global _last_rated
    last, rated = _last_rated
    if last is not policy:
        rated = {rating: positive_rating(rating, policy) for rating in (-1, 0, 1)}
        _last_rated = (policy, rated)
    return rated


def labeled_steps(
    record: SolutionRecord, policy: LabelPolicy, filters: Filters
) -> tuple[list[StepRecord], list[bool]]:
    """The row's steps and their training labels (module docstring), as two lists: what a
    format writes column by column (TRL) takes them so, with no pair a step."""
    steps: list[StepRecord] = []
    labels: list[bool] = []
    truncate_unsure = filters.unsure == Unsure.TRUNCATE
    first_error = policy.truncate_after_first_error
    rated = _rated(policy)
    for step in record.steps:
        if step.unsure and truncate_unsure:
            break
        label = rated.get(step.rating)
        if label is None:
            label = training_label(step, policy)
            if label is None:
                break
        steps.append(step)
        labels.append(label)
        if not label and first_error:
            break
    return steps, labels


def labeled_prefix(
    record: SolutionRecord, policy: LabelPolicy, filters: Filters
) -> list[tuple[StepRecord, bool]]:
    """labeled_steps as (step, training label) pairs."""
    return list(zip(*labeled_steps(record, policy, filters), strict=True))


def skip_reason(record: SolutionRecord, filters: Filters) -> str | None:
    """Why the whole record is left out, or None."""
    if filters.unsure == Unsure.DROP and (
        record.columns.unsure if record.columns is not None else any(map(_unsure, record.steps))
    ):
        return "unsure"
    if record.agreement is not None and record.agreement < filters.min_agreement:
        return "agreement"
    return None
