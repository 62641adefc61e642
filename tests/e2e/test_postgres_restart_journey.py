"""Chromium labels while PostgreSQL restarts: a clear retry state, the draft kept, then submit.

The server is gunicorn on a private PostgreSQL cluster of the test's own (the shared one is
never touched); the built frontend is served by it as in production.
"""

import json

import httpx
import pytest
from playwright.sync_api import expect

from bench.load.procs import ROOT
from tests.faults.private_stack import seeded_server

pytestmark = [pytest.mark.e2e]


def test_label_page_rides_out_a_postgres_restart(page, tmp_path, screenshot):
    if not (ROOT / "frontend" / "dist" / "index.html").exists():
        pytest.skip("the frontend is not built (make frontend)")
    with seeded_server(tmp_path, threads=4) as stack:
        base = stack.base
        page.goto(f"{base}/login")
        page.get_by_test_id("login-username").fill("ann")
        page.get_by_test_id("login-password").fill("ann-password-1")
        page.get_by_test_id("login-submit").click()
        page.wait_for_url(f"{base}/projects")
        page.goto(f"{base}/projects/{stack.project}/label")
        rows = page.get_by_test_id("step-row")
        expect(rows.first).to_be_visible()
        n = rows.count()
        with page.expect_response(lambda r: "/draft/" in r.url and r.status == 200) as saved:
            page.keyboard.press("3")
        annotation_id = int(saved.value.url.rstrip("/").split("/")[-2])
        key = f"steplab:draft:{annotation_id}"

        stack.pg.stop()
        for _ in range(n - 1):
            page.keyboard.press("3")
        save_state = page.get_by_test_id("save-state")
        expect(save_state).to_have_attribute("data-status", "error", timeout=15_000)
        expect(save_state).to_contain_text("database is unavailable")
        expect(save_state).to_contain_text("Retrying")
        screenshot("postgres-down-retrying")
        stored = json.loads(page.evaluate(f"localStorage.getItem('{key}')"))
        assert [lb["rating"] for lb in stored["payload"]["labels"]] == [1] * n

        stack.pg.start()
        expect(save_state).to_have_attribute("data-status", "saved", timeout=40_000)
        assert page.evaluate(f"localStorage.getItem('{key}')") is None
        screenshot("postgres-back-saved")
        with page.expect_response(lambda r: "/submit/" in r.url) as submitted:
            page.keyboard.press("Enter")
        assert submitted.value.status == 200, submitted.value.text()

        headers = {"Authorization": f"Token {stack.token}"}
        got = httpx.get(f"{base}/api/annotations/{annotation_id}/", headers=headers).json()
        assert got["annotation"]["status"] == "submitted"
        assert [lb["rating"] for lb in got["annotation"]["labels"]] == [1] * n
