"""The transactional outbox: job creation that survives a broker (Redis) outage.

A job row and the OutboxMessage that starts it are written in one transaction
(`outbox_job_create`). After the commit the message is sent at once (`outbox_send`); when the
broker is unreachable that fails fast (one connection retry, no result-backend subscription)
and the message stays unsent, so the request still answers 202 with the pending job. The
outbox sweep (`outbox_drain`, run by beat every OUTBOX_SWEEP_S) sends what is unsent once the
broker is back. A message is marked sent under a row lock taken with SKIP LOCKED, so the
on-commit send and the sweep never both send it; a crash between the broker's accept and our
commit could send one twice, which the tasks tolerate (each is a no-op for a finished job).

The client's idempotency key (Idempotency-Key header or `request_id`) is stored on the message,
unique per user: a retry after a timeout gets the job the first request made.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import timedelta
from typing import Any, TypeVar

from django.db import IntegrityError, transaction
from django.utils import timezone

from labeling.errors import Conflict
from labeling.models import OutboxMessage

log = logging.getLogger(__name__)

Job = TypeVar("Job")
# Sent per sweep at most; the rest waits for the next one.
DRAIN_BATCH = 500
PUBLISH_TIMEOUTS = {"socket_timeout": 3.0, "socket_connect_timeout": 2.0}
# Brokers whose transport takes socket timeouts. kombu's SQLAlchemy transport (the SQLite-file
# broker of `make run`) hands its options to create_engine, which refuses them: every send
# from a process whose first broker connection was this one failed, and each job waited for
# the sweep.
SOCKET_BROKERS = ("redis://", "rediss://", "sentinel://")


def publish_options(broker_url: str, configured: dict | None) -> dict:
    """The transport options of the outbox's connection: the configured ones, and short
    socket timeouts where the broker's transport understands them."""
    options = dict(configured or {})
    if broker_url.startswith(SOCKET_BROKERS):
        options.update(PUBLISH_TIMEOUTS)
    return options


def _publish(messages: list[OutboxMessage]) -> None:
    """Send over one broker connection; raises (kombu OperationalError, OSError) when the
    broker cannot be reached, after one quick retry."""
    from annotate.celery import app

    # Socket timeouts on this connection only: a Redis that accepts connections and never
    # answers (frozen, SIGSTOP) would otherwise hold the request (workers keep their own).
    url = str(app.conf.broker_write_url or app.conf.broker_url or "")
    options = publish_options(url, app.conf.broker_transport_options)
    with app.connection_for_write(transport_options=options) as conn:
        conn.ensure_connection(max_retries=1, interval_start=0, interval_step=0.2, timeout=2)
        for message in messages:
            # ignore_result: with the Redis result backend, a send that expects a result first
            # subscribes to it and, with Redis down, retries for 20 s and then poisons the
            # process ("the Celery application must be restarted"). Nobody reads the results.
            app.send_task(
                message.task,
                args=message.args,
                queue=message.queue or None,
                connection=conn,
                retry=False,
                ignore_result=True,
            )


def _send_locked(messages: list[OutboxMessage]) -> int:
    """Send messages whose rows the caller holds locked; records the outcome on each."""
    if not messages:
        return 0
    now = timezone.now()
    try:
        _publish(messages)
    except Exception as exc:  # the broker is down or refused: leave them for the sweep
        error = f"{type(exc).__name__}: {exc}"[:2000]
        log.warning("broker unreachable, %d outbox message(s) unsent: %s", len(messages), error)
        for message in messages:
            message.attempts += 1
            message.last_error = error
        OutboxMessage.objects.bulk_update(messages, ["attempts", "last_error"])
        return 0
    for message in messages:
        message.attempts += 1
        message.sent_at = now
    OutboxMessage.objects.bulk_update(messages, ["attempts", "sent_at"])
    return len(messages)


def outbox_send(*, message_id: int) -> bool:
    """Send one message unless it is sent already or someone else is sending it."""
    with transaction.atomic():
        message = (
            OutboxMessage.objects.select_for_update(skip_locked=True)
            .filter(pk=message_id, sent_at__isnull=True)
            .first()
        )
        return bool(message and _send_locked([message]))


def outbox_drain(*, limit: int = DRAIN_BATCH) -> int:
    """The sweep: send the oldest unsent messages; returns how many went out."""
    with transaction.atomic():
        messages = list(
            OutboxMessage.objects.select_for_update(skip_locked=True)
            .filter(sent_at__isnull=True)
            .order_by("created_at", "pk")[:limit]
        )
        return _send_locked(messages)


def outbox_prune(*, keep_days: int) -> int:
    """Forget messages sent over `keep_days` ago (their idempotency keys with them: a client
    retries within minutes, not days); returns how many were deleted."""
    cutoff = timezone.now() - timedelta(days=keep_days)
    deleted, _ = OutboxMessage.objects.filter(sent_at__lt=cutoff).delete()
    return deleted


def outbox_add(
    *,
    task: str,
    args: list[Any],
    created_by: Any = None,
    idempotency_key: str = "",
    queue: str = "",
) -> OutboxMessage:
    """Store a message in the caller's transaction; it is sent after the commit."""
    message = OutboxMessage.objects.create(
        task=task,
        args=args,
        queue=queue,
        created_by=created_by if getattr(created_by, "pk", None) else None,
        idempotency_key=idempotency_key,
    )
    # robust: a failure there is logged by Django, never turned into an error of the request
    # whose transaction already committed.
    transaction.on_commit(lambda: outbox_send(message_id=message.pk), robust=True)
    return message


def _job_id_for_key(*, user: Any, key: str, task: str) -> int | None:
    found = (
        OutboxMessage.objects.filter(created_by=user, idempotency_key=key)
        .values_list("task", "args")
        .first()
    )
    if found is None:
        return None
    if found[0] != task:
        raise Conflict(
            "This idempotency key was already used for another kind of request.",
            idempotency_key=key,
        )
    return found[1][0]


def outbox_job_create(
    *,
    task: str,
    create: Callable[[], Job],
    fetch: Callable[[int], Job | None],
    created_by: Any,
    idempotency_key: str = "",
) -> tuple[Job, bool]:
    """Create a job with `create()` and its start message in one transaction.

    Returns (job, created). With an idempotency key already used by this user for `task`,
    nothing is created and the job made then is returned (`fetch(id)`, None when it is not the
    caller's to see here: a 409); two concurrent requests with one key make one job (the unique
    constraint refuses the second, which then answers the first one's job).
    """

    def existing(job_id: int) -> Job:
        job = fetch(job_id)
        if job is None:
            raise Conflict(
                "This idempotency key was already used for another request.",
                idempotency_key=idempotency_key,
            )
        return job

    user = created_by if getattr(created_by, "pk", None) else None
    if idempotency_key and user is not None:
        found = _job_id_for_key(user=user, key=idempotency_key, task=task)
        if found is not None:
            return existing(found), False
    else:
        idempotency_key = ""
    try:
        with transaction.atomic():
            job = create()
            outbox_add(
                task=task,
                args=[job.pk],  # type: ignore[attr-defined]
                created_by=user,
                idempotency_key=idempotency_key,
            )
    except IntegrityError:
        found = (
            _job_id_for_key(user=user, key=idempotency_key, task=task) if idempotency_key else None
        )
        if found is None:
            raise
        return existing(found), False
    return job, True


def outbox_unsent_jobs() -> set[tuple[str, int]]:
    """(task, job id) of every unsent message: the recovery sweep leaves those to the outbox."""
    return {
        (task, args[0])
        for task, args in OutboxMessage.objects.filter(sent_at__isnull=True).values_list(
            "task", "args"
        )
        if args
    }
