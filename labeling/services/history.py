"""The label audit trail: one LabelHistory row per label that a service changes.

Called by the services that write labels (drafts, submissions, rework copies, resolutions),
inside their transaction; never from signals, so bulk paths cannot skip it silently.
"""

from collections.abc import Mapping

from labeling.models import Annotation, LabelHistory, Resolution

LABEL_FIELDS = ("rating", "unsure", "comment", "alternative_text")


def label_state(row: Mapping) -> dict:
    """The audited fields of an annotation's label (a values() row or a LabelInput's dict)."""
    return {field: row[field] for field in LABEL_FIELDS}


def label_history_write(
    *,
    solution_id: int,
    user,
    action: str,
    before: Mapping[int, dict | None],
    after: Mapping[int, dict | None],
    annotation: Annotation | None = None,
    resolution: Resolution | None = None,
) -> list[LabelHistory]:
    """Write a row for every step whose state differs between `before` and `after`.

    A step missing from `after` was removed (after = null); missing from `before`, created.
    """
    rows = []
    for step_id in sorted(set(before) | set(after)):
        old, new = before.get(step_id), after.get(step_id)
        if old == new:
            continue
        rows.append(
            LabelHistory(
                annotation=annotation,
                resolution=resolution,
                solution_id=solution_id,
                step_id=step_id,
                user=user if getattr(user, "pk", None) else None,
                action=action,
                before=old,
                after=new,
            )
        )
    return LabelHistory.objects.bulk_create(rows)
