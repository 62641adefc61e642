"""The health check of annotate/db/postgresql: no `SELECT 1` on a connection that served a
request a moment ago, the full check after an idle second; a connection the server ended (a
restart, a terminated backend) is replaced before the request's first query, and one that broke
with nothing said is replaced after the one request that met it."""

import time

import psycopg
import pytest
from django.db import OperationalError, connection, connections

from annotate.db.postgresql import base

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def pings(monkeypatch) -> list[bool]:
    """Every round-trip health check (`is_usable`) the connection runs, with its answer."""
    calls: list[bool] = []
    real = connection.is_usable

    def counted() -> bool:
        calls.append(real())
        return calls[-1]

    monkeypatch.setattr(connection, "is_usable", counted)
    return calls


def _request() -> int:
    """One request's life as Django runs it: close_old_connections as it begins, a query, and
    close_old_connections as it ends."""
    connection.close_if_unusable_or_obsolete()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (pid,) = cursor.fetchone()
    connection.close_if_unusable_or_obsolete()
    return pid


def test_a_busy_connection_is_not_pinged_and_an_idle_one_is(pings, monkeypatch):
    assert connection.vendor == "postgresql" and connection.health_check_enabled
    first = _request()
    pings.clear()
    assert _request() == first  # reused, no round trip before its query
    assert pings == []

    # every gap counts as idle
    monkeypatch.setattr(type(connections["default"]), "IDLE_CHECK_S", 0.0)
    assert _request() == first
    assert pings == [True]


def _terminate(pid: int) -> None:
    """End the backend behind the connection, as a server shutdown does, and wait until it is
    gone (pg_terminate_backend only signals it)."""
    with psycopg.connect(**connection.get_connection_params(), autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])
        deadline = time.monotonic() + 10
        while other.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s", [pid]).fetchone():
            assert time.monotonic() < deadline
            time.sleep(0.02)


def test_a_connection_the_server_ended_is_replaced_before_the_request_meets_it(pings):
    first = _request()
    pings.clear()
    _terminate(first)
    # Busy, but the server said goodbye on the socket: the full check runs, fails, and the
    # request gets a new connection instead of a 503.
    assert _request() != first
    assert pings == [False]


def test_a_connection_that_broke_silently_fails_one_request_then_is_replaced(pings, monkeypatch):
    first = _request()
    _terminate(first)
    monkeypatch.setattr(base, "_has_input", lambda conn: False)  # a cut with nothing said
    # Busy, not pinged: the request that meets the dropped connection fails, as any request
    # does whose connection breaks mid-way (the API answers a retryable 503).
    connection.close_if_unusable_or_obsolete()
    with pytest.raises(OperationalError), connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    connection.close_if_unusable_or_obsolete()  # the request's end: errors occurred, dropped
    assert connection.connection is None
    assert _request() != first  # the next request gets a new connection
    assert connections["default"].is_usable()


def test_a_connection_psycopg_knows_is_closed_gets_the_full_check(pings):
    first = _request()
    connection.connection.close()  # closed on the client: the skip must not apply
    connection.close_if_unusable_or_obsolete()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (pid,) = cursor.fetchone()
    assert pings == [False] and pid != first
