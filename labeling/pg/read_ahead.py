"""Producing the next items on a second thread while the caller works on the current one.

The import parses the next batches of a file while it writes one (psycopg releases the GIL
while it waits for PostgreSQL); the export reads the next chunks of rows while it formats
one. Items, and the producer's exception, come out in order, exactly as the plain iterator
gives them: a bad line still fails after the batches before it were written, and nothing else.
"""

import queue
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import TypeVar

T = TypeVar("T")

_DONE = object()


@contextmanager
def read_ahead(items: Iterable[T], *, depth: int = 2) -> Iterator[Iterator[T]]:
    """Iterate `items` on a thread, at most `depth` items ahead of the consumer.

    `items` runs on that thread only: a generator's own set-up and clean-up (an open cursor)
    happen there. On leaving the block, normally or because the consumer raised, the thread
    is stopped, `items` is closed and the thread joined, so what `items` uses (an open file,
    a transaction) can be closed after it.
    """
    ahead: queue.Queue = queue.Queue(maxsize=depth)
    stop = threading.Event()

    def put(entry: tuple[object, BaseException | None]) -> bool:
        while not stop.is_set():
            try:
                ahead.put(entry, timeout=0.05)
                return True
            except queue.Full:
                continue
        return False

    def produce() -> None:
        error: BaseException | None = None
        try:
            iterator = iter(items)
            try:
                for item in iterator:
                    if not put((item, None)):
                        break
            finally:
                if close := getattr(iterator, "close", None):
                    close()
        except BaseException as exc:  # handed to the consumer, raised there
            error = exc
        put((_DONE, error))

    def consume() -> Iterator[T]:
        while True:
            item, error = ahead.get()
            if error is not None:
                raise error
            if item is _DONE:
                return
            yield item

    thread = threading.Thread(target=produce, name="read-ahead", daemon=True)
    thread.start()
    try:
        yield consume()
    finally:
        stop.set()
        thread.join()
