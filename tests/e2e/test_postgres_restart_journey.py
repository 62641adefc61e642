"""Chromium labels while PostgreSQL restarts: a clear retry state, the draft kept, then submit.

The server is gunicorn on a private PostgreSQL cluster of the test's own (the shared one is
never touched); the built frontend is served by it as in production.
"""

import json
import subprocess

import httpx
import pytest
from playwright.sync_api import expect

from bench.load.procs import ROOT, PrivatePostgres, free_port, start_server, steplab_env, stop
from tests.faults.test_postgres_restart import SEED, _manage

pytestmark = [pytest.mark.e2e]


def test_label_page_rides_out_a_postgres_restart(page, tmp_path, screenshot):
    if reason := PrivatePostgres.available():
        pytest.skip(reason)
    if not (ROOT / "frontend" / "dist" / "index.html").exists():
        pytest.skip("the frontend is not built (make frontend)")
    pg = PrivatePostgres(tmp_path / "pg")
    pg.init()
    pg.start()
    server = None
    try:
        subprocess.run(
            ["psql", "-h", "127.0.0.1", "-p", str(pg.port), "-U", "postgres", "-c",
             "CREATE DATABASE steplab"], check=True, capture_output=True, timeout=60,
        )  # fmt: skip
        env = steplab_env(pg.url("steplab"), "")
        _manage(env, "migrate", "--noinput")
        sample = ROOT.parent / "shared" / "data" / "processbench_sample.jsonl"
        seed = SEED.replace("PATH", repr(str(sample)))
        seeded = json.loads(_manage(env, "shell", stdin=seed).splitlines()[-1])
        port = free_port()
        server = start_server(env, port, tmp_path / "server.log", threads=4)
        base = f"http://127.0.0.1:{port}"

        page.goto(f"{base}/login")
        page.get_by_test_id("login-username").fill("ann")
        page.get_by_test_id("login-password").fill("ann-password-1")
        page.get_by_test_id("login-submit").click()
        page.wait_for_url(f"{base}/projects")
        page.goto(f"{base}/projects/{seeded['project']}/label")
        rows = page.get_by_test_id("step-row")
        expect(rows.first).to_be_visible()
        n = rows.count()
        with page.expect_response(lambda r: "/draft/" in r.url and r.status == 200) as saved:
            page.keyboard.press("3")
        annotation_id = int(saved.value.url.rstrip("/").split("/")[-2])
        key = f"steplab:draft:{annotation_id}"

        pg.stop()
        for _ in range(n - 1):
            page.keyboard.press("3")
        save_state = page.get_by_test_id("save-state")
        expect(save_state).to_have_attribute("data-status", "error", timeout=15_000)
        expect(save_state).to_contain_text("database is unavailable")
        expect(save_state).to_contain_text("Retrying")
        screenshot("postgres-down-retrying")
        stored = json.loads(page.evaluate(f"localStorage.getItem('{key}')"))
        assert [lb["rating"] for lb in stored["payload"]["labels"]] == [1] * n

        pg.start()
        expect(save_state).to_have_attribute("data-status", "saved", timeout=40_000)
        assert page.evaluate(f"localStorage.getItem('{key}')") is None
        screenshot("postgres-back-saved")
        with page.expect_response(lambda r: "/submit/" in r.url) as submitted:
            page.keyboard.press("Enter")
        assert submitted.value.status == 200, submitted.value.text()

        headers = {"Authorization": f"Token {seeded['token']}"}
        got = httpx.get(f"{base}/api/annotations/{annotation_id}/", headers=headers).json()
        assert got["annotation"]["status"] == "submitted"
        assert [lb["rating"] for lb in got["annotation"]["labels"]] == [1] * n
    finally:
        stop(server)
        pg.stop("immediate")
