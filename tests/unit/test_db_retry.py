"""The retry policy of labeling.pg.db_retry: bounded, jittered, only deadlocks and serialization
failures, never from inside a caller's transaction; the API's answer once it gives up."""

import random

import psycopg.errors
import pytest
from django.db import OperationalError, transaction

from labeling.api.errors import exception_handler
from labeling.pg import db_retry
from labeling.pg.db_retry import backoff_s, is_conflict, retry_on_conflict
from tests.factories import ProjectFactory


def _db_error(cause: Exception) -> OperationalError:
    err = OperationalError(str(cause))
    err.__cause__ = cause
    return err


DEADLOCK = psycopg.errors.DeadlockDetected
SERIALIZATION = psycopg.errors.SerializationFailure


def _flaky(failures: list[Exception]):
    calls = {"n": 0}

    def fn() -> str:
        calls["n"] += 1
        if failures:
            raise _db_error(failures.pop(0))
        return "done"

    return fn, calls


@pytest.mark.parametrize("cause", [DEADLOCK, SERIALIZATION])
def test_a_conflict_is_retried_until_it_succeeds(cause):
    sleeps: list[float] = []
    fn, calls = _flaky([cause("x"), cause("x")])
    assert retry_on_conflict(fn, sleep=sleeps.append)() == "done"
    assert calls["n"] == 3
    assert len(sleeps) == 2 and all(0 <= s <= db_retry.MAX_DELAY_S for s in sleeps)


def test_retries_are_bounded_and_the_last_error_goes_up():
    sleeps: list[float] = []
    fn, calls = _flaky([DEADLOCK("x")] * 10)
    with pytest.raises(OperationalError) as raised:
        retry_on_conflict(fn, sleep=sleeps.append)()
    assert calls["n"] == db_retry.ATTEMPTS == 3
    assert len(sleeps) == 2
    assert is_conflict(raised.value)


@pytest.mark.parametrize(
    "cause",
    [psycopg.errors.AdminShutdown, psycopg.errors.LockNotAvailable, ConnectionError],
)
def test_other_database_errors_are_not_retried(cause):
    fn, calls = _flaky([cause("x"), cause("x")])
    with pytest.raises(OperationalError):
        retry_on_conflict(fn, sleep=lambda s: None)()
    assert calls["n"] == 1


def test_backoff_is_jittered_and_capped():
    rng = random.Random(7)
    first = [backoff_s(0, rng=rng) for _ in range(200)]
    assert all(0 <= d <= db_retry.BASE_DELAY_S for d in first)
    assert len({round(d, 6) for d in first}) > 150  # not one fixed delay
    late = [backoff_s(20, rng=rng) for _ in range(200)]
    assert max(late) <= db_retry.MAX_DELAY_S
    assert max(late) > db_retry.MAX_DELAY_S / 2


@pytest.mark.django_db
def test_inside_a_callers_transaction_it_runs_once():
    """The aborted transaction is the caller's: re-running the inner function could not undo
    what the outer one did, so the error goes up at once."""
    fn, calls = _flaky([DEADLOCK("x")])
    with pytest.raises(OperationalError), transaction.atomic():
        retry_on_conflict(fn, sleep=lambda s: None)()
    assert calls["n"] == 1


@pytest.mark.django_db(transaction=True)
def test_a_retry_starts_from_the_instances_as_passed():
    project = ProjectFactory(name="before")
    seen: list[str] = []

    @retry_on_conflict(sleep=lambda s: None)
    @transaction.atomic
    def rename(*, project):
        seen.append(project.name)
        project.name = "during"
        if len(seen) == 1:
            raise _db_error(DEADLOCK("x"))
        return project

    assert rename(project=project).name == "during"
    assert seen == ["before", "before"]


def test_the_api_answers_503_conflict_retry_with_retry_after():
    response = exception_handler(_db_error(DEADLOCK("x")), {})
    assert response.status_code == 503
    assert response.data["error"]["code"] == "conflict_retry"
    assert response["Retry-After"] == "1"
    down = exception_handler(_db_error(psycopg.errors.AdminShutdown("x")), {})
    assert down.data["error"]["code"] == "database_unavailable"
