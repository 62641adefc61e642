"""Real processes for load and fault tests: private Redis / PostgreSQL, a server, a worker.

Everything here starts its own instance on a free port in a temp dir, so tests can stop and
restart it without touching the shared servers other runs use.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_port(port: int, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise TimeoutError(f"nothing listens on 127.0.0.1:{port} after {timeout} s")


def stop(proc: subprocess.Popen | None, sig: int = signal.SIGTERM, timeout: float = 15) -> None:
    """Stop a process started with start_new_session=True (its whole group)."""
    if proc is None or proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, sig)
        proc.wait(timeout)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)


# --- Redis -------------------------------------------------------------------------------


@dataclass
class PrivateRedis:
    """A redis-server of our own on a fixed port, restartable (no persistence)."""

    workdir: Path
    port: int = field(default_factory=free_port)
    proc: subprocess.Popen | None = None

    @staticmethod
    def available() -> str | None:
        return None if shutil.which("redis-server") else "redis-server is not installed"

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.workdir.mkdir(parents=True, exist_ok=True)
        log = (self.workdir / "redis.log").open("a")
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.workdir)],
            stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
        wait_port(self.port)

    def stop(self) -> None:
        stop(self.proc)
        self.proc = None


# --- PostgreSQL --------------------------------------------------------------------------


def _pg_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    return Path(found[-1]).parent if found else None


@dataclass
class PrivatePostgres:
    """initdb + pg_ctl in a temp dir on a free port; trust auth, superuser `postgres`.

    As root the cluster is owned by (and run as) the `postgres` system user.
    """

    workdir: Path
    port: int = field(default_factory=free_port)

    @staticmethod
    def available() -> str | None:
        if _pg_bin() is None:
            return "PostgreSQL server binaries (/usr/lib/postgresql/*/bin) are missing"
        if os.geteuid() == 0:
            try:
                import pwd

                pwd.getpwnam("postgres")
            except KeyError:
                return "running as root and there is no `postgres` user to own a cluster"
        return None

    @property
    def datadir(self) -> Path:
        return self.workdir / "data"

    def url(self, name: str = "postgres") -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{name}"

    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        cmd = [str(_pg_bin() / args[0]), *args[1:]]
        if os.geteuid() == 0:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        return subprocess.run(cmd, check=check, capture_output=True, text=True, timeout=120)

    def init(self) -> None:
        self.init_dir()
        self._run("initdb", "-D", str(self.datadir), "-U", "postgres", "--auth=trust",
                  "--no-sync", "-E", "UTF8")  # fmt: skip

    def init_dir(self) -> None:
        """The cluster's directory (not its files)."""
        if os.geteuid() == 0:
            # The postgres user must reach the cluster's directory. Under pytest's temp tree it
            # could not for long: any pytest starting meanwhile sets /tmp/pytest-of-root back
            # to 0700 (a stop then failed with "Permission denied"). So the cluster lives in a
            # directory of its own right under the system temp dir, linked from `workdir`.
            own = Path(tempfile.mkdtemp(prefix="steplab-pg-"))
            shutil.chown(own, "postgres", "postgres")
            self.workdir.parent.mkdir(parents=True, exist_ok=True)
            if self.workdir.is_symlink() or not self.workdir.exists():
                self.workdir.unlink(missing_ok=True)
                self.workdir.symlink_to(own)
            self.workdir = own
        else:
            self.workdir.mkdir(parents=True, exist_ok=True)

    def init_copy(self, datadir: Path) -> None:
        """A cluster of its own from a stopped cluster's files (`datadir`, cleanly shut down):
        the same databases and rows without initdb or a migration."""
        self.init_dir()
        # cp -a keeps the files' owner (the postgres user, when root runs this) and modes.
        subprocess.run(["cp", "-a", str(datadir), str(self.datadir)], check=True, timeout=120)

    def start(self) -> None:
        opts = f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.workdir} -c fsync=off"
        self._run("pg_ctl", "-D", str(self.datadir), "-o", opts, "-l",
                  str(self.workdir / "pg.log"), "-w", "-t", "60", "start")  # fmt: skip
        wait_port(self.port)

    def remove(self) -> None:
        """Delete the cluster's files (after `stop`)."""
        shutil.rmtree(self.workdir, ignore_errors=True)

    def stop(self, mode: str = "fast") -> None:
        """Stop the cluster and wait until it is down (a loaded machine can take a while)."""
        done = self._run("pg_ctl", "-D", str(self.datadir), "-m", mode, "-w", "-t", "120", "stop",
                         check=False)  # fmt: skip
        if done.returncode != 0 and "Is server running?" not in done.stderr:
            log = self.workdir / "pg.log"
            tail = log.read_text()[-2000:] if log.exists() else ""
            raise RuntimeError(f"pg_ctl stop failed: {done.stderr.strip()}\n{tail}")


# --- steplab processes -------------------------------------------------------------------


def steplab_env(database_url: str, redis_url: str, **extra: str) -> dict[str, str]:
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": os.environ.get("STEPLAB_LOAD_SETTINGS", "annotate.settings.test"),
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        **extra,
    }


def enqueue(env: dict[str, str], task: str, *args: object) -> None:
    """Send `task` ("module.name") from another process, so the message goes to the broker
    `env` names (a private Redis), not the test process's own."""
    module, name = task.rsplit(".", 1)
    code = (
        f"import django; django.setup(); from {module} import {name} as t; t.delay(*{list(args)!r})"
    )
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, check=True, timeout=60)


def start_server(env: dict[str, str], port: int, log: Path, *, threads: int = 8, workers: int = 2):
    """gunicorn (`workers` processes x `threads` threads) on 127.0.0.1:port; ready when it
    answers."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "annotate.wsgi:application", "-b",
         f"127.0.0.1:{port}", "-w", str(workers), "--threads", str(threads), "--timeout", "60",
         # Longer than a client's pause: an idle keep-alive closed under a request resets it.
         "--keep-alive", "30"],
        cwd=ROOT, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT,
        start_new_session=True,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited: {log.read_text()[-3000:]}")
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/auth/me/", timeout=2)
            return proc
        except httpx.HTTPError:
            time.sleep(0.2)
    stop(proc)
    raise TimeoutError(f"server did not answer: {log.read_text()[-3000:]}")


def start_worker(
    env: dict[str, str],
    log: Path,
    *,
    name: str = "load",
    concurrency: int = 2,
    beat_schedule: Path | None = None,
    queues: str = "default,autolabel,exports",
):
    """A worker on `queues` (by default the short tasks, auto-label chunks and exports); with
    `beat_schedule`, beat runs in it too (the recovery sweep), keeping its schedule in that
    file. One that consumes only machine queues runs niced (annotate.worker_priority)."""
    beat = ["-B", "-s", str(beat_schedule)] if beat_schedule else []
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "annotate", "worker", "-Q",
         queues, "--concurrency", str(concurrency), "-n", f"{name}@%h", "-l", "info",
         "--without-gossip", "--without-mingle", "--without-heartbeat", *beat],
        cwd=ROOT, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT,
        start_new_session=True,
    )  # fmt: skip
