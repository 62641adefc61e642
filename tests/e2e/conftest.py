"""End-to-end tests: real headless Chromium (Debian's) against pytest-django's live server."""

import os
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


@pytest.fixture(autouse=True)
def _browser_gone_before_the_database_flush(request):
    """The live server and its database come before the page, so the page (its browser
    context) is closed first at teardown, and the database is flushed only once the requests
    the page left in flight have ended. In the other order a request the page still made (a
    draft save, the signed-out page's session probe) met the flush: a deadlock between the
    flush's LOCK TABLE and the request's reads, or a 500 from a database the test no longer
    allowed."""
    if "live_server" not in request.fixturenames:
        yield
        return
    request.getfixturevalue("live_server")
    yield
    _server_requests_ended()


def _server_requests_ended(timeout_s: float = 10.0) -> None:
    """Wait until no other session of the test database is running a statement or holding a
    transaction (the live server's request threads; each closes its connection when its
    request ends)."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database()"
                " AND pid <> pg_backend_pid() AND state <> 'idle'"
            )
            if not cursor.fetchone()[0]:
                return
        time.sleep(0.05)
