"""Run one callable from many threads at once, each with its own database connection."""

import threading
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
