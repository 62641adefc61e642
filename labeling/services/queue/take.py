"""Taking a row-locked solution for a user: the overlap check, the user's lock and a new
annotation (labeling.services.queue.claim decides which solution; this writes the claim).

The overlap checked is the solution's effective one: its project's overlap plus its own
`extra_overlap` (labeling.rules.overlap), which the caller read with the row lock (the
locking read returns the row's latest version, and nobody changes it while it is held), so the
claim's statement does not look the row up again.

On PostgreSQL the three are one statement (`claim_take`); its snapshot is taken after the
solution's row lock, so it counts every holder that committed before (READ COMMITTED takes
a snapshot per statement).
"""

import json
from dataclasses import dataclass
from datetime import timedelta

from django.contrib.auth.models import AbstractBaseUser
from django.db import connection

from labeling.models import Annotation, AnnotationStatus, Project, TaskLock
from labeling.pg.compiled import Compiled, compile_insert_once, compile_once, hot_cursor
from labeling.pg.rows_insert import insert_rows, time_value
from labeling.steps.payload import SHOWN_SQL


@dataclass(frozen=True)
class Claim:
    annotation: Annotation
    lock: TaskLock
    created: bool = False  # a new, empty annotation (not a resumed draft)


_HOLDS = "(a.status = %s OR (a.status = %s AND a.revises_id IS NOT NULL))"
_HOLDERS_SQL = f"""
  ((SELECT COUNT(*) FROM labeling_annotation a
    WHERE a.solution_id = %s AND a.annotator_id <> %s AND {_HOLDS})
+ (SELECT COUNT(*) FROM labeling_tasklock l
    WHERE l.solution_id = %s AND l.user_id <> %s AND l.expires_at > %s
      AND NOT EXISTS (SELECT 1 FROM labeling_annotation a
        WHERE a.solution_id = l.solution_id AND a.annotator_id = l.user_id AND {_HOLDS})))"""
_SLOTS_SQL = f"""
SELECT {_HOLDERS_SQL},
  EXISTS (SELECT 1 FROM labeling_annotation a
    WHERE a.solution_id = %s AND a.annotator_id = %s AND a.status <> %s)
"""


def holders_expression(solution_id: int, *, exclude_user_id: int, now) -> tuple[str, list]:
    """`overlap_holders` as an SQL expression and its parameters, for a statement that has
    more to do (a submit's version UPDATE answers it: labeling.services.labeling.annotations)."""
    holds = [AnnotationStatus.SUBMITTED, AnnotationStatus.DRAFT]
    params = [solution_id, exclude_user_id, *holds, solution_id, exclude_user_id, now, *holds]
    return _HOLDERS_SQL, params


def _slots_params(solution_id, *, user_id, now) -> list:
    """_SLOTS_SQL's parameters (stand-ins too, when a statement that holds it is compiled)."""
    _, params = holders_expression(solution_id, exclude_user_id=user_id, now=now)
    return [*params, solution_id, user_id, AnnotationStatus.DISCARDED]


def _slots(solution_id: int, *, user_id: int, now) -> tuple[int, bool]:
    """(holders, mine) in one statement: the annotators counted against overlap other than
    the user (submitted ones, rework drafts, which keep a rejected submission's slot for its
    annotator, and live lock holders without either), and whether the user has a live
    (not skipped) annotation of the solution."""
    with hot_cursor() as cursor:
        cursor.execute(_SLOTS_SQL, _slots_params(solution_id, user_id=user_id, now=now))
        holders, mine = cursor.fetchone()
    return holders, bool(mine)


def overlap_holders(solution_id: int, *, exclude_user_id: int, now) -> int:
    """Annotators counted against overlap, minus one user: submitted ones, rework drafts
    (a rejected submission's slot stays reserved for its annotator) and live lock holders."""
    return _slots(solution_id, user_id=exclude_user_id, now=now)[0]


def lock_take(*, solution_id: int, user: AbstractBaseUser, ttl: int, now) -> TaskLock:
    """Take or extend the user's lock on the solution: one upsert."""
    lock = TaskLock(solution_id=solution_id, user=user, expires_at=now + timedelta(seconds=ttl))
    insert_rows(
        TaskLock._meta.db_table,
        ("solution_id", "user_id", "expires_at", "created_at"),
        [(solution_id, user.pk, time_value(lock.expires_at), time_value(now))],
        conflict=("solution_id", "user_id"),
        update=("expires_at",),
    )
    return lock


def _annotation_insert() -> Compiled:
    """The INSERT ... RETURNING id of a claim's new annotation, compiled once."""
    return compile_insert_once(
        ("new annotation",),
        Annotation,
        lambda s: Annotation(
            solution_id=s["solution"],
            annotator_id=s["user"],
            created_at=s["now"],
            updated_at=s["now"],
        ),
        ints=("solution", "user"),
        times=("now",),
    )


def annotation_new(*, solution_id: int, user: AbstractBaseUser, now) -> Annotation:
    """`Annotation.objects.create(solution_id=..., annotator=user)`, its INSERT compiled once
    (every claim makes one; the ORM's save path cost about 1.3 ms of CPU here, the statement a
    fraction of that)."""
    if not connection.features.can_return_columns_from_insert:
        return Annotation.objects.create(solution_id=solution_id, annotator=user)
    statement = _annotation_insert()
    with hot_cursor() as cursor:
        statement.execute(cursor, {"solution": solution_id, "user": user.pk, "now": now})
        (pk,) = cursor.fetchone()
    return _annotation_made(pk, solution_id, user, now)


def _annotation_made(pk: int, solution_id: int, user: AbstractBaseUser, now) -> Annotation:
    """The instance of the annotation a claim's INSERT just made (its other fields at their
    defaults, as the INSERT wrote them)."""
    annotation = Annotation(
        pk=pk, solution_id=solution_id, annotator=user, created_at=now, updated_at=now
    )
    annotation._state.adding = False
    annotation._state.db = connection.alias
    return annotation


def claim_take(
    solution_id: int, *, extra_overlap: int, project: Project, user: AbstractBaseUser, now
) -> Claim | None:
    """Claim the row-locked solution if its slots allow (`_slots`): the user's lock and a new
    annotation; None when others fill its effective overlap (the project's plus the locked
    row's `extra_overlap`) or the user has it already. On PostgreSQL one statement
    (`_take_sql`); its snapshot is taken after the row lock, as `_slots`' is."""
    ttl = project.lock_ttl_seconds
    overlap = project.overlap + extra_overlap
    if connection.vendor != "postgresql":
        holders, mine = _slots(solution_id, user_id=user.pk, now=now)
        if holders >= overlap or mine:
            return None
        lock = lock_take(solution_id=solution_id, user=user, ttl=ttl, now=now)
        annotation = annotation_new(solution_id=solution_id, user=user, now=now)
        return Claim(annotation=annotation, lock=lock, created=True)
    show = project.show_suggestions
    statement = compile_once(
        ("take", show),
        lambda s: _take_sql(s, show=show),
        ints=("solution", "user", "overlap", "ttl"),
        times=("now",),
    )
    values = {
        "solution": solution_id,
        "user": user.pk,
        "overlap": overlap,
        "ttl": ttl,
        "now": now,
    }
    with hot_cursor() as cursor:
        statement.execute(cursor, values)
        pk, shown = cursor.fetchone()
    if pk is None:
        return None
    lock = TaskLock(solution_id=solution_id, user=user, expires_at=now + timedelta(seconds=ttl))
    annotation = _annotation_made(pk, solution_id, user, now)
    annotation.shown_suggestions = json.loads(shown)  # jsonb arrives as text (Django's loader)
    return Claim(annotation=annotation, lock=lock, created=True)


def _take_sql(s: dict, *, show: bool) -> tuple[str, list]:
    """`_slots`, `lock_take` and `annotation_new` as one statement (PostgreSQL): the lock is
    upserted and the annotation inserted only where the slots allow; answers the new
    annotation's id (NULL: not claimed) and its shown suggestions (`show`: the project shows
    them; else none). Those are recorded by the INSERT as the page's read will find them
    (labeling.steps.payload.SHOWN_SQL), so the claim sends no UPDATE after that read
    (labeling.services.labeling.annotations.annotation_record_shown: only if one
    changed between)."""
    slots_params = _slots_params(s["solution"], user_id=s["user"], now=s["now"])
    insert = _annotation_insert()
    head, values = insert.sql.split(" VALUES (", 1)
    values = values.rsplit(") RETURNING ", 1)[0].split(", ")
    insert_params = insert.bind(s)
    columns = head.split(" (", 1)[1].rstrip(")").split(", ")
    if show:  # the default's placeholder becomes the subquery
        at = columns.index('"shown_suggestions"')
        assert values[at] == "%s"
        values[at], insert_params[at] = SHOWN_SQL, s["solution"]
    sql = (
        f"WITH slots (holders, mine) AS ({_SLOTS_SQL}), "
        "taken AS (INSERT INTO labeling_tasklock (solution_id, user_id, expires_at, created_at) "
        "SELECT %s, %s, %s + %s::float8 * interval '1 second', %s FROM slots "
        "WHERE holders < %s AND NOT mine "
        "ON CONFLICT (solution_id, user_id) DO UPDATE SET expires_at = excluded.expires_at "
        "RETURNING 1), "
        f"made AS ({head} SELECT {', '.join(values)} FROM taken "
        "RETURNING id, shown_suggestions) "
        "SELECT (SELECT id FROM made), (SELECT shown_suggestions FROM made)"
    )
    lock_params = [s["solution"], s["user"], s["now"], s["ttl"], s["now"], s["overlap"]]
    return sql, slots_params + lock_params + insert_params
