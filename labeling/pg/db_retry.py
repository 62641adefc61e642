"""Run a write again when PostgreSQL aborted it for a deadlock or a serialization failure.

PostgreSQL breaks a deadlock by aborting one of the transactions in it (SQLSTATE 40P01) and
aborts a transaction that could not be serialized (40001). Both mean "nothing of yours was
written; the same work may well succeed now", unlike the other OperationalErrors (the
database is down: 503 `database_unavailable`). `retry_on_conflict` runs the whole atomic
block again, a bounded number of times with jittered backoff, and only for those two codes.

A transaction can only be retried from outside it: inside an outer `atomic` the aborted
transaction is the caller's, so the decorated function runs once and the error goes up to
whoever opened that transaction (or to the API's handler: 503 `conflict_retry`).
"""

from __future__ import annotations

import functools
import logging
import random
import time
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from django.db import OperationalError, connection
from django.db.models import Model

log = logging.getLogger(__name__)

P = ParamSpec("P")
R = TypeVar("R")

DEADLOCK = "40P01"
SERIALIZATION_FAILURE = "40001"
RETRYABLE = frozenset({DEADLOCK, SERIALIZATION_FAILURE})
ATTEMPTS = 3  # the first run and two retries
BASE_DELAY_S = 0.05
MAX_DELAY_S = 0.5


def sqlstate(exc: BaseException) -> str | None:
    """The SQLSTATE of a database error (psycopg's error is the cause of Django's)."""
    for err in (exc, exc.__cause__):
        code = getattr(err, "sqlstate", None) or getattr(err, "pgcode", None)
        if code:
            return str(code)
    return None


def is_conflict(exc: BaseException) -> bool:
    """A deadlock or serialization failure: retrying the transaction may succeed."""
    return isinstance(exc, OperationalError) and sqlstate(exc) in RETRYABLE


def backoff_s(attempt: int, *, rng: random.Random | None = None) -> float:
    """Full jitter: uniform in [0, min(MAX, BASE * 2**attempt)], so the transactions that
    deadlocked together do not all come back at the same instant and deadlock again."""
    cap = min(MAX_DELAY_S, BASE_DELAY_S * 2**attempt)
    return (rng or random).uniform(0, cap)


def retry_on_conflict(
    fn: Callable[P, R] | None = None,
    *,
    attempts: int = ATTEMPTS,
    sleep: Callable[[float], None] = time.sleep,
) -> Callable[P, R] | Callable[[Callable[P, R]], Callable[P, R]]:
    """Decorate a service whose body is one `transaction.atomic` (put this decorator outside
    `@transaction.atomic`). It must be safe to run again from the start: nothing it did in the
    aborted transaction survived, and it does nothing outside the database before committing
    (`on_commit` callbacks of an aborted transaction are dropped)."""

    def decorate(func: Callable[P, R]) -> Callable[P, R]:
        @functools.wraps(func)
        def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
            if connection.in_atomic_block:
                return func(*args, **kwargs)  # the caller's transaction: only it can retry
            # Services set fields of the instances they get as they write (a version, a
            # status); a retry starts from the instances as the caller passed them.
            models = [v for v in (*args, *kwargs.values()) if isinstance(v, Model)]
            saved = [dict(m.__dict__) for m in models]
            for attempt in range(attempts):
                if attempt:
                    for model, state in zip(models, saved, strict=True):
                        model.__dict__.clear()
                        model.__dict__.update(state)
                try:
                    return func(*args, **kwargs)
                except OperationalError as exc:
                    if not is_conflict(exc) or attempt == attempts - 1:
                        raise
                    delay = backoff_s(attempt)
                    log.info(
                        "%s: %s, retry %d/%d in %.3fs",
                        func.__qualname__,
                        sqlstate(exc),
                        attempt + 1,
                        attempts - 1,
                        delay,
                    )
                    sleep(delay)
            raise AssertionError("unreachable")  # pragma: no cover

        return wrapper

    if fn is not None:
        return decorate(fn)
    return decorate
