"""Hard time limits for symbolic work, in any thread.

sympy and math-verify can run for minutes on small inputs (``10^{10^{10}}``), and a signal
only interrupts Python between bytecodes and only in the main thread. So the work runs in a
pooled worker process and the caller waits at most ``timeout_s``; a worker that overruns is
killed (SIGKILL always works) and replaced.

* :func:`call_with_time_limit` runs a module-level function in a worker. Thread-safe: each
  calling thread checks out its own worker. Workers are forked from a clean single-threaded
  server process that has imported the modules registered with :func:`register_preload`;
  the limit covers the work, not the one-time start of that server (about 1 s); a
  replacement for a killed worker takes milliseconds.
* :func:`soft_time_limit` is for code that already runs in a worker (whose main thread owns
  SIGALRM): a nested, signal-based limit so one slow sub-check does not cost the others.
* Inside a worker, :func:`call_with_time_limit` runs inline under :func:`soft_time_limit`
  instead of starting a grandchild.
"""

from __future__ import annotations

import atexit
import contextlib
import importlib
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")

START_TIMEOUT_S = 60.0  # the worker server imports sympy once; generous on a loaded machine
MAX_IDLE_WORKERS = 4
WORKER_MEMORY_BYTES = 4 << 30  # RLIMIT_AS: 10**(10**10) fails with MemoryError, not swap

# Imported by the worker server before it reports ready (more via register_preload).
_preload: list[str] = ["sympy", "autolabel.symbolic", "autolabel.answers", "math_verify"]
_in_worker = False


class TimeLimitExceeded(Exception):
    """The work did not finish within its time limit."""


class WorkerError(Exception):
    """The work raised in the worker, or the worker died; carries the worker's message."""


def register_preload(module: str) -> None:
    """Import ``module`` in every worker before it reports ready (call at import time)."""
    if module not in _preload:
        _preload.append(module)


def in_worker() -> bool:
    return _in_worker


# --- soft limits (worker main thread) -------------------------------------------------


def _on_alarm(signum: int, frame: Any) -> None:
    raise TimeLimitExceeded("soft time limit")


@contextlib.contextmanager
def soft_time_limit(seconds: float) -> Iterator[None]:
    """Raise TimeLimitExceeded in this block after ``seconds`` (main thread only).

    Nests: an inner limit never extends an outer one, and the outer timer is re-armed on
    exit. Outside the main thread it does nothing (the caller's hard limit still holds).
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    now = time.monotonic()
    outer_left, _ = signal.getitimer(signal.ITIMER_REAL)
    outer_deadline = now + outer_left if outer_left > 0 else None
    deadline = now + max(seconds, 0.0)
    if outer_deadline is not None:
        deadline = min(deadline, outer_deadline)
    previous = signal.signal(signal.SIGALRM, _on_alarm)
    signal.setitimer(signal.ITIMER_REAL, max(deadline - now, 1e-4))
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if outer_deadline is not None:
            signal.setitimer(signal.ITIMER_REAL, max(outer_deadline - time.monotonic(), 1e-4))


# --- worker processes ------------------------------------------------------------------
#
# A "zygote" process (a fresh interpreter started with subprocess, so nothing of the caller's
# threads, locks or __main__ comes along) imports the preload modules once and then forks
# one worker per request. Forking a single-threaded process that already holds sympy is
# safe and takes milliseconds. The zygote ignores SIGCHLD, so killed workers are reaped by
# the kernel. Workers and the zygote exit when their socket to the caller closes.


def _worker_loop(conn: Connection, memory_bytes: int) -> None:
    global _in_worker
    _in_worker = True
    with contextlib.suppress(ValueError, OSError):
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    while True:
        try:
            func, args, kwargs, soft_s = conn.recv()
        except (EOFError, OSError):
            return  # the caller is gone
        try:
            with soft_time_limit(soft_s):
                result = func(*args, **kwargs)
            reply: tuple[str, Any] = ("ok", result)
        except TimeLimitExceeded:
            reply = ("timeout", None)
        except MemoryError:
            reply = ("error", "MemoryError")
        except BaseException as exc:  # noqa: BLE001 - report everything, keep serving
            reply = ("error", f"{type(exc).__name__}: {exc}")
        try:
            conn.send(reply)
        except Exception as exc:  # an unpicklable result
            conn.send(("error", f"result not picklable: {exc}"))


def _zygote_main() -> None:
    """Entry point of the zygote process (``python -c``); argv: fd, preload, memory."""
    fd, preload, memory = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    sock = socket.socket(fileno=fd)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for name in filter(None, preload.split(",")):
        with contextlib.suppress(ImportError):
            importlib.import_module(name)
    sock.sendall(b"R")
    while True:
        try:
            request = sock.recv(1)
        except OSError:
            request = b""
        if not request:
            os._exit(0)
        parent_end, child_end = socket.socketpair()
        pid = os.fork()
        if pid == 0:  # the worker
            sock.close()
            parent_end.close()
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            try:
                _worker_loop(Connection(child_end.detach()), memory)
            finally:
                os._exit(0)
        child_end.close()
        socket.send_fds(sock, [str(pid).encode()], [parent_end.fileno()])
        parent_end.close()


_ZYGOTE_CODE = "import autolabel.timeouts as t; t._zygote_main()"


class _Zygote:
    def __init__(self) -> None:
        ours, theirs = socket.socketpair()
        package_root = str(Path(__file__).resolve().parent.parent)
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(
            [package_root] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else [])
        )
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-c",
                _ZYGOTE_CODE,
                str(theirs.fileno()),
                ",".join(_preload),
                str(WORKER_MEMORY_BYTES),
            ],
            pass_fds=(theirs.fileno(),),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            env=env,
            start_new_session=True,  # Ctrl-C goes to the caller, which then closes us
        )
        theirs.close()
        self.sock = ours
        self.sock.settimeout(START_TIMEOUT_S)
        try:
            ready = self.sock.recv(1)
        except OSError:
            ready = b""
        if ready != b"R":
            self.close()
            raise WorkerError("check worker server did not start")
        self.sock.settimeout(None)

    def fork(self) -> tuple[int, Connection]:
        self.sock.sendall(b"F")
        msg, fds, _, _ = socket.recv_fds(self.sock, 32, 1)
        if not msg or not fds:
            raise WorkerError("check worker server died")
        return int(msg), Connection(fds[0])

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.sock.close()
        with contextlib.suppress(Exception):
            self.proc.wait(timeout=2.0)
        if self.proc.poll() is None:
            with contextlib.suppress(Exception):
                self.proc.kill()


_zygote: _Zygote | None = None
_zygote_lock = threading.Lock()
_zygote_pid = os.getpid()


def _new_worker_connection() -> tuple[int, Connection]:
    global _zygote, _zygote_pid
    with _zygote_lock:
        if _zygote_pid != os.getpid():  # forked caller: the parent's server is not ours
            _zygote, _zygote_pid = None, os.getpid()
        for attempt in range(2):
            if _zygote is None:
                _zygote = _Zygote()
            try:
                return _zygote.fork()
            except (OSError, WorkerError):
                _zygote.close()
                _zygote = None
                if attempt:
                    raise
        raise WorkerError("unreachable")


class _Worker:
    def __init__(self) -> None:
        self.pid, self.conn = _new_worker_connection()
        self.dead = False

    def run(self, func: Callable[..., Any], args: tuple, kwargs: dict, timeout_s: float) -> Any:
        soft_s = max(timeout_s * 0.9 - 0.005, 0.001)
        self.conn.send((func, args, kwargs, soft_s))
        if not self.conn.poll(timeout_s):
            self.kill()
            raise TimeLimitExceeded(f"no result within {timeout_s:.3g} s")
        try:
            status, payload = self.conn.recv()
        except (EOFError, OSError) as exc:
            self.kill()
            raise WorkerError("check worker died (memory limit?)") from exc
        if status == "ok":
            return payload
        if status == "timeout":
            raise TimeLimitExceeded(f"soft limit {soft_s:.3g} s")
        raise WorkerError(payload)

    def alive(self) -> bool:
        return not self.dead

    def kill(self) -> None:
        self.dead = True
        with contextlib.suppress(OSError):
            os.kill(self.pid, signal.SIGKILL)
        with contextlib.suppress(Exception):
            self.conn.close()

    def close(self) -> None:
        self.dead = True
        with contextlib.suppress(Exception):
            self.conn.close()  # the worker sees EOF and exits


class _Pool:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.idle: list[_Worker] = []
        self.pid = os.getpid()

    def _check_fork(self) -> None:
        if self.pid != os.getpid():  # a forked child must not use its parent's workers
            self.idle, self.pid, self.lock = [], os.getpid(), threading.Lock()

    def acquire(self) -> _Worker:
        self._check_fork()
        with self.lock:
            while self.idle:
                worker = self.idle.pop()
                if worker.alive():
                    return worker
                worker.kill()
        return _Worker()

    def release(self, worker: _Worker) -> None:
        with self.lock:
            if len(self.idle) < MAX_IDLE_WORKERS and self.pid == os.getpid():
                self.idle.append(worker)
                return
        worker.close()

    def shutdown(self) -> None:
        with self.lock:
            workers, self.idle = self.idle, []
        if self.pid == os.getpid():
            for worker in workers:
                worker.close()


_pool = _Pool()


def call_with_time_limit(
    func: Callable[..., T], /, *args: Any, timeout_s: float, **kwargs: Any
) -> T:
    """Run ``func(*args, **kwargs)`` and return its result within ``timeout_s`` seconds.

    ``func`` must be a module-level function and its arguments and result picklable.
    Raises TimeLimitExceeded on overrun (the worker is killed) and WorkerError when the
    work raised or the worker died.
    """
    if _in_worker:
        try:
            with soft_time_limit(timeout_s):
                return func(*args, **kwargs)
        except TimeLimitExceeded:
            raise
        except MemoryError as exc:
            raise WorkerError("MemoryError") from exc
    worker = _pool.acquire()
    try:
        result = worker.run(func, args, kwargs, timeout_s)
    except TimeLimitExceeded:
        if worker.alive():
            _pool.release(worker)  # soft limit: the worker is fine
        raise
    except WorkerError:
        if worker.alive():
            _pool.release(worker)
        raise
    except BaseException:
        worker.kill()  # interrupted mid-call: its pipe may hold a stale reply
        raise
    _pool.release(worker)
    return result


def warm_up(workers: int = 1) -> None:
    """Start ``workers`` idle workers now, so a first check does not pay the start."""
    started = [_pool.acquire() for _ in range(workers)]
    for worker in started:
        _pool.release(worker)


def shutdown() -> None:
    """Stop idle workers and the worker server (tests, or before a fork)."""
    global _zygote
    _pool.shutdown()
    with _zygote_lock:
        if _zygote is not None and _zygote_pid == os.getpid():
            _zygote.close()
        _zygote = None


atexit.register(shutdown)
