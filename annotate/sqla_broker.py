"""The embedded broker (kombu's SQLAlchemy transport over a SQLite file), made safe for the two
threads of a worker that use one channel: the main loop polls (`_get`) while billiard's pool
thread sends back the message of a task whose process died (acks_late + reject_on_worker_lost:
`_restore` -> `_put`). kombu gives the channel one SQLAlchemy session, which is not thread-safe:
a `_put` during the poll's commit raised IllegalStateChangeError in the main loop, which Celery
treats as unrecoverable, so one killed pool process stopped the worker (and bin/serve with it).
Here each channel's session is used by one thread at a time."""

import functools
import threading
from collections.abc import Callable
from typing import Any

from kombu.transport import sqlalchemy as kombu_sqlalchemy

# Every Channel method that touches the session (_new_queue, _restore and the rest go through them).
SESSION_METHODS = ("_get_or_create", "_put", "_get", "_purge", "_size", "_query_all")


def _serialized(method: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(method)
    def run(self: "SerializedChannel", *args: Any, **kwargs: Any) -> Any:
        with self.session_lock:
            return method(self, *args, **kwargs)

    return run


class SerializedChannel(kombu_sqlalchemy.Channel):
    """kombu's SQLAlchemy channel whose session one thread uses at a time (an RLock: `_put` and
    `_get` call `_get_or_create`)."""

    def __init__(self, connection: Any, **kwargs: Any) -> None:
        self.session_lock = threading.RLock()
        super().__init__(connection, **kwargs)


for _name in SESSION_METHODS:
    setattr(SerializedChannel, _name, _serialized(getattr(kombu_sqlalchemy.Channel, _name)))


def install() -> None:
    """Make the SQLAlchemy transport open serialized channels (idempotent)."""
    kombu_sqlalchemy.Transport.Channel = SerializedChannel
