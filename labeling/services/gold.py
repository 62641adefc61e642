"""Gold questions: solutions whose labels admins know, to measure annotators against."""

from collections.abc import Iterable, Mapping

from django.db import transaction

from labeling.errors import ValidationFailed
from labeling.models import GoldLabel, Solution


@transaction.atomic
def gold_set(*, solution: Solution, labels: Iterable[Mapping], user=None) -> Solution:
    """Mark the solution gold with one known rating per step ([{step_id, rating}], all steps)."""
    solution = Solution.objects.select_for_update().select_related("project").get(pk=solution.pk)
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
    solution.is_gold = True
    return solution


@transaction.atomic
def gold_unset(*, solution: Solution) -> Solution:
    """Stop treating the solution as gold (its gold labels are kept for the record)."""
    Solution.objects.filter(pk=solution.pk).update(is_gold=False)
    solution.is_gold = False
    return solution
