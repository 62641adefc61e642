"""Private server stacks for the tests that need real processes (the shared services are
never touched):

- `seeded_server`: a live steplab on a private PostgreSQL cluster of the test's own, migrated,
  seeded with a ProcessBench project and an annotator, behind gunicorn (a copy of one such
  cluster made once per session);
- `production_server`: gunicorn with annotate.settings.production on the test database and a
  private Redis (the broker and the cache), for the hostile-client and Redis-down tests;
- `start_private_redis` and `live_database_url` (the test database): the pieces, for the
  tests that run workers.
"""

import atexit
import json
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from bench.load.procs import (
    ROOT,
    PrivatePostgres,
    PrivateRedis,
    free_port,
    start_server,
    steplab_env,
    stop,
)

SEED = """
import json
from django.contrib.auth import get_user_model
from labeling.services.people.tokens import token_create
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


# One migrated, seeded cluster's files per test session (its path and what the seed printed):
# each seeded_server starts a copy of them, not initdb, a migration and the import again.
_SEEDED: list[tuple[PrivatePostgres, dict]] = []


def _seeded_files() -> tuple[PrivatePostgres, dict]:
    if _SEEDED:
        return _SEEDED[0]
    folder = Path(tempfile.mkdtemp(prefix="steplab-seeded-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    pg = PrivatePostgres(folder / "pg")
    pg.init()
    pg.start()
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
    finally:
        pg.stop()  # a clean shutdown: a copy starts without recovery
    atexit.register(pg.remove)
    _SEEDED.append((pg, seeded))
    return pg, seeded


@contextmanager
def seeded_server(tmp_path: Path, *, threads: int) -> Iterator[SeededServer]:
    """Skips the test where a private cluster cannot run; stops server and cluster after."""
    if reason := PrivatePostgres.available():
        pytest.skip(reason)
    template, seeded = _seeded_files()
    pg = PrivatePostgres(tmp_path / "pg")
    pg.init_copy(template.datadir)
    pg.start()
    server = None
    try:
        env = steplab_env(pg.url("steplab"), "")
        port = free_port()
        server = start_server(env, port, tmp_path / "server.log", threads=threads)
        yield SeededServer(pg, f"http://127.0.0.1:{port}", seeded["project"], seeded["token"])
    finally:
        stop(server)
        pg.stop("immediate")
        pg.remove()


def live_database_url() -> str:
    """pytest-django's test database as a URL, for the stack's processes to use."""
    from django.db import connection

    db = connection.settings_dict
    return f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


def start_private_redis(tmp_path: Path) -> PrivateRedis:
    """A started redis-server of the test's own (the caller stops it); skips the test where
    redis-server is not installed."""
    if reason := PrivateRedis.available():
        pytest.skip(reason)
    redis = PrivateRedis(tmp_path / "redis")
    redis.start()
    return redis


def production_hash(password: str) -> str:
    """A password hashed as production does (the test settings' MD5 hasher is not one
    production knows): for users the production server signs in."""
    from django.contrib.auth.hashers import PBKDF2PasswordHasher

    return PBKDF2PasswordHasher().encode(password, PBKDF2PasswordHasher().salt())


@dataclass
class ProductionServer:
    base: str  # http://127.0.0.1:port
    env: dict  # the server's environment (a worker started with it shares the stack)
    redis: PrivateRedis  # the broker and cache; a test may stop and start it
    log: Path  # gunicorn's log


@contextmanager
def production_server(
    tmp_path: Path, *, name: str, threads: int = 4, **env: str
) -> Iterator[ProductionServer]:
    """gunicorn with annotate.settings.production on the test database (rows the test made
    are there) and a private Redis; `env` adds settings. Stops server and Redis after."""
    redis = start_private_redis(tmp_path)
    settings = steplab_env(
        live_database_url(),
        redis.url,
        DJANGO_SETTINGS_MODULE="annotate.settings.production",
        SECRET_KEY=f"{name}-test-secret-key-" + "x" * 40,
        SECURE_SSL_REDIRECT="False",
        MEDIA_ROOT=str(tmp_path / "media"),
        **env,
    )
    port = free_port()
    log = tmp_path / "server.log"
    proc = None
    try:
        proc = start_server(settings, port, log, threads=threads)
        yield ProductionServer(f"http://127.0.0.1:{port}", settings, redis, log)
    finally:
        stop(proc)
        redis.stop()
