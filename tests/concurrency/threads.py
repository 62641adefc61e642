"""Run one callable from many threads at once, each with its own database connection."""

import threading
import time
from collections.abc import Callable
from typing import Any

from django.db import connections


def run_threads(n: int, target: Callable[[int], Any]) -> list:
    """``target(i)`` for i in 0..n-1, started together behind a barrier; the results in order.

    Each thread closes its connections when done. Any exception fails the calling test.
    """
    barrier = threading.Barrier(n)
    results: list = [None] * n
    errors: list[BaseException] = []

    def run(i: int) -> None:
        try:
            barrier.wait()
            results[i] = target(i)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors, errors
    return results


def held(
    first: Callable[[], Any], second: Callable[[], Any], *, wait_s: float = 0.5
) -> tuple[Any, Any]:
    """Run `first` in a transaction kept open while `second` runs on another connection, and
    commit it `wait_s` later: the interleaving in which the second read a row before the first
    committed. Each result is the call's return value or the exception it raised (the first's
    commit included)."""
    from django.db import transaction

    ready, release = threading.Event(), threading.Event()
    results: list[Any] = [None, None]

    def one() -> None:
        try:
            with transaction.atomic():
                try:
                    results[0] = first()
                finally:
                    ready.set()
                    release.wait(10)
        except Exception as exc:  # noqa: BLE001 - the caller asserts on it
            results[0] = exc
        finally:
            ready.set()
            connections.close_all()

    def two() -> None:
        try:
            results[1] = second()
        except Exception as exc:  # noqa: BLE001 - the caller asserts on it
            results[1] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=one), threading.Thread(target=two)]
    threads[0].start()
    assert ready.wait(10)
    threads[1].start()
    time.sleep(wait_s)  # the second now waits on a lock, or is done without waiting
    release.set()
    for t in threads:
        t.join(20)
    assert not any(t.is_alive() for t in threads), "a thread hung"
    return results[0], results[1]
