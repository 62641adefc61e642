"""What a submission changes on its solution, in one UPDATE: the submitted count, its place in the
claim pool (a submission can only close it) and the review queue's stored reasons and
"has a submission" marker.

The reasons (labeling.selectors.review.reasons_mask) are subqueries over every submitted label
of the solution; PostgreSQL plans them per call in about 2 ms (a prepared generic plan made
while a new project's label tables are nearly empty stays slow, tens of ms, as they fill). A
solution whose only submitted annotation is this one, and that is not a gold question, has the
reason "single_annotator" and can have two more only: an unsure step (the submitter's labels
say) and a +1 on a step a machine source refuted (one EXISTS). So the common case, overlap 1 or
the first of several, is a short prepared UPDATE whose WHERE holds those conditions; when it
matches no row (another submitted annotation, imported ones included, or a gold question) the
full expression runs.

Both run after the submit locked the solution's row, so their snapshot has every submission of
it that committed before (READ COMMITTED takes one per statement). On PostgreSQL the short one
reads no label (the +1 steps come from the submitted ratings), so it goes in one statement with
the submit's label writes (labeling.pg.writes_joined.write_counted); the full one follows that
statement and sees the labels.
"""

from django.db import connection
from django.db.models import BooleanField, ExpressionWrapper, F, Q, Value
from django.db.models.sql import UpdateQuery

from labeling.models import Annotation, AnnotationStatus, Solution, StepLabel, Suggestion
from labeling.pg.compiled import compile_once
from labeling.pg.writes_joined import write_counted
from labeling.selectors.review import AUTO_CONFLICT_SOURCES, REASON_BITS, reasons_mask


def _full_sql(stand_ins: dict) -> tuple[str, list]:
    """The general UPDATE: the reasons computed live (its subqueries see this transaction's
    new labels); the SET reads the row as it was, so the new count is submitted_count + 1."""
    scope = {"pk__in": [stand_ins["solution"]]}
    query = Solution.objects.filter(**scope).query.chain(UpdateQuery)
    query.add_update_values(
        {
            "submitted_count": F("submitted_count") + 1,
            "queue_open": ExpressionWrapper(
                Q(queue_open=True) & Q(submitted_count__lt=stand_ins["open_below"]),
                output_field=BooleanField(),
            ),
            "review_reasons": reasons_mask(scope),
            "has_submission": Value(True),
        }
    )
    return query.get_compiler(connection.alias).as_sql()


def _q(name: str) -> str:
    return connection.ops.quote_name(name)


def _alone_sql() -> str:
    """The UPDATE for a non-gold solution whose only submitted annotation is this one. The +1
    steps come as a parameter on PostgreSQL (the UPDATE then reads no label, so it can go in
    one statement with the label writes: labeling.pg.writes_joined), else from the labels."""
    sources = ", ".join(["%s"] * len(AUTO_CONFLICT_SOURCES))
    solution, label = _q(Solution._meta.db_table), _q(StepLabel._meta.db_table)
    suggestion, annotation = _q(Suggestion._meta.db_table), _q(Annotation._meta.db_table)
    if connection.vendor == "postgresql":
        refuted_plus = (
            f"SELECT 1 FROM {suggestion} g WHERE g.step_id = ANY(%s::bigint[]) "
            f"AND g.source IN ({sources}) AND g.value = -1"
        )
    else:
        refuted_plus = (
            f"SELECT 1 FROM {label} l JOIN {suggestion} g ON g.step_id = l.step_id "
            f"WHERE l.annotation_id = %s AND l.rating = 1 AND g.source IN ({sources}) "
            "AND g.value = -1"
        )
    return (
        f"UPDATE {solution} SET submitted_count = submitted_count + 1, "
        f"queue_open = (queue_open AND submitted_count < %s), has_submission = TRUE, "
        f"review_reasons = %s + CASE WHEN EXISTS ({refuted_plus}) THEN %s ELSE 0 END "
        f"WHERE id = %s AND NOT is_gold AND NOT EXISTS (SELECT 1 FROM {annotation} a "
        f"WHERE a.solution_id = %s AND a.status = %s AND a.id <> %s)"
    )


def submission_count(
    *,
    solution_id: int,
    annotation_id: int,
    overlap: int,
    unsure: bool,
    plus_steps: list[int],
) -> None:
    """Count the annotation's submission on its solution (whose row the caller locked), with
    its review reasons. `unsure`: one of the submitted labels is marked unsure; `plus_steps`:
    the steps it rated +1. Inside a `writes_joined()` block (a submit's label writes) the
    common case goes with the held writes as one statement."""
    open_below = overlap - 1
    plus = plus_steps if connection.vendor == "postgresql" else annotation_id
    params = [
        open_below,
        REASON_BITS["single_annotator"] | (REASON_BITS["unsure"] if unsure else 0),
        plus,
        *AUTO_CONFLICT_SOURCES,
        REASON_BITS["auto_conflict"],
        solution_id,
        solution_id,
        AnnotationStatus.SUBMITTED,
        annotation_id,
    ]
    if write_counted(_alone_sql(), params):
        return
    statement = compile_once(("count submission",), _full_sql, ints=("solution", "open_below"))
    with connection.cursor() as cursor:  # client-bound, planned per call (module docstring)
        statement.execute(cursor, {"solution": solution_id, "open_below": open_below})
