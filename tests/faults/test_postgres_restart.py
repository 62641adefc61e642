"""Restart PostgreSQL while an annotator works: a live server on a private cluster of its own.

While the database is down a draft save gets a clear, retryable 503 (`database_unavailable`,
what the labeling page shows as "… Retrying…" and keeps in localStorage); after the restart the
retried save succeeds, the autosaved draft is intact, and the submission goes through.
"""

import json
import subprocess
import sys
import time

import httpx
import pytest

from bench.load.procs import ROOT, PrivatePostgres, free_port, start_server, steplab_env, stop

SEED = """
import json
from django.contrib.auth import get_user_model
from labeling.services.tokens import token_create
from labeling.models import Project, ProjectMembership
from labeling.services.imports import import_file
project = Project.objects.create(name="pg restart")
import_file(project=project, path=PATH, fmt="processbench", labels_as="none")
user = get_user_model().objects.create_user("ann", password="ann-password-1")
ProjectMembership.objects.create(project=project, user=user, role="annotator")
print(json.dumps({"project": project.pk, "token": token_create(user=user).key}))
"""


def _manage(env: dict, *args: str, stdin: str | None = None) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, input=stdin,
        capture_output=True, text=True, timeout=180,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_draft_survives_a_postgres_restart_and_submit_succeeds_after(tmp_path):
    if reason := PrivatePostgres.available():
        pytest.skip(reason)
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
        seeded = json.loads(
            _manage(env, "shell", stdin=SEED.replace("PATH", repr(str(sample)))).splitlines()[-1]
        )
        port = free_port()
        server = start_server(env, port, tmp_path / "server.log", threads=2)
        headers = {"Authorization": f"Token {seeded['token']}"}
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", headers=headers, timeout=30) as c:
            task = c.post(f"/api/projects/{seeded['project']}/queue/next/").raise_for_status()
            annotation = task.json()["annotation"]
            steps = [s["id"] for s in task.json()["solution"]["steps"]]
            url = f"/api/annotations/{annotation['id']}/"
            first = [{"step_id": steps[0], "rating": 1}]
            saved = c.put(url + "draft/", json={"version": annotation["version"], "labels": first})
            version = saved.raise_for_status().json()["version"]

            pg.stop()  # fast shutdown: every server connection is cut
            second = [*first, {"step_id": steps[1], "rating": -1}]
            down = c.put(url + "draft/", json={"version": version, "labels": second})
            assert down.status_code == 503, down.text[:2000]
            assert down.json()["error"]["code"] == "database_unavailable"
            assert down.headers["Retry-After"]

            pg.start()
            # The page retries with backoff; the first try after the restart may still meet a
            # connection the restart broke, and gets the same clear 503.
            deadline = time.monotonic() + 30
            while True:
                retried = c.put(url + "draft/", json={"version": version, "labels": second})
                if retried.status_code != 503 or time.monotonic() > deadline:
                    break
                time.sleep(0.5)
            assert retried.status_code == 200, retried.text[:2000]
            version = retried.json()["version"]

            stored = c.get(url).raise_for_status().json()["annotation"]
            got = {lb["step_id"]: lb["rating"] for lb in stored["labels"]}
            assert got == {steps[0]: 1, steps[1]: -1}  # the autosaved draft is all there
            labels = [{"step_id": s, "rating": 1 if i != 1 else -1} for i, s in enumerate(steps)]
            submit = c.post(url + "submit/", json={"version": version, "labels": labels})
            assert submit.status_code == 200, submit.text[:2000]
            assert submit.json()["status"] == "submitted"
    finally:
        stop(server)
        pg.stop("immediate")
