"""The label audit trail: one LabelHistory row per label that a service changes.

Called by the services that write labels (drafts, submissions, rework copies, resolutions),
inside their transaction; never from signals, so bulk paths cannot skip it silently.
"""

from collections.abc import Mapping

from django.utils import timezone

from labeling.models import Annotation, LabelHistory, Resolution
from labeling.rows_insert import insert_rows, json_value, time_value

LABEL_FIELDS = ("rating", "unsure", "comment", "alternative_text")
# Audited too, but only where set: an annotator's marked dependencies (StepLabel.uses; None =
# not marked), so the history of labels without any reads as it always did.
USES_FIELD = "uses"
HISTORY_COLUMNS = (
    "annotation_id",
    "resolution_id",
    "solution_id",
    "step_id",
    "user_id",
    "action",
    "before",
    "after",
    "at",
)


def label_state(row: Mapping) -> dict:
    """The audited fields of an annotation's label (a values() row or a LabelInput's dict)."""
    state = {field: row[field] for field in LABEL_FIELDS}
    if (uses := row.get(USES_FIELD)) is not None:
        state[USES_FIELD] = list(uses)
    return state


def label_history_write(
    *,
    solution_id: int,
    user,
    action: str,
    before: Mapping[int, dict | None],
    after: Mapping[int, dict | None],
    annotation: Annotation | None = None,
    resolution: Resolution | None = None,
) -> None:
    """Write a row for every step whose state differs between `before` and `after`.

    A step missing from `after` was removed (after = null); missing from `before`, created.
    """
    user_id = user.pk if getattr(user, "pk", None) else None
    at = time_value(timezone.now())
    rows = [
        (
            annotation.pk if annotation else None,
            resolution.pk if resolution else None,
            solution_id,
            step_id,
            user_id,
            action,
            json_value(before.get(step_id)),
            json_value(after.get(step_id)),
            at,
        )
        for step_id in sorted(set(before) | set(after))
        if before.get(step_id) != after.get(step_id)
    ]
    insert_rows(LabelHistory._meta.db_table, HISTORY_COLUMNS, rows)
