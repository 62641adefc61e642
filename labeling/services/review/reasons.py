"""The review queue's stored reasons: Solution.review_reasons (and Solution.has_submission
beside it), refreshed by the services.

Every service that changes a reason's inputs (a submitted annotation's labels, the solution's
gold flag and gold labels, a symbolic suggestion) calls `review_reasons_refresh` for the
solutions it touched, in its own transaction. The refresh recomputes the mask in SQL with the
same expressions the live queue uses (`labeling.selectors.review.reasons_mask`), so stored and live
reasons cannot drift apart by formula, only by a missed call: tests/review/test_stored_reasons.py
replays random service sequences and compares the two after every step.
"""

from collections.abc import Iterable

from django.db import connection, transaction
from django.db.models.sql import UpdateQuery

from labeling.models import Project, Solution
from labeling.pg.compiled import compile_once
from labeling.pg.opaque import opaque_id
from labeling.selectors.review import has_submission, reasons_mask
from labeling.services.review.reasons_fill import (
    FillProgress,
    reasons_range_refresh,
    reasons_range_store,
    review_reasons_fill,
)

__all__ = ["FillProgress", "review_reasons_fill", "review_reasons_refresh"]


@transaction.atomic(savepoint=False)
def review_reasons_refresh(
    *,
    solution_ids: Iterable[int] | None = None,
    project: Project | None = None,
    id_range: tuple[int, int] | None = None,
    locked: bool = False,
) -> int:
    """Recompute and store the reasons of the given solutions, or of a project's (those with
    ids in `id_range` when given: a bulk import's new rows, without thousands of parameters).
    A whole project's are computed set-based (labeling.services.review.reasons_fill), one
    statement, and only changed masks are written; an id range or given ids, with the live
    expression.

    Locks the rows first (`SELECT ... FOR UPDATE`, in id order) and computes in a later
    statement: under READ COMMITTED the UPDATE's subqueries read the snapshot taken when the
    statement starts, so two writers racing on one solution (a submit and a symbolic
    suggestion) would otherwise each store a mask without the other's rows. With the lock,
    the second one waits for the first to commit and then reads both. Returns the rows updated.
    `locked`: the caller holds the rows' locks already (a submit locks its solution first).
    Returns the rows updated (for a project: the masks that changed).
    """
    if (solution_ids is None) == (project is None):
        raise TypeError("Pass solution_ids or project.")
    if locked and solution_ids is not None:
        ids = set(solution_ids)
        if len(ids) == 1:
            return _refresh_one(ids.pop())
    if project is not None and id_range is None:
        refresh = reasons_range_store if locked else reasons_range_refresh
        return refresh(project_id=project.pk, lo=0, hi=2**63 - 1)
    if project is not None:
        # An import's batch, inside the import's transaction: the set-based statement is
        # planned from statistics that have not seen the rows being imported (every table
        # "empty"), and ran for about 40 s per batch of 1,000 there; the live expression
        # probes per solution and does not depend on them. The project as an InitPlan
        # parameter (labeling.pg.opaque): a constant, estimated at one row, had the batch's
        # rows found by a walk of every solution the import had written so far.
        scope: dict = {"project_id": opaque_id(project.pk), "pk__range": id_range}
    else:
        scope = {"pk__in": sorted(set(solution_ids))}
        if not scope["pk__in"]:
            return 0
    targets = Solution.objects.filter(**scope).order_by("pk")
    if not locked:
        list(targets.select_for_update().values_list("pk", flat=True))
    return targets.update(review_reasons=reasons_mask(scope), has_submission=has_submission())


def _one_solution_update(stand_ins: dict) -> tuple[str, list]:
    """The one-solution UPDATE, compiled once (labeling.pg.compiled): building the mask's dozen
    subqueries through the ORM costs more CPU than the statement itself."""
    scope = {"pk__in": [stand_ins["solution"]]}
    query = Solution.objects.filter(**scope).query.chain(UpdateQuery)
    query.add_update_values(
        {"review_reasons": reasons_mask(scope), "has_submission": has_submission()}
    )
    return query.get_compiler(connection.alias).as_sql()


def _refresh_one(solution_id: int) -> int:
    statement = compile_once(("review reasons of one",), _one_solution_update, ints=("solution",))
    with connection.cursor() as cursor:  # planned per call (see annotations._count_submission)
        statement.execute(cursor, {"solution": solution_id})
        return cursor.rowcount
