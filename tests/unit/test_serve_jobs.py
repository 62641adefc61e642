"""`make run`'s stack as it runs on its embedded defaults (SQLite database, SQLite-file Celery
broker): a job created through the API is sent to the broker when its request commits and a
worker runs it, with no wait for beat's outbox sweep.

The outbox once added Redis socket timeouts to its broker connection; kombu's SQLAlchemy
transport hands transport options to create_engine, which refused them, so in the web process
every send failed ("broker unreachable, 1 outbox message(s) unsent") and each run, export and
import sat "Queued" until the sweep. Tests use Redis or the memory broker, so only this stack
shows it.
"""

import contextlib
import json
import os
import signal
import subprocess
import sys
import urllib.error
import urllib.request
import uuid
from pathlib import Path

import pytest

from tests.unit.test_serve_shutdown import (
    MARKER,
    START_TIMEOUT_S,
    free_port,
    http_up,
    marked_processes,
    wait_for,
)

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]


def _api(port: int, path: str, body: dict | None = None, token: str = "") -> dict:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=json.dumps(body).encode() if body is not None else None,
        headers={"Content-Type": "application/json"}
        | ({"Authorization": f"Token {token}"} if token else {}),
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.loads(response.read())
    except urllib.error.HTTPError as error:
        raise AssertionError(f"{path}: {error.code} {error.read()[:500]!r}") from None


def test_a_run_created_through_the_api_is_sent_at_once_and_done(tmp_path: Path) -> None:
    token = uuid.uuid4().hex
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "DATABASE_URL"}}
    env.update(
        {
            MARKER: token,
            "DJANGO_SETTINGS_MODULE": "annotate.settings.local",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
            "CELERY_BROKER_URL": f"sqla+sqlite:///{tmp_path / 'broker.sqlite3'}",
            "CELERY_RESULT_BACKEND": f"db+sqlite:///{tmp_path / 'results.sqlite3'}",
            "STATIC_ROOT": str(tmp_path / "static"),
            "MEDIA_ROOT": str(tmp_path / "media"),
            "TRAINING_ROOT": str(tmp_path / "training"),
            "WEB_WORKERS": "1",
            "WEB_THREADS": "2",
            # The sweep far away: a job that waited for it would not finish in the test's time.
            "OUTBOX_SWEEP_S": "3600",
        }
    )
    for command in (["migrate", "--noinput", "-v", "0"], ["load_demo"]):
        subprocess.run(
            [sys.executable, "manage.py", *command], cwd=ROOT, env=env, check=True, timeout=300
        )
    log = tmp_path / "serve.log"
    with open(log, "wb") as out:
        make = subprocess.Popen(
            ["make", "--no-print-directory", "serve", f"BIN={Path(sys.executable).parent}"]
            + [f"PORT={port}", f"VAR={tmp_path}"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        ready = wait_for(
            lambda: log.read_text().count(" ready.") >= 3 and http_up(port), START_TIMEOUT_S
        )
        assert ready, log.read_text()[-3000:]
        api_token = _api(
            port, "/api/auth/token/", {"username": "admin", "password": "steplab-admin"}
        )["token"]
        projects = _api(port, "/api/projects/", token=api_token)
        project = next(
            p["id"]
            for p in projects.get("results") or projects
            if p["name"] == "Demo: step labeling"
        )
        run = _api(
            port,
            f"/api/projects/{project}/autolabel-runs/",
            {"sources": ["symbolic"]},
            token=api_token,
        )
        done = wait_for(
            lambda: (
                _api(port, f"/api/autolabel-runs/{run['id']}/", token=api_token)["status"] == "done"
            ),
            90,
        )
        text = log.read_text()
        assert done, text[-3000:]
        assert "unsent" not in text, text[-3000:]
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(make.pid, signal.SIGTERM)
        wait_for(lambda: not marked_processes(token), 30)
        for pid in marked_processes(token):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        if make.poll() is None:
            make.kill()
        make.wait()
