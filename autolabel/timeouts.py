"""Hard time limits for symbolic work, in any thread.

sympy and math-verify can run for minutes on small inputs (``10^{10^{10}}``), and a signal
only interrupts Python between bytecodes and only in the main thread. So the work runs in a
pooled worker process and the caller waits at most ``timeout_s``; a worker that overruns is
killed (SIGKILL always works) and replaced.

* :func:`call_with_time_limit` runs a module-level function in a worker. Thread-safe: each
  calling thread checks out its own worker. Workers start from a forkserver (forking a
  clean single-threaded server is safe even when the caller has threads), preload the
  modules registered with :func:`register_preload`, and report "ready" before any clock
  starts: the limit covers the work, not the one-time start (about 0.3 s for the first
  worker, about 10 ms for a replacement).
* :func:`soft_time_limit` is for code that already runs in a worker (whose main thread owns
  SIGALRM): a nested, signal-based limit so one slow sub-check does not cost the others.
* Inside a worker, :func:`call_with_time_limit` runs inline under :func:`soft_time_limit`
  instead of starting a grandchild.
"""

from __future__ import annotations

import atexit
import contextlib
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from multiprocessing.connection import Connection
from typing import Any, TypeVar

T = TypeVar("T")

START_TIMEOUT_S = 60.0  # a cold forkserver imports sympy once; generous on a loaded machine
MAX_IDLE_WORKERS = 4
WORKER_MEMORY_BYTES = 4 << 30  # RLIMIT_AS: 10**(10**10) fails with MemoryError, not swap

_preload: list[str] = []
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


# --- worker process ---------------------------------------------------------------------


def _worker_main(conn: Connection, preload: list[str], memory_bytes: int) -> None:
    global _in_worker
    _in_worker = True
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C goes to the parent, which kills us
    with contextlib.suppress(ValueError, OSError):
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    import importlib

    for name in preload:
        importlib.import_module(name)
    conn.send(("ready", None))
    while True:
        try:
            func, args, kwargs, soft_s = conn.recv()
        except (EOFError, OSError):
            return  # the parent is gone
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
        except Exception as exc:  # unpicklable result
            conn.send(("error", f"result not picklable: {exc}"))


def _context() -> multiprocessing.context.BaseContext:
    if "forkserver" in multiprocessing.get_all_start_methods():
        from multiprocessing import forkserver

        if getattr(forkserver._forkserver, "_forkserver_pid", None) is None:
            multiprocessing.set_forkserver_preload(list(_preload))
        return multiprocessing.get_context("forkserver")
    return multiprocessing.get_context("spawn")


class _Worker:
    def __init__(self) -> None:
        ctx = _context()
        self.conn, child = ctx.Pipe()
        # Not daemonic: daemonic processes may not have children, and callers may be one.
        self.proc = ctx.Process(
            target=_worker_main,
            args=(child, list(_preload), WORKER_MEMORY_BYTES),
            name="autolabel-check",
            daemon=False,
        )
        self.proc.start()
        child.close()
        if not self.conn.poll(START_TIMEOUT_S):
            self.kill()
            raise WorkerError("check worker did not start")
        try:
            self.conn.recv()
        except EOFError as exc:
            self.kill()
            raise WorkerError("check worker died while starting") from exc

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
        return self.proc.is_alive()

    def kill(self) -> None:
        with contextlib.suppress(Exception):
            self.proc.kill()
            self.proc.join(1.0)
        with contextlib.suppress(Exception):
            self.conn.close()

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.conn.close()  # the worker sees EOF and exits
            self.proc.join(0.5)
        if self.proc.is_alive():
            self.kill()


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
atexit.register(_pool.shutdown)  # before multiprocessing's own exit hook joins children


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
    """Stop idle workers (tests, or before a fork)."""
    _pool.shutdown()
