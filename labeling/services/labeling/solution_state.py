"""What a label write reads first: the solution's gold flag, extra overlap and steps, the
annotation's labels so far and its replay columns; one statement that, for a submit, also takes
the row locks."""

import json
from dataclasses import dataclass

from django.db import connection

from labeling.models import Solution
from labeling.pg.compiled import hot_cursor
from labeling.services.labeling.history import label_state

# The annotation's row comes along: its replay columns (what labeling.services.labeling.annotations'
# `_replayed` reads) and, for a submit, its lock.
_SOLUTION_STATE_SQL = """
SELECT s.is_gold, s.extra_overlap, st.id, st."index", l.step_id, l.rating, l.unsure, l.comment,
  l.alternative_text, l.uses, a.last_request_id, a.status
FROM labeling_solution s
JOIN labeling_annotation a ON a.id = %s
LEFT JOIN labeling_step st ON st.solution_id = s.id
LEFT JOIN labeling_steplabel l ON l.step_id = st.id AND l.annotation_id = a.id
WHERE s.id = %s
ORDER BY st."index"
"""


@dataclass(frozen=True)
class SolutionState:
    """What a label write reads of the solution and of the annotation's labels so far."""

    is_gold: bool
    extra_overlap: int  # labels wanted beyond the project's overlap (labeling.rules.overlap)
    steps: list[tuple[int, int]]  # (step id, index) in order
    labels: dict[int, dict]  # the annotation's stored labels by step id (label_state)
    annotation_row: tuple  # the annotation's (last_request_id, status)


def solution_state(*, solution_id: int, annotation_id: int, lock: bool) -> SolutionState:
    """The solution's gold flag and steps and the annotation's labels so far, in one
    statement. `lock` (a submit): the statement also locks the solution's row, `FOR UPDATE
    OF s`, that row only; without `OF` every row joined would be locked, and submits of one
    project would wait on each other; and the annotation's row after it (OF s, a), whose
    replay columns come along (the submit's `_replayed` then needs no statement)."""
    sql = _SOLUTION_STATE_SQL
    if lock and connection.features.has_select_for_update_of:
        sql += " FOR UPDATE OF s, a"  # SQLite: the IMMEDIATE transaction serializes writers
    with hot_cursor() as cursor:
        cursor.execute(sql, [annotation_id, solution_id])
        rows = cursor.fetchall()
    if not rows:
        raise Solution.DoesNotExist(f"Solution {solution_id} does not exist.")
    steps, labels = [], {}
    for row in rows:
        step_id, index, label_step, rating, unsure, comment, alternative, uses = row[2:10]
        if step_id is None:
            continue  # a solution without steps: the outer join's one empty row
        steps.append((step_id, index))
        if label_step is not None:
            labels[step_id] = label_state(
                {
                    "rating": rating,
                    "unsure": bool(unsure),
                    "comment": comment,
                    "alternative_text": alternative,
                    # JSON text from a raw cursor (both backends), parsed for the audit.
                    "uses": json.loads(uses) if isinstance(uses, str) else uses,
                }
            )
    return SolutionState(
        is_gold=bool(rows[0][0]),
        extra_overlap=rows[0][1],
        steps=steps,
        labels=labels,
        annotation_row=tuple(rows[0][10:]),
    )
