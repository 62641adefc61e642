"""`make serve` (bin/serve): Ctrl-C or SIGTERM stops gunicorn and the three Celery workers,
children too; the machine and gpu workers run at nice 10, gunicorn and the main worker not.

A real `make serve` on its own port, with its SQLite database, broker and beat schedule in a
temporary folder; every process it starts inherits a marker in its environment, which is how
the test finds what is left of it afterwards.
"""

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
MARKER = "STEPLAB_SERVE_TEST"
START_TIMEOUT_S = 60
STOP_TIMEOUT_S = 30


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def marked_processes(token: str) -> dict[int, str]:
    """pid -> command line of every live process whose environment carries the marker."""
    found = {}
    needle = f"{MARKER}={token}".encode()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if needle not in (entry / "environ").read_bytes().split(b"\0"):
                continue
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:  # gone meanwhile, or not ours to read
            continue
        if stat.rsplit(")", 1)[1].split()[0] != "Z":  # a zombie is dead, only not yet reaped
            found[int(entry.name)] = cmdline
    return found


def wait_for(predicate, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.2)
    return predicate()


def http_up(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


def serve_env(tmp_path: Path, token: str, **extra: str) -> dict[str, str]:
    """`make run`'s embedded defaults (SQLite database and broker) in `tmp_path`, every process
    marked with `token`."""
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
            **extra,
        }
    )
    return env


def serve_start(tmp_path: Path, port: int, env: dict[str, str]) -> subprocess.Popen:
    """`make serve` on `port`, its output in tmp_path/serve.log, in its own process group (as
    a terminal's foreground job)."""
    with open(tmp_path / "serve.log", "wb") as out:
        return subprocess.Popen(
            [
                "make",
                "--no-print-directory",
                "serve",
                f"BIN={Path(sys.executable).parent}",
                f"PORT={port}",
                f"VAR={tmp_path}",
            ],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


@pytest.mark.skipif(
    shutil.which("make") is None or not Path("/proc/self/environ").exists(),
    reason="needs make and Linux's /proc",
)
@pytest.mark.parametrize("how", ["sigterm-to-make", "ctrl-c"])
def test_serve_stops_every_process_it_started(tmp_path: Path, how: str) -> None:
    token = uuid.uuid4().hex
    port = free_port()
    make = serve_start(tmp_path, port, serve_env(tmp_path, token))
    log = tmp_path / "serve.log"
    try:
        ready = wait_for(
            lambda: log.read_text().count(" ready.") >= 3 and http_up(port), START_TIMEOUT_S
        )
        assert ready, log.read_text()[-3000:]
        started = marked_processes(token)
        commands = " ".join(started.values())
        assert commands.count("gunicorn") >= 2  # the arbiter and its worker
        assert commands.count("-n main@") >= 3 and commands.count("-n gpu@") >= 2  # + pools
        assert commands.count("-n machine@") >= 3
        # Machine work (auto-label chunks, rollouts, exports, gpu) runs niced, the rest not.
        own = os.getpriority(os.PRIO_PROCESS, 0)
        for pid, command in started.items():
            machine = "-n machine@" in command or "-n gpu@" in command
            assert os.getpriority(os.PRIO_PROCESS, pid) == (max(own, 10) if machine else own), (
                command
            )

        if how == "ctrl-c":  # the terminal sends SIGINT to the whole foreground group
            os.killpg(make.pid, signal.SIGINT)
        else:  # `kill <pid of make>`, as a supervisor would
            make.send_signal(signal.SIGTERM)

        stopped = wait_for(lambda: not marked_processes(token), STOP_TIMEOUT_S)
        assert stopped, (marked_processes(token), log.read_text()[-3000:])
        make.wait(timeout=5)
        assert "steplab: stopped" in log.read_text()
        assert not http_up(port)
    finally:
        for pid in marked_processes(token):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        if make.poll() is None:
            make.kill()
            make.wait()
