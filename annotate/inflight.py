"""What the Celery workers hold right now, and how many messages wait in a queue.

The recovery sweep (autolabel.recovery) asks this before it sends a job's task again: work
whose message a worker holds (running, prefetched, or waiting for a retry's countdown) or
that may still be waiting in its queue is left alone; only work nobody holds was lost.
"""

from __future__ import annotations

from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from kombu.exceptions import ChannelError, OperationalError

from annotate.celery import app


@dataclass(frozen=True)
class InFlight:
    """The (task name, first argument) of every task the answering workers hold."""

    held: frozenset[tuple[str, object]]
    workers: int

    def holds(self, task: str, first_arg: object) -> bool:
        return (task, first_arg) in self.held


def _requests(replies: dict | None) -> Iterable[dict]:
    for tasks in (replies or {}).values():
        for task in tasks:
            # `scheduled` wraps the request: {"eta": ..., "priority": ..., "request": {...}}
            yield task.get("request", task)


def in_flight(timeout: float = 1.0) -> InFlight | None:
    """Ask every worker what it runs, has prefetched, and holds for a later retry.

    None when no worker answers (none is running, or the broker cannot broadcast, as
    kombu's SQLAlchemy transport): then nobody can tell what is lost, and nothing should
    be sent again.
    """
    inspect = app.control.inspect(timeout=timeout)
    # The three questions at once: each waits the whole timeout for replies.
    with ThreadPoolExecutor(3) as pool:
        asked = [pool.submit(ask) for ask in (inspect.active, inspect.reserved, inspect.scheduled)]
        try:
            replies = [future.result() for future in asked]
        except (OperationalError, ChannelError, OSError, NotImplementedError):
            return None
    if not any(replies):
        return None
    held = set()
    for reply in replies:
        for request in _requests(reply):
            args = request.get("args") or []
            if isinstance(args, str):  # Celery < 5 sent a repr
                continue
            held.add((request.get("name"), args[0] if args else None))
    workers = set().union(*(reply or {} for reply in replies))
    return InFlight(held=frozenset(held), workers=len(workers))


def queue_depth(queue: str) -> int:
    """Messages waiting in a queue (0 for one the broker has never seen, or that emptied:
    Redis deletes an empty list)."""
    with app.connection_for_read() as connection:
        try:
            return connection.default_channel.queue_declare(queue=queue, passive=True).message_count
        except ChannelError:
            return 0
