"""The health check of annotate/db/postgresql: no `SELECT 1` on a connection that served a
request a moment ago, the full check after an idle second, and a connection the server dropped
is replaced after the one request that met it."""

import psycopg
import pytest
from django.db import OperationalError, connection, connections

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


def test_a_connection_the_server_dropped_fails_one_request_then_is_replaced(pings):
    first = _request()
    with psycopg.connect(**connection.get_connection_params()) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [first])
    # Busy, so not pinged: the request that meets the dropped connection fails, as any
    # request does whose connection breaks mid-way (the API answers a retryable 503).
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
