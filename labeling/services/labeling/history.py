"""The label audit trail: one LabelHistory row per label that a service changes.

Called by the services that write labels (drafts, submissions, rework copies, resolutions),
inside their transaction; never from signals, so bulk paths cannot skip it silently.

Drafts are coalesced (`label_history_write_draft`): autosave runs after every click, and a
client saving in a loop wrote 22,000 rows in 2 s (issue 24). A draft's change of a step whose
latest row is a draft row of the same user younger than DRAFT_COALESCE_S updates that row's
`after` (and `at`) instead of adding one; a change back to that row's `before` removes it
(nothing changed, all told). So history grows with real edits: at most one row per step and
window however fast a client saves.
"""

from collections.abc import Mapping
from datetime import timedelta

from django.conf import settings
from django.db import connection
from django.utils import timezone

from labeling.models import Annotation, LabelAction, LabelHistory, Resolution
from labeling.pg.rows_insert import _array_types, insert_rows, json_value, time_value
from labeling.pg.writes_joined import write

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


def draft_coalesce_s() -> float:
    """Seconds within which a draft's changes of a step fold into one history row."""
    return float(getattr(settings, "LABEL_HISTORY_DRAFT_COALESCE_S", 30))


def label_history_write_draft(
    *,
    annotation: Annotation,
    user,
    before: Mapping[int, dict | None],
    after: Mapping[int, dict | None],
) -> None:
    """`label_history_write` for a draft save, coalesced (see the module's docstring).

    The caller holds the annotation's row lock (the draft's version bump), so no other save of
    it runs between the read of the latest rows and these writes. On PostgreSQL three
    statements joined with the draft's others (labeling.pg.writes_joined): they read one snapshot,
    so each decides the same way which steps fold into their latest row."""
    changed = [
        step_id
        for step_id in sorted(set(before) | set(after))
        if before.get(step_id) != after.get(step_id)
    ]
    if not changed:
        return
    now = timezone.now()
    cutoff = now - timedelta(seconds=draft_coalesce_s())
    if connection.vendor != "postgresql":
        _coalesce_orm(annotation, user, changed, before, after, now=now, cutoff=cutoff)
        return
    table = LabelHistory._meta.db_table
    step_type, before_type, after_type = _array_types(
        connection.vendor, table, ("step_id", "before", "after")
    )
    values = (
        f"unnest(%s::{step_type}[], %s::{before_type}[], %s::{after_type}[]) "
        "AS v(step_id, before, after)"
    )
    arrays = [
        changed,
        [json_value(before.get(step_id)) for step_id in changed],
        [json_value(after.get(step_id)) for step_id in changed],
    ]
    # The latest row of each changed step, and whether a draft's change folds into it.
    latest = (
        f"(SELECT DISTINCT ON (step_id) id, step_id, before, "
        f"(action = %s AND user_id = %s AND at >= %s) AS fold FROM {table} "
        f"WHERE annotation_id = %s AND step_id = ANY(%s) ORDER BY step_id, id DESC) AS l"
    )
    user_id = user.pk if getattr(user, "pk", None) else None
    latest_params = [LabelAction.DRAFT, user_id, time_value(cutoff), annotation.pk, changed]
    at = time_value(now)
    # Changed back to what it was before the window's first change: no change at all.
    write(
        f"DELETE FROM {table} AS h USING {latest} JOIN {values} ON v.step_id = l.step_id "
        "WHERE h.id = l.id AND l.fold AND l.before IS NOT DISTINCT FROM v.after",
        [*latest_params, *arrays],
    )
    write(
        f"UPDATE {table} AS h SET after = v.after, at = %s FROM {latest} "
        f"JOIN {values} ON v.step_id = l.step_id "
        "WHERE h.id = l.id AND l.fold AND l.before IS DISTINCT FROM v.after",
        [at, *latest_params, *arrays],
    )
    write(
        f"INSERT INTO {table} (annotation_id, resolution_id, solution_id, step_id, user_id, "
        f"action, before, after, at) SELECT %s, NULL, %s, v.step_id, %s, %s, v.before, "
        f"v.after, %s FROM {values} WHERE NOT EXISTS (SELECT 1 FROM {latest} "
        "WHERE l.step_id = v.step_id AND l.fold)",
        [
            annotation.pk,
            annotation.solution_id,
            user_id,
            LabelAction.DRAFT,
            at,
            *arrays,
            *latest_params,
        ],
    )


def _coalesce_orm(annotation, user, changed, before, after, *, now, cutoff) -> None:
    """The same on other databases (SQLite for local use), through the ORM."""
    latest: dict[int, LabelHistory] = {}
    rows = LabelHistory.objects.filter(annotation=annotation, step_id__in=changed).order_by("id")
    for row in rows.only("id", "step_id", "before", "action", "user_id", "at"):
        latest[row.step_id] = row
    user_id = user.pk if getattr(user, "pk", None) else None
    new = []
    for step_id in changed:
        row = latest.get(step_id)
        if row and row.action == LabelAction.DRAFT and row.user_id == user_id and row.at >= cutoff:
            if row.before == after.get(step_id):
                row.delete()
            else:
                LabelHistory.objects.filter(pk=row.pk).update(after=after.get(step_id), at=now)
            continue
        new.append(
            LabelHistory(
                annotation=annotation,
                solution_id=annotation.solution_id,
                step_id=step_id,
                user_id=user_id,
                action=LabelAction.DRAFT,
                before=before.get(step_id),
                after=after.get(step_id),
            )
        )
    LabelHistory.objects.bulk_create(new)
