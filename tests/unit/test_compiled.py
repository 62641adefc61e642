"""labeling.pg.compiled: statements built once with stand-ins, run with real values."""

from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from labeling.models import TaskLock
from labeling.pg.compiled import compile_once, hot_cursor
from tests.factories import SolutionFactory, UserFactory


def _live_locks(s: dict) -> tuple[str, list]:
    qs = TaskLock.objects.filter(
        solution_id=s["solution"], user_id=s["user"], expires_at__gt=s["now"]
    ).values_list("pk", flat=True)
    return qs.query.sql_with_params()


@pytest.mark.django_db
def test_a_compiled_statement_runs_with_the_real_values():
    solution = SolutionFactory()
    user, other = UserFactory(), UserFactory()
    now = timezone.now()
    live = TaskLock.objects.create(solution=solution, user=user, expires_at=now + timedelta(60))
    TaskLock.objects.create(solution=solution, user=other, expires_at=now - timedelta(1))
    statement = compile_once(
        ("test live locks",), _live_locks, ints=("solution", "user"), times=("now",)
    )
    assert compile_once(("test live locks",), _live_locks) is statement  # built once

    def run(**values) -> list[int]:
        with connection.cursor() as cursor:
            statement.execute(cursor, values)
            return [row[0] for row in cursor.fetchall()]

    assert run(solution=solution.pk, user=user.pk, now=now) == [live.pk]
    assert run(solution=solution.pk, user=other.pk, now=now) == []  # expired
    assert run(solution=solution.pk, user=other.pk, now=now - timedelta(2)) != []


def test_a_stand_in_written_into_the_sql_is_refused():
    def build(s: dict) -> tuple[str, list]:
        # A slice becomes LIMIT n in the SQL text: no parameter to swap.
        return TaskLock.objects.all()[: s["n"]].query.sql_with_params()

    with pytest.raises(ValueError, match="'n' is in the SQL"):
        compile_once(("test inlined",), build, ints=("n",))


@pytest.mark.django_db
def test_hot_statements_are_prepared_on_postgresql(settings):
    """Run often on one connection, a compiled statement is prepared once by psycopg and
    PostgreSQL no longer plans it per call (Django's own queries stay client-bound)."""
    if connection.vendor != "postgresql":
        pytest.skip("prepared statements are PostgreSQL's")
    solution = SolutionFactory()
    statement = compile_once(
        ("test prepared",), _live_locks, ints=("solution", "user"), times=("now",)
    )
    for _ in range(8):
        with hot_cursor() as cursor:
            statement.execute(cursor, {"solution": solution.pk, "user": 0, "now": timezone.now()})
            assert cursor.fetchall() == []
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cursor.fetchall()]
    assert any("labeling_tasklock" in sql and "$1" in sql for sql in prepared), prepared

    settings.PREPARED_STATEMENTS = False  # PgBouncer before 1.21: nothing new is prepared

    def ordered(s: dict) -> tuple[str, list]:
        sql, params = _live_locks(s)
        return sql + " ORDER BY 1", params

    other = compile_once(("test not prepared",), ordered, ints=("solution", "user"), times=("now",))
    for _ in range(8):
        with hot_cursor() as cursor:
            other.execute(cursor, {"solution": solution.pk, "user": 0, "now": timezone.now()})
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        assert not any("ORDER BY 1" in row[0] for row in cursor.fetchall())


@pytest.mark.django_db(transaction=True)
def test_hot_cursors_are_kept_per_connection_and_nested_uses_get_their_own():
    """The kept cursors (labeling.pg.compiled._hot_cursor_take): one reused from one use to the
    next, a second one for a use inside another, none carried over to a new connection, and
    the database's errors still raised as Django's."""
    if connection.vendor != "postgresql":
        pytest.skip("the kept server-binding cursors are PostgreSQL's")
    from django.db import IntegrityError

    with hot_cursor() as first:
        first.execute("SELECT 1")
        with hot_cursor() as inner:
            assert inner is not first
            inner.execute("SELECT 2")
            assert inner.fetchall() == [(2,)]
        assert first.fetchall() == [(1,)]  # the nested use did not touch its results
    with hot_cursor() as again:
        assert again in (first, inner)  # kept, not made anew
        again.execute("SELECT %s::int", [5])
        assert again.fetchall() == [(5,)]

    solution = SolutionFactory()
    # Django's error, as from connection.cursor()
    with pytest.raises(IntegrityError), hot_cursor() as cursor:
        cursor.execute(
            "INSERT INTO labeling_tasklock (solution_id, user_id, expires_at, created_at) "
            "VALUES (%s, %s, now(), now())",
            [solution.pk, 2_000_000_000],
        )
    with hot_cursor() as cursor:  # usable after the error
        cursor.execute("SELECT 3")
        assert cursor.fetchall() == [(3,)]

    connection.close()
    with hot_cursor() as fresh:  # reconnects, as connection.cursor() would
        assert fresh not in (first, inner)
        fresh.execute("SELECT 4")
        assert fresh.fetchall() == [(4,)]


@pytest.mark.django_db
def test_a_compiled_insert_writes_what_create_would():
    """The claim's new annotation (labeling.services.queue.take.annotation_new, compiled by
    compile_insert_once): the same row as Annotation.objects.create(), defaults included, and
    the instance it returns is the saved row."""
    from django.forms.models import model_to_dict

    from labeling.models import Annotation
    from labeling.services.queue.take import annotation_new as _annotation_new

    first, second = SolutionFactory(), SolutionFactory()
    user = UserFactory()
    now = timezone.now()
    made = [_annotation_new(solution_id=s.pk, user=user, now=now) for s in (first, second)]
    assert made[0].pk != made[1].pk and not made[0]._state.adding
    orm = Annotation.objects.create(solution=SolutionFactory(), annotator=user)

    def row(annotation) -> dict:
        fields = model_to_dict(Annotation.objects.get(pk=annotation.pk))
        return {k: v for k, v in fields.items() if k not in ("id", "solution")}

    assert row(made[0]) == row(orm) == row(made[1])
    stored = Annotation.objects.get(pk=made[1].pk)
    assert (stored.solution_id, stored.annotator_id) == (second.pk, user.pk)
    assert stored.created_at == stored.updated_at == now
    assert model_to_dict(stored) == model_to_dict(made[1])
