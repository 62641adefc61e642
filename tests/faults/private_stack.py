"""A live steplab on a private PostgreSQL cluster of a test's own (the shared one is never
touched): migrated, seeded with a ProcessBench project and an annotator, behind gunicorn."""

import json
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

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


def manage(env: dict, *args: str, stdin: str | None = None) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, input=stdin,
        capture_output=True, text=True, timeout=180,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


@dataclass
class SeededServer:
    pg: PrivatePostgres
    base: str  # http://127.0.0.1:port
    project: int  # the seeded project's id
    token: str  # an API token of the annotator `ann` (password ann-password-1)


@contextmanager
def seeded_server(tmp_path: Path, *, threads: int) -> Iterator[SeededServer]:
    """Skips the test where a private cluster cannot run; stops server and cluster after."""
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
        manage(env, "migrate", "--noinput")
        sample = ROOT.parent / "shared" / "data" / "processbench_sample.jsonl"
        seed = SEED.replace("PATH", repr(str(sample)))
        seeded = json.loads(manage(env, "shell", stdin=seed).splitlines()[-1])
        port = free_port()
        server = start_server(env, port, tmp_path / "server.log", threads=threads)
        yield SeededServer(pg, f"http://127.0.0.1:{port}", seeded["project"], seeded["token"])
    finally:
        stop(server)
        pg.stop("immediate")
        pg.remove()
