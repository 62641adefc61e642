"""labeling.compiled: statements built once with stand-ins, run with real values."""

from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from labeling.compiled import compile_once
from labeling.models import TaskLock
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
