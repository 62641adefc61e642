"""Deleting a row that running jobs read: refused (409, in words) while any of them is
unfinished. The jobs lock the same row when they are created, so a delete and a job's
creation serialize (an export under a training run or Hub push, a registered PRM model under an
auto-label or training run)."""

from collections.abc import Callable
from typing import TypeVar

from django.db import transaction
from django.db.models import Model, QuerySet

from labeling.errors import Conflict

M = TypeVar("M", bound=Model)


@transaction.atomic
def delete_unless_in_use(
    rows: QuerySet[M], *, pk: int, what: Callable[[M], str], users: Callable[[M], list[str]]
) -> M | None:
    """Lock row `pk` of `rows`, refuse while `users(row)` names a job, else delete it. Returns
    the deleted row (its fields still set), or None where it was deleted meanwhile."""
    locked = rows.select_for_update().filter(pk=pk).first()
    if locked is None:
        return None  # deleted meanwhile: the same outcome
    using = users(locked)
    if using:
        raise Conflict(
            f"{what(locked)} is in use by {', '.join(using)}: "
            "cancel or wait for them to finish, then delete it."
        )
    locked.delete()
    return locked
