"""What the browser journeys share: signing in, waiting on the database."""

import time
from collections.abc import Callable
from typing import Any


def login(page: Any, base_url: str, username: str, password: str | None = None) -> None:
    """Sign in through the login form (demo users' passwords are `steplab-<username>`)."""
    page.goto(f"{base_url}/login")
    page.get_by_test_id("login-username").fill(username)
    page.get_by_test_id("login-password").fill(password or f"steplab-{username}")
    page.get_by_test_id("login-submit").click()
    page.wait_for_url(f"{base_url}/projects")


def wait_for(predicate: Callable[[], Any], timeout: float = 10.0) -> Any:
    """Poll `predicate` (e.g. a database query) until it returns something truthy."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError("condition not met in time")
