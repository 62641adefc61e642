"""Pausing Python's cyclic garbage collector around a bulk import or export.

Both build about ten small objects per step that live for one batch or chunk (a thousand
solutions). Every one of them outlives a few young-generation collections, so in Python 3.11
they all reach the oldest generation, and the collector walks the whole heap (Django's and
every library's objects too) about once per batch: a third of an export's CPU time at 100k
solutions (bench/export_bench.py). Neither loop makes reference cycles, and memory stays
bounded by the batch, so the collector is paused while one runs and resumed after it.
"""

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_pauses = 0
_was_enabled = False


@contextmanager
def gc_paused() -> Iterator[None]:
    """Disable the cyclic collector inside the block (reference counting frees as usual).

    Nested or concurrent blocks (threads of one process) share one pause: the collector is
    enabled again, if it was enabled before the first, when the last block ends.
    """
    global _pauses, _was_enabled
    with _lock:
        if _pauses == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _pauses += 1
    try:
        yield
    finally:
        with _lock:
            _pauses -= 1
            if _pauses == 0 and _was_enabled:
                gc.enable()
