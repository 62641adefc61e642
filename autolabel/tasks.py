"""Thin Celery tasks for auto-labeling runs: ids in, a service call, nothing else."""

import random

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings

from annotate.queues import Queue
from autolabel.errors import BackendUnavailable
from autolabel.models import AutolabelRun, RunStatus
from autolabel.recovery import lost_work_requeue
from autolabel.registry import ENGINES
from autolabel.services import (
    autolabel_chunk_prefetch,
    autolabel_item_fail,
    autolabel_item_process,
    autolabel_run_chunks,
    autolabel_run_refresh,
)
from autolabel.training_services import Outcome, heartbeat_stale_s, training_run_execute

MAX_RETRIES = 5
QUEUE_RANK = [Queue.DEFAULT, Queue.ROLLOUTS, Queue.GPU]


def chunk_queue(run: AutolabelRun) -> str:
    """A chunk runs on the most specialised queue any of its sources needs."""
    return max((ENGINES[s].queue for s in run.sources), key=QUEUE_RANK.index)


@shared_task(acks_late=True, reject_on_worker_lost=True)
def autolabel_run_start_task(run_id: int) -> int:
    run = AutolabelRun.objects.get(pk=run_id)
    if run.status == RunStatus.CANCELLED:
        return 0
    chunks = autolabel_run_chunks(run=run, size=int(run.params.get("chunk_size", 20)))
    queue = chunk_queue(run)
    for chunk in chunks:
        autolabel_chunk_task.apply_async((run_id, chunk), queue=queue)
    autolabel_run_refresh(run=run)
    return len(chunks)


@shared_task(
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=1800,
    time_limit=1900,
    max_retries=MAX_RETRIES,
)
def autolabel_chunk_task(self, run_id: int, solution_ids: list[int]) -> int:
    run = AutolabelRun.objects.get(pk=run_id)
    processed = 0
    try:
        autolabel_chunk_prefetch(run=run, solution_ids=solution_ids)
        for solution_id in solution_ids:
            if AutolabelRun.objects.filter(pk=run_id, status=RunStatus.CANCELLED).exists():
                break
            if autolabel_item_process(run=run, solution_id=solution_id) is not None:
                processed += 1
    except BackendUnavailable as exc:
        if self.request.retries >= MAX_RETRIES:
            autolabel_item_fail(run=run, solution_ids=solution_ids, error=f"Backend down: {exc}")
        else:
            # Exponential backoff with full jitter; the items already done stay done.
            countdown = random.uniform(0, min(300, 2 ** (self.request.retries + 1)))
            raise self.retry(exc=exc, countdown=countdown) from exc
    except SoftTimeLimitExceeded:
        autolabel_item_fail(run=run, solution_ids=solution_ids, error="Time limit exceeded.")
    autolabel_run_refresh(run=run)
    return processed


@shared_task(
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    # Training outlives the default one-hour limits; the hard limit kills the pool process and
    # with it the trainer (PR_SET_PDEATHSIG), the soft one lets the service kill it first.
    time_limit=settings.TRAINING_TIME_LIMIT_S + 120,
    soft_time_limit=settings.TRAINING_TIME_LIMIT_S,
    max_retries=1,
)
def training_run_task(self, run_id: int) -> str:
    """Route: the `gpu` queue (CELERY_TASK_ROUTES). A redelivered copy that finds the run
    alive waits one heartbeat period and looks again: a lease that went stale meanwhile was
    held by a lost worker and is taken over; a live one is left to its owner."""
    outcome = training_run_execute(run_id=run_id)
    if outcome == Outcome.BUSY and self.request.retries == 0:
        raise self.retry(countdown=heartbeat_stale_s() + 5)
    return outcome


@shared_task(ignore_result=True)
def lost_work_requeue_task() -> dict[str, list[int]]:
    """Beat, every RECOVERY_SWEEP_S: send again the jobs a broker lost (autolabel.recovery)."""
    return lost_work_requeue()
