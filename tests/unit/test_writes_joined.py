"""labeling.pg.writes_joined: writes held back in a block go as one statement at its end
(PostgreSQL), in order, and are dropped when the block fails; elsewhere they run at once."""

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from labeling.models import TaskLock
from labeling.pg.writes_joined import write, write_counted, writes_joined
from tests.factories import SolutionFactory, UserFactory

pytestmark = pytest.mark.django_db

_LOCK = (
    "INSERT INTO labeling_tasklock (solution_id, user_id, expires_at, created_at) "
    "VALUES (%s, %s, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"
)
_DROP = "DELETE FROM labeling_tasklock WHERE solution_id = %s AND user_id = %s"


def _locks() -> set[tuple[int, int]]:
    return set(TaskLock.objects.values_list("solution_id", "user_id"))


def test_held_writes_go_as_one_statement_when_the_block_ends(on_postgres):
    solution, other = SolutionFactory(), SolutionFactory()
    user = UserFactory()
    with CaptureQueriesContext(connection) as sent:
        with writes_joined():
            write(_LOCK, [solution.pk, user.pk])
            write(_LOCK, [other.pk, user.pk])
            with writes_joined():  # nested: joins the outer block
                write(_DROP, [other.pk, user.pk])
            held = _locks()
        after = _locks()
    writes = [q["sql"] for q in sent.captured_queries if "labeling_tasklock (" in q["sql"]]
    if on_postgres:
        assert held == set()  # nothing sent before the block's end
        assert len(writes) == 1 and writes[0].startswith("WITH w0 AS (INSERT")
        # One snapshot: the DELETE did not see the row its sibling inserted.
        assert after == {(solution.pk, user.pk), (other.pk, user.pk)}
    else:
        assert len(writes) == 2  # run as they came
        assert held == after == {(solution.pk, user.pk)}


def test_a_failing_block_sends_nothing():
    solution, user = SolutionFactory(), UserFactory()
    with pytest.raises(RuntimeError), transaction.atomic(), writes_joined():
        write(_LOCK, [solution.pk, user.pk])
        raise RuntimeError("the service failed")
    assert _locks() == set()
    write(_LOCK, [solution.pk, user.pk])  # outside a block: at once
    assert _locks() == {(solution.pk, user.pk)}


def test_a_counted_write_goes_last_with_the_held_ones_and_answers_its_own_rows(on_postgres):
    solution, user = SolutionFactory(), UserFactory()
    with CaptureQueriesContext(connection) as sent, writes_joined():
        write(_LOCK, [solution.pk, user.pk])
        changed = write_counted(
            "UPDATE labeling_solution SET submitted_count = submitted_count + 1 WHERE id = %s",
            [solution.pk],
        )
        assert _locks() == {(solution.pk, user.pk)}  # sent with it
    assert changed == 1
    statements = [q["sql"] for q in sent.captured_queries if "labeling_tasklock (" in q["sql"]]
    assert len(statements) == 1
    assert statements[0].startswith("WITH w0 AS (INSERT") == on_postgres
    solution.refresh_from_db()
    assert solution.submitted_count == 1
