"""Redis stopped under a production-settings gunicorn: the app keeps serving, jobs wait.

A private redis-server (the broker and the cache) is stopped after the server started. Then,
through the HTTP API: a session sign-in and a token exchange (the throttles count in the
cache), and an export, an import and an auto-label run are created, each twice with one
Idempotency-Key. Every answer is 2xx JSON, never an HTML 500; there is exactly one job row
and one outbox message each, unsent. Redis is started again with a worker and beat: the outbox
sweep (labeling.tasks.outbox_drain_task) sends the messages and all three jobs finish.
"""

import time

import httpx
import pytest
from django.contrib.auth import get_user_model

from autolabel.models import AutolabelRun, RunStatus
from bench.load.procs import start_worker, stop
from labeling.models import Export, ImportJob, OutboxMessage, ProjectMembership
from labeling.models.exports import ExportStatus
from labeling.models.imports import ImportStatus
from tests.conftest import PROCESSBENCH
from tests.faults.private_stack import production_hash, production_server

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]
PASSWORD = "ops-password-1"


def _json(response: httpx.Response, *ok: int) -> dict:
    assert response.headers.get("content-type", "").startswith("application/json"), (
        response.status_code,
        response.text[:500],
    )
    assert response.status_code in ok, (response.status_code, response.text[:500])
    return response.json()


def _sign_in(client: httpx.Client) -> str:
    """A session sign-in as the SPA does it (CSRF cookie from a page, then the token header),
    then the token exchange a script uses; returns the API token."""
    page = client.get("/")  # sets the CSRF cookie (the page itself may be unbuilt: 503)
    csrf = page.cookies["csrftoken"]
    signed_in = client.post(
        "/api/auth/login/",
        json={"username": "ops", "password": PASSWORD},
        headers={"X-CSRFToken": csrf, "Cookie": f"csrftoken={csrf}"},
    )
    assert _json(signed_in, 200)["username"] == "ops"
    token = client.post("/api/auth/token/", json={"username": "ops", "password": PASSWORD})
    return _json(token, 200, 201)["token"]


def _twice(send) -> int:
    """Send a creation twice with one key (a client's retry): both answer the same job."""
    first, retry = (_json(send(), 202) for _ in range(2))
    assert first["id"] == retry["id"]
    assert first["status"] == "pending"
    return first["id"]


def test_with_redis_down_jobs_are_created_once_and_run_when_it_is_back(pb_project, tmp_path):
    user = get_user_model().objects.create(username="ops", password=production_hash(PASSWORD))
    ProjectMembership.objects.create(project=pb_project, user=user, role="admin")
    pid = pb_project.pk
    with production_server(tmp_path, name="redis-down", OUTBOX_SWEEP_S="1") as live:
        worker = None
        try:
            live.redis.stop()  # the broker and the cache are gone

            client = httpx.Client(base_url=live.base, timeout=30)
            started = time.monotonic()
            token = _sign_in(client)
            auth = {"Authorization": f"Token {token}"}
            export = _twice(
                lambda: client.post(
                    f"/api/projects/{pid}/exports/",
                    json={"format": "trl"},
                    headers={**auth, "Idempotency-Key": "export-1"},
                )
            )
            data = PROCESSBENCH.read_bytes().splitlines(keepends=True)[:3]
            upload = b"".join(data)
            job = _twice(
                lambda: client.post(
                    f"/api/projects/{pid}/imports/",
                    data={"format": "processbench", "labels_as": "none"},
                    files={"file": ("three.jsonl", upload, "application/jsonl")},
                    headers={**auth, "Idempotency-Key": "import-1"},
                )
            )
            run = _twice(
                lambda: client.post(
                    f"/api/projects/{pid}/autolabel-runs/",
                    json={"sources": ["answer"], "params": {"chunk_size": 50}},
                    headers={**auth, "Idempotency-Key": "run-1"},
                )
            )
            # Nothing waited for a broker that is not there.
            assert time.monotonic() - started < 20
            assert Export.objects.filter(project=pb_project).count() == 1
            assert ImportJob.objects.filter(project=pb_project).count() == 1
            assert AutolabelRun.objects.filter(project=pb_project).count() == 1
            messages = OutboxMessage.objects.order_by("pk")
            assert [(m.args, m.sent_at, m.attempts) for m in messages] == [
                ([export], None, 1),
                ([job], None, 1),
                ([run], None, 1),
            ]
            # Pages that need no broker still answer.
            _json(client.get(f"/api/exports/{export}/", headers=auth), 200)

            live.redis.start()  # same port, empty
            worker = start_worker(
                live.env, tmp_path / "worker.log", beat_schedule=tmp_path / "beat"
            )
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                states = (
                    Export.objects.get(pk=export).status,
                    ImportJob.objects.get(pk=job).status,
                    AutolabelRun.objects.get(pk=run).status,
                )
                if states == (ExportStatus.DONE, ImportStatus.DONE, RunStatus.DONE):
                    break
                time.sleep(0.25)
            log = (tmp_path / "worker.log").read_text()
            assert states == (ExportStatus.DONE, ImportStatus.DONE, RunStatus.DONE), (
                states,
                log[-4000:],
            )
        finally:
            stop(worker)
    assert not OutboxMessage.objects.filter(sent_at__isnull=True).exists()
    assert {m.attempts for m in OutboxMessage.objects.all()} == {2}  # failed once, sent once
    server_log = (tmp_path / "server.log").read_text()
    assert "Internal Server Error" not in server_log, server_log[-3000:]
