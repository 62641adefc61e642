"""Consuming a stream of items in a second process while this one produces them.

An export reads its chunks from PostgreSQL (waiting on the server, decoding rows) and turns
them into the file's bytes (pure Python, most of its CPU). In one process both hold the GIL
in turn; here the formatting runs in a forked child (`consume_in_process`) and this process
only reads, so the two use two cores. Items go over a pipe pickled (plain rows: tuples of
str, int, datetime, dict), one at a time: the parent blocks sending the next item while the
child works on the one before, so at most about two items are in flight (bounded memory).

The child touches no database (the parent's connection and its snapshot stay the parent's;
the child exits with os._exit, closing nothing it inherited). What `consume` returns, or the
exception it raised, comes back pickled; the child's progress comes back as counts. A child
that dies (killed, out of memory) raises `FormatterDied` in the parent; an exception in the
parent (a failed read) kills the child. Either way the caller publishes nothing.
"""

import contextlib
import logging
import multiprocessing
import os
import pickle
import signal
import traceback
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")

logger = logging.getLogger(__name__)

_PROTOCOL = pickle.HIGHEST_PROTOCOL
_END = b""  # an empty message ends the items


class FormatterDied(RuntimeError):
    """The formatting process ended without a result."""


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity, as a container's cpuset limits it)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def fork_available() -> bool:
    return "fork" in multiprocessing.get_all_start_methods()


def _child(
    consume: Callable[[Iterator[Any], Callable[[int], None]], Any],
    feed: Any,
    back: Any,
    parent_ends: tuple[Any, ...],
) -> None:
    for end in parent_ends:
        end.close()
    # The parent's handlers (a Celery worker's) are not this process's: a terminate ends it.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def items() -> Iterator[Any]:
        while True:
            data = feed.recv_bytes()
            if data == _END:
                return
            yield pickle.loads(data)

    def report(n: int) -> None:
        back.send(("progress", n, ""))

    try:
        result = consume(items(), report)
    except BaseException as exc:  # handed to the parent, raised there
        detail = traceback.format_exc()
        try:
            message = pickle.dumps(("error", exc, detail), protocol=_PROTOCOL)
        except Exception:  # an exception that does not pickle: its words
            message = pickle.dumps(
                ("error", RuntimeError(f"{type(exc).__name__}: {exc}"), detail),
                protocol=_PROTOCOL,
            )
        back.send_bytes(message)
        return
    back.send_bytes(pickle.dumps(("done", result, ""), protocol=_PROTOCOL))


def _died(process: Any) -> FormatterDied:
    process.join(5)
    code = process.exitcode
    how = f"killed by signal {-code}" if code is not None and code < 0 else f"exit code {code}"
    return FormatterDied(f"the export's formatting process died ({how}) before it finished")


def _receive(back: Any, process: Any, on_progress: Callable[[int], None]) -> tuple[str, Any] | None:
    """One message from the child (blocks until there is one): progress is passed on (None);
    else its ("result" | "error", value). FormatterDied where the child ended without one."""
    try:
        kind, value, detail = back.recv()
    except (EOFError, OSError):
        raise _died(process) from None
    if kind == "progress":
        on_progress(value)
        return None
    if kind == "error":
        logger.warning("the export's formatting process failed:\n%s", detail)
    return kind, value


def _answer(back: Any, process: Any, on_progress: Callable[[int], None]) -> tuple[str, Any]:
    """The next result or error from the child, passing its progress on."""
    while True:
        message = _receive(back, process, on_progress)
        if message is not None:
            return message


def _drain(back: Any, process: Any, on_progress: Callable[[int], None]) -> None:
    """Pass on the progress the child has sent so far, without waiting; raise its error, or
    FormatterDied where it has ended."""
    while back.poll():
        message = _receive(back, process, on_progress)
        if message is None:
            continue
        kind, value = message
        if kind == "error":
            raise value
        raise _died(process)  # a result before the end of its items: it cannot have one


def consume_in_process(
    items: Iterable[T],
    consume: Callable[[Iterator[T], Callable[[int], None]], R],
    *,
    on_progress: Callable[[int], None],
) -> R:
    """`consume(items, report)` run in a forked child while this process iterates `items`
    and sends them to it; returns what it returned, or raises what it raised. `report(n)` in
    the child calls `on_progress(n)` here, in order, before the result is returned."""
    context = multiprocessing.get_context("fork")
    feed_out, feed_in = context.Pipe(duplex=False)  # (receiving end, sending end)
    back_out, back_in = context.Pipe(duplex=False)
    process = context.Process(
        target=_child,
        args=(consume, feed_out, back_in, (feed_in, back_out)),
        name="export-format",
        daemon=True,
    )
    with _parent_may_fork():
        process.start()
    feed_out.close()
    back_in.close()
    finished = False
    try:
        for item in items:
            data = pickle.dumps(item, protocol=_PROTOCOL)
            _drain(back_out, process, on_progress)
            try:
                feed_in.send_bytes(data)
            except OSError:  # BrokenPipeError: it is gone; its error, if it sent one
                kind, value = _answer(back_out, process, on_progress)
                raise value if kind == "error" else _died(process) from None
        feed_in.send_bytes(_END)
        kind, value = _answer(back_out, process, on_progress)
        finished = True
        if kind == "error":
            raise value
        return value
    finally:
        feed_in.close()
        back_out.close()
        if finished:  # it has answered and is exiting
            process.join(5)
        _stop(process)
        process.close()


@contextlib.contextmanager
def _parent_may_fork() -> Iterator[None]:
    """Let a daemonic process start the child. Celery's prefork pool runs tasks in daemonic
    processes (billiard), and multiprocessing refuses children there ("daemonic processes are
    not allowed to have children") because a daemon's children would outlive it; this child
    cannot: it is stopped in `consume_in_process`'s finally, and a parent that dies closes the
    pipe it reads, which ends it."""
    current = multiprocessing.current_process()
    daemonic = current._config.get("daemon")
    current._config["daemon"] = False
    try:
        yield
    finally:
        current._config["daemon"] = daemonic


def _stop(process: Any) -> None:
    """End a child still running (this process failed, or was told to stop)."""
    if not process.is_alive():
        process.join()
        return
    process.terminate()
    process.join(5)
    if process.is_alive():
        process.kill()
        process.join()
