"""Writing an annotator's labels: autosaved drafts, submission, skip.

Every write names the version it read (optimistic concurrency): the version check and the
increment are one conditional UPDATE, so of two tabs saving at once exactly one wins and the
other gets a Conflict instead of silently overwriting.

Writes are idempotent when the client names them: a `request_id` (a UUID the client makes once
per logical write and reuses on every retry of it) is stored with the write it applied. A retry
whose response was lost (connection reset, proxy timeout) arrives with the old version; if its
request id is the annotation's last applied one, nothing is applied and the caller gets the
annotation as it is, which is what the lost success answered. Without a request id nothing
changes: a stale version is a Conflict.
"""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any
from uuid import UUID

from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from labeling.errors import Conflict, Missing, NotAllowed, ValidationFailed
from labeling.importers.dependencies import uses_normal, uses_problem
from labeling.models import (
    Annotation,
    AnnotationStatus,
    FinishReason,
    LabelAction,
    Project,
    StepLabel,
)
from labeling.pg.compiled import hot_cursor
from labeling.pg.db_retry import retry_on_conflict
from labeling.pg.rows_insert import insert_rows, json_value
from labeling.pg.writes_joined import writes_joined
from labeling.services.gold.pace import answers_bump
from labeling.services.labeling.history import (
    LABEL_FIELDS,
    USES_FIELD,
    label_history_write,
    label_history_write_draft,
    label_state,
)
from labeling.services.labeling.solution_state import SolutionState, solution_state
from labeling.services.labeling.submission_count import submission_count
from labeling.services.projects.metrics_version import (
    metrics_version_bump,
    metrics_version_bump_of_solution,
)
from labeling.services.queue.claim import task_lock_extend, task_release
from labeling.services.queue.take import holders_expression
from labeling.services.review.resolutions import resolution_auto
from labeling.services.webhooks.events import annotation_submitted_emit
from labeling.steps.payload import shown_record


@dataclass(frozen=True)
class LabelInput:
    step_id: int
    rating: int | None = None
    unsure: bool = False
    comment: str = ""
    alternative_text: str = ""
    # The earlier steps (0-based indices) the annotator marked this step as using; None: none
    # marked (the step's imported or detected `uses` stand).
    uses: list[int] | None = None


def _labels_from(raw: Iterable[Mapping | LabelInput]) -> list[LabelInput]:
    return [item if isinstance(item, LabelInput) else LabelInput(**item) for item in raw]


def _check_owner(annotation: Annotation, user) -> None:
    if annotation.annotator_id != user.pk:
        raise NotAllowed("This annotation belongs to another annotator.")


def _check_editable(annotation: Annotation, user) -> None:
    _check_owner(annotation, user)
    if annotation.status != AnnotationStatus.DRAFT:
        raise Conflict(
            f"This annotation is already {annotation.status}.",
            status=annotation.status,
            current_version=annotation.version,
        )


def _replayed(
    *,
    annotation: Annotation,
    user,
    request_id: UUID | None,
    leaves: Iterable[str],
    locked: SolutionState | None = None,
) -> Annotation | None:
    """The annotation as it is now if `request_id` is the write it last applied, else None.

    `leaves` are the statuses this kind of write leaves behind: an id that a client reused for
    another kind of write (a draft save's id on a submit) is not a replay, and the write runs.
    Locks the annotation row (callers that also lock the solution lock it first, the order every
    writer uses): a retry that arrives while its original is still committing waits for that
    commit and then sees the id, instead of failing the version check with a false Conflict.
    `locked`: a `solution_state(..., lock=True)` that already read and locked it.
    """
    if request_id is None:
        return None
    _check_owner(annotation, user)
    if locked is not None:
        last, status = locked.annotation_row
    else:
        sql = "SELECT last_request_id, status FROM labeling_annotation WHERE id = %s"
        if connection.features.has_select_for_update:
            sql += " FOR UPDATE"  # SQLite: the IMMEDIATE transaction serializes writers
        with hot_cursor() as cursor:
            cursor.execute(sql, [annotation.pk])
            row = cursor.fetchone()
        if row is None:  # deleted since the caller read it (a purge, a discard)
            raise Missing("Not found.")
        last, status = row
    # psycopg answers a UUID, SQLite its 32 hex digits.
    if last is not None and UUID(str(last)) == request_id and status in leaves:
        return Annotation.objects.get(pk=annotation.pk)  # a retry: rare, the whole row
    return None


def _bump_version(
    annotation: Annotation,
    version: int,
    *,
    request_id: UUID | None,
    holders_below: int | None = None,
    **fields: object,
) -> None:
    """Apply `fields` if `version` is current; records `request_id` as the last applied write.
    The instance then holds what the row holds (no re-read needed). `holders_below` (a
    submit): the same statement counts the solution's other overlap holders, and a Conflict
    follows when they are not below it (the caller's transaction then undoes the UPDATE)."""
    now = timezone.now()
    holders = None
    if holders_below is not None:
        holders = holders_expression(
            annotation.solution_id, exclude_user_id=annotation.annotator_id, now=now
        )
    updated, count = _update_if_version(
        annotation.pk,
        version,
        {"updated_at": now, "last_request_id": request_id, **fields},
        returning=holders,
    )
    if not updated:
        current = Annotation.objects.filter(pk=annotation.pk).values_list("version", flat=True)
        raise Conflict(
            "This solution was changed in another tab or window. Reload to get the latest "
            "version; your change was not saved over it.",
            current_version=current.first(),
        )
    if holders_below is not None and count >= holders_below:
        raise Conflict(
            "This solution already has all the labels it needs (your claim expired). "
            "Your draft is kept.",
            field="solution",
        )
    fields.update(version=version + 1, updated_at=now, last_request_id=request_id)
    for name, value in fields.items():
        setattr(annotation, name, value)


def _update_if_version(
    annotation_id: int,
    version: int,
    fields: Mapping[str, object],
    *,
    returning: tuple[str, list] | None = None,
) -> tuple[bool, object]:
    """UPDATE the annotation's `fields` and increment its version where the version is still
    `version`: (whether it did, and the value of the `returning` expression then). Written
    directly, with each field's own conversion to the database's form: every draft save and
    submit runs it."""
    quote = connection.ops.quote_name
    columns, params = [], []
    for name, value in fields.items():
        field = Annotation._meta.get_field(name)
        columns.append(f"{quote(field.column)} = %s")
        params.append(field.get_db_prep_save(value, connection))
    sql = (
        f"UPDATE {quote(Annotation._meta.db_table)} SET {quote('version')} = "
        f"{quote('version')} + 1, {', '.join(columns)} WHERE {quote('id')} = %s "
        f"AND {quote('version')} = %s"
    )
    params += [annotation_id, version]
    expression, extra = returning or ("1", [])
    with hot_cursor() as cursor:
        cursor.execute(f"{sql} RETURNING {expression}", [*params, *extra])
        row = cursor.fetchone()
    return row is not None, row and row[0]


def _write_labels(
    annotation: Annotation,
    labels: list[LabelInput],
    project: Project,
    *,
    user,
    action: str,
    state: SolutionState,
) -> None:
    """Replace the annotation's labels; one LabelHistory row per label that changes.
    `state`: the solution's steps and the annotation's stored labels (`solution_state`).

    Leaves the labels as stored, in step order, in `annotation.written_labels` (what
    labeling.selectors.labeling_page.annotation_payload answers with, without reading them back)."""
    steps, before = state.steps, state.labels
    step_ids = dict(steps)  # step id -> index
    allowed = set(project.rating_values)
    seen: set[int] = set()
    for i, label in enumerate(labels):
        if label.step_id not in step_ids:
            raise ValidationFailed(
                f"labels[{i}]: step {label.step_id} is not a step of this solution.",
                field=f"labels[{i}].step_id",
            )
        if label.step_id in seen:
            raise ValidationFailed(
                f"labels[{i}]: step {label.step_id} is labeled twice.", field=f"labels[{i}]"
            )
        seen.add(label.step_id)
        if label.rating is not None and label.rating not in allowed:
            raise ValidationFailed(
                f"labels[{i}]: rating {label.rating} is not on this project's scale "
                f"{sorted(allowed)}.",
                field=f"labels[{i}].rating",
            )
        if label.uses is not None:
            index = step_ids[label.step_id]
            if why := uses_problem(label.uses, index, len(steps)):
                raise ValidationFailed(
                    f"labels[{i}].uses: {why}.", field=f"labels[{i}].uses", step_index=index
                )
            labels[i] = replace(label, uses=uses_normal(label.uses))
    after = {label.step_id: label_state(label.__dict__) for label in labels}
    if action == LabelAction.DRAFT:  # autosave: coalesced, so rapid saves stay few rows
        label_history_write_draft(annotation=annotation, user=user, before=before, after=after)
    else:
        label_history_write(
            annotation=annotation,
            solution_id=annotation.solution_id,
            user=user,
            action=action,
            before=before,
            after=after,
        )
    if set(before) - seen:
        StepLabel.objects.filter(annotation=annotation).exclude(step_id__in=seen).delete()
    insert_rows(
        StepLabel._meta.db_table,
        ("annotation_id", "step_id", *LABEL_FIELDS, USES_FIELD),
        [
            (
                annotation.pk,
                label.step_id,
                label.rating,
                label.unsure,
                label.comment,
                label.alternative_text,
                json_value(label.uses),
            )
            for label in labels
        ],
        conflict=("annotation_id", "step_id"),
        update=(*LABEL_FIELDS, USES_FIELD),
    )
    annotation.written_labels = [
        {"step_id": step_id, USES_FIELD: None, **after[step_id]}
        for step_id, _ in steps
        if step_id in after
    ]


@retry_on_conflict
@transaction.atomic
def annotation_save_draft(
    *,
    annotation: Annotation,
    user,
    version: int,
    labels: Iterable[Mapping | LabelInput],
    time_spent_ms: int | None = None,
    request_id: UUID | None = None,
) -> Annotation:
    """Autosave: replace the draft's labels if `version` is current; extends the user's lock.

    A retry of the save last applied (same `request_id`) changes nothing and returns the draft.
    """
    replayed = _replayed(
        annotation=annotation, user=user, request_id=request_id, leaves=[AnnotationStatus.DRAFT]
    )
    if replayed is not None:
        return replayed
    _check_editable(annotation, user)
    project = annotation.solution.project
    extra = {} if time_spent_ms is None else {"time_spent_ms": max(0, int(time_spent_ms))}
    _bump_version(annotation, version, request_id=request_id, **extra)
    # Read after the bump: the annotation's row is this transaction's now, its labels too.
    state = solution_state(
        solution_id=annotation.solution_id, annotation_id=annotation.pk, lock=False
    )
    with writes_joined():  # one statement on PostgreSQL: history, labels, the lock extended
        _write_labels(
            annotation,
            _labels_from(labels),
            project,
            user=user,
            action=LabelAction.DRAFT,
            state=state,
        )
        task_lock_extend(annotation=annotation, project=project)
    return annotation


def _check_complete(
    *,
    labels: list[LabelInput],
    project: Project,
    ordered: list[tuple[int, int]],
    finish_reason: str,
) -> str:
    """Validate a submission against the solution's (step id, index) pairs in order and
    return its finish reason (found_error when it stopped)."""
    by_step = {label.step_id: label for label in labels}
    if finish_reason in (FinishReason.GIVE_UP, FinishReason.BAD_PROBLEM):
        return finish_reason
    for step_id, index in ordered:
        label = by_step.get(step_id)
        rating = label.rating if label else None
        if rating is None:
            raise ValidationFailed(
                f"Step {index + 1} has no rating.", field="labels", step_index=index
            )
        if rating == -1 and project.first_error_mode:
            return FinishReason.FOUND_ERROR
    if finish_reason == FinishReason.FOUND_ERROR and not any(
        (by_step.get(step_id) or LabelInput(step_id)).rating == -1 for step_id, _ in ordered
    ):
        raise ValidationFailed("found_error needs a step rated wrong (−1).", field="finish_reason")
    return finish_reason


def annotation_submit_within(
    *,
    annotation: Annotation,
    user,
    version: int,
    labels: Iterable[Mapping | LabelInput],
    finish_reason: str = FinishReason.SOLUTION,
    finish_reason_text: str = "",
    time_spent_ms: int | None = None,
    request_id: UUID | None = None,
) -> Annotation:
    """Submit an annotation; it then counts toward the solution's overlap.

    Locks the solution row first so that the overlap check and the counter increment are not
    raced by another submitter. A submitter whose lock expired while others filled the overlap
    gets a Conflict and keeps the draft: nothing they labeled is lost. A retry of the submit
    that was applied (same `request_id`) returns the submitted annotation; it is counted once.
    """
    _check_owner(annotation, user)
    locked = solution_state(
        solution_id=annotation.solution_id,
        annotation_id=annotation.pk,
        lock=True,
    )
    # A reviewer may have rejected it since: the submit was still applied.
    replayed = _replayed(
        annotation=annotation,
        user=user,
        request_id=request_id,
        leaves=[AnnotationStatus.SUBMITTED, AnnotationStatus.REJECTED],
        locked=locked,
    )
    if replayed is not None:
        return replayed
    _check_editable(annotation, user)
    project = annotation.solution.project
    solution_id = annotation.solution_id
    parsed, reason = checked_submission(
        labels=labels,
        project=project,
        steps=locked.steps,
        finish_reason=finish_reason,
        finish_reason_text=finish_reason_text,
    )
    extra = {} if time_spent_ms is None else {"time_spent_ms": max(0, int(time_spent_ms))}
    now = timezone.now()
    # The solution's effective overlap: its project's plus its own extra (a requeue's).
    overlap = project.overlap + locked.extra_overlap
    _bump_version(
        annotation,
        version,
        request_id=request_id,
        # Gold questions have no overlap: everyone answers them. The count runs in the
        # UPDATE, after the solution's row lock, so it sees every submission committed before.
        holders_below=None if locked.is_gold else overlap,
        status=AnnotationStatus.SUBMITTED,
        finish_reason=reason,
        finish_reason_text=finish_reason_text.strip(),
        submitted_at=now,
        **extra,
    )
    # One statement on PostgreSQL: history, labels, the lock dropped and the count.
    with writes_joined():
        _write_labels(
            annotation,
            parsed,
            project,
            user=user,
            action=LabelAction.SUBMIT,
            state=locked,
        )
        task_release(solution_id=solution_id, user=user)
        metrics_version_bump(project_id=project.pk, solution_id=solution_id)
        submission_count(
            solution_id=solution_id,
            annotation_id=annotation.pk,
            overlap=overlap,
            unsure=any(label.unsure for label in parsed),
            plus_steps=[label.step_id for label in parsed if label.rating == 1],
        )
    answers_bump(project=project, user_id=user.pk, by=1, gold=locked.is_gold)
    annotation_submitted_emit(project, annotation, user, finish_reason=reason, submitted_at=now)
    # Same transaction, solution row still locked: the k-th agreeing submission resolves it.
    if project.auto_resolve and not locked.is_gold:
        resolution_auto(solution_id=solution_id)
        annotation.refresh_from_db()
    return annotation


def checked_submission(
    *, labels: list[dict], project, steps, finish_reason: str, finish_reason_text: str
) -> tuple[Any, str]:
    """A submit's (or resubmit's) labels parsed and its finish reason checked against the
    steps: (parsed labels, the finish reason to store); ValidationFailed naming the field."""
    parsed = _labels_from(labels)
    if finish_reason not in FinishReason.values:
        raise ValidationFailed(f"Unknown finish reason {finish_reason!r}.", field="finish_reason")
    if finish_reason in (FinishReason.GIVE_UP, FinishReason.BAD_PROBLEM) and not (
        finish_reason_text.strip()
    ):
        raise ValidationFailed("Say why: a reason is required.", field="finish_reason_text")
    reason = _check_complete(
        labels=parsed, project=project, ordered=steps, finish_reason=finish_reason
    )
    return parsed, reason


@retry_on_conflict
@transaction.atomic
def annotation_submit(**fields) -> Annotation:
    """`annotation_submit_within` in a transaction of its own (a submit that asks for the next
    task runs it in the claim's: labeling.services.labeling.next_task)."""
    return annotation_submit_within(**fields)


@retry_on_conflict
@transaction.atomic
def annotation_skip(*, annotation: Annotation, user, request_id: UUID | None = None) -> Annotation:
    """Put the solution back for others; the skipper sees it again only after everything else.

    Labels of a skipped draft are kept on the discarded annotation, never deleted. A retry of
    the skip that was applied (same `request_id`) returns the discarded annotation.
    """
    replayed = _replayed(
        annotation=annotation, user=user, request_id=request_id, leaves=[AnnotationStatus.DISCARDED]
    )
    if replayed is not None:
        return replayed
    _check_editable(annotation, user)
    Annotation.objects.filter(pk=annotation.pk).update(
        status=AnnotationStatus.DISCARDED,
        updated_at=timezone.now(),
        version=F("version") + 1,
        last_request_id=request_id,
    )
    task_release(solution_id=annotation.solution_id, user=user)
    metrics_version_bump_of_solution(solution_id=annotation.solution_id)  # annotators' skips
    annotation.refresh_from_db()
    return annotation


def annotation_record_shown(*, annotation: Annotation, task: Mapping) -> None:
    """Remember which suggestions the labeling page showed with this annotation."""
    shown = shown_record(task["solution"]["steps"])
    if shown != annotation.shown_suggestions and annotation.status == AnnotationStatus.DRAFT:
        with hot_cursor() as cursor:  # every claim: no ORM update to build
            cursor.execute(
                "UPDATE labeling_annotation SET shown_suggestions = %s WHERE id = %s",
                [json_value(shown), annotation.pk],
            )
        annotation.shown_suggestions = shown
