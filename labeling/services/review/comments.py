"""Comment threads on a solution or on one of its steps."""

from django.db import transaction

from labeling.errors import ValidationFailed
from labeling.models import Comment, Solution, Step
from labeling.services.collection_caps import collection_room_check


@transaction.atomic
def comment_create(*, solution: Solution, author, body: str, step_id: int | None = None) -> Comment:
    """Add a comment to the solution's thread, or to a step's thread when `step_id` is given.

    Who may comment is decided by the caller (the API: reviewers and admins anywhere in the
    project, annotators on solutions they labeled).
    """
    body = body.strip()
    if not body:
        raise ValidationFailed("A comment needs some text.", field="body")
    if step_id is not None and not Step.objects.filter(pk=step_id, solution=solution).exists():
        raise ValidationFailed(f"Step {step_id} is not a step of this solution.", field="step_id")
    # A solution's comments are listed whole (its review page, the comments API): bounded.
    held = Comment.objects.filter(solution=solution)
    collection_room_check(kind="comments", owner_id=solution.pk, held=held)
    return Comment.objects.create(solution=solution, step_id=step_id, author=author, body=body)
