"""End-to-end tests: real headless Chromium (Debian's) against pytest-django's live server."""

import os
import threading
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

CHROMIUM = "/usr/bin/chromium"
# Not under test-results/: pytest-playwright empties that folder when a session starts.
SCREENSHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"

# Playwright's sync API runs an event loop in the test thread; Django's ORM must still be usable.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

# `make test` runs four pytest-xdist workers on two cores, each with its Chromium, live server
# and Celery worker: a page's first fetch there took longer than Playwright's default 5 s for
# an assertion (the projects list still "Loading..." at load 22). An assertion still waits
# only until what it asserts holds; this raises the ceiling, not the time a passing test takes.
expect.set_options(timeout=15_000)


@pytest.fixture(scope="session")
def browser_type_launch_args():
    if not Path(CHROMIUM).exists():
        pytest.fail("Chromium is missing: `make chromium` installs Debian's package")
    return {
        "executable_path": CHROMIUM,
        "headless": True,
        "args": [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ],
    }


@pytest.fixture(scope="session")
def browser_context_args():
    return {"viewport": {"width": 1400, "height": 900}}


@pytest.fixture
def screenshot(page):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def take(name: str, *, full_page: bool = False) -> Path:
        path = SCREENSHOTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=full_page)
        return path

    return take


@pytest.fixture(autouse=True)
def _connections_close_per_request():
    """The live server serves each request in a thread of its own; with persistent connections
    (CONN_MAX_AGE) each finished thread left its connection open, and a full e2e run used up
    PostgreSQL's max_connections ("too many clients"). In these tests a request's connection
    closes when the request ends. The settings dict is the one every thread's wrapper reads."""
    from django.db import connections

    conf = connections.settings["default"]
    before = conf.get("CONN_MAX_AGE", 0)
    conf["CONN_MAX_AGE"] = 0
    yield
    conf["CONN_MAX_AGE"] = before


class _InFlight:
    """The live server's WSGI app, counting the requests it is serving: a request the page
    sent before it closed may not have reached the database yet when the test ends (its
    thread still in the socket, the middleware, ...), so an idle database alone does not
    say the server is done."""

    def __init__(self, app) -> None:
        self.app, self.serving, self.lock = app, 0, threading.Lock()

    def __call__(self, environ, start_response):
        with self.lock:
            self.serving += 1
        try:
            return self.app(environ, start_response)
        finally:
            with self.lock:
                self.serving -= 1


def _counted(live_server) -> _InFlight:
    """The (session-wide) live server's app, wrapped once in an _InFlight counter."""
    httpd = live_server.thread.httpd
    app = httpd.get_app()
    if not isinstance(app, _InFlight):
        app = _InFlight(app)
        httpd.set_app(app)
    return app


@pytest.fixture(autouse=True)
def _browser_gone_before_the_database_flush(request):
    """The live server and its database come before the page, so the page (its browser
    context) is closed first at teardown, and the database is flushed only once the requests
    the page left in flight have ended. In the other order a request the page still made (a
    draft save, the signed-out page's session probe) met the flush: a deadlock between the
    flush's LOCK TABLE and the request's reads, or a 500 from a database the test no longer
    allowed. Ended: the server serves no request and the database runs nothing else, both
    for a quiet moment (a request may sit between accept and the app)."""
    if "live_server" not in request.fixturenames:
        yield
        return
    served = _counted(request.getfixturevalue("live_server"))
    yield
    _server_requests_ended(served)


def _server_requests_ended(
    served: _InFlight, timeout_s: float = 10.0, quiet_s: float = 0.2
) -> None:
    """Wait until the live server serves no request and no other session of the test
    database runs a statement or holds a transaction (each request thread closes its
    connection when its request ends), for `quiet_s` in a row."""
    from django.db import connection

    deadline = time.monotonic() + timeout_s
    quiet_since = None
    while time.monotonic() < deadline:
        busy = served.serving > 0
        if not busy and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database()"
                    " AND pid <> pg_backend_pid() AND state <> 'idle'"
                )
                busy = cursor.fetchone()[0] > 0
        if busy:
            quiet_since = None
        elif quiet_since is None:
            quiet_since = time.monotonic()
        elif time.monotonic() - quiet_since >= quiet_s:
            return
        time.sleep(0.05)
