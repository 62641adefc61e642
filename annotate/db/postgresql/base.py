"""Django's PostgreSQL backend with a health check that skips the round trip on a busy
connection, unless the server has spoken on it.

With CONN_HEALTH_CHECKS, Django sends `SELECT 1` before the first query of every request that
reuses a connection. In the annotator's loop that is one round trip of two dozen a cycle, spent
on a connection that answered a few milliseconds ago. Here the check runs only when the
connection sat idle for IDLE_CHECK_S or more between requests (or tasks: Celery's Django fixup
closes old connections the same way), or when its socket has something to read: between
requests the server sends nothing on a healthy connection, while a server that shuts down or
ends the backend sends its FATAL message and closes, which makes the socket readable at once.
That costs one `poll` with no wait, not a round trip, and so a PostgreSQL restart (or a
terminated backend) is noticed before the request's first query instead of failing it. A
connection that breaks with nothing said (a network cut) still fails the one request that
meets it, answered as every lost connection is (a retryable 503, labeling.api.errors), after
which Django's own end-of-request check drops it.
"""

import select
import time

from django.db.backends.postgresql import base


def _has_input(connection) -> bool:
    """Whether the server sent anything on this idle connection (or closed it), without
    waiting. Any doubt (no descriptor, a poll error) answers yes: the full check runs."""
    try:
        poller = select.poll()  # not select(): no limit on the descriptor's number
        poller.register(connection.fileno(), select.POLLIN)
        return bool(poller.poll(0))
    except (OSError, ValueError, AttributeError):
        return True


class DatabaseWrapper(base.DatabaseWrapper):
    IDLE_CHECK_S = 1.0

    _seen_at: float | None = None  # when a request or task last began or ended on it
    _idle_s = float("inf")  # how long it sat unused before the current request

    def close_if_unusable_or_obsolete(self) -> None:
        # Runs as each request (and Celery task) begins and ends: the time between an end
        # and the next beginning is how long the connection sat unused.
        now = time.monotonic()
        self._idle_s = float("inf") if self._seen_at is None else now - self._seen_at
        self._seen_at = now
        super().close_if_unusable_or_obsolete()

    def close_if_health_check_failed(self) -> None:
        if (
            self.connection is not None
            and self.health_check_enabled
            and not self.health_check_done
            and self._idle_s < self.IDLE_CHECK_S
            and not self.connection.broken
            and not self.connection.closed
            and not _has_input(self.connection)
        ):
            self.health_check_done = True
            return
        super().close_if_health_check_failed()
