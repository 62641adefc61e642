"""Thin Celery tasks for auto-labeling runs: ids in, a service call, nothing else."""

import random

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded

from autolabel.engines.checks import chunk_size_of
from autolabel.errors import BackendUnavailable
from autolabel.models import AutolabelRun, RunStatus
from autolabel.recovery import lost_work_requeue
from autolabel.registry import chunk_queue
from autolabel.run_chunks import autolabel_chunk_process
from autolabel.run_dispatch import run_dispatch_next
from autolabel.services import (
    autolabel_item_fail,
    autolabel_run_refresh,
    autolabel_run_start,
    autolabel_run_stopped,
)

MAX_RETRIES = 5


@shared_task(acks_late=True, reject_on_worker_lost=True)
def autolabel_run_start_task(run_id: int) -> int:
    """Write the run's items if it has none yet, and send its first window of chunks
    (autolabel.services.autolabel_run_start); each chunk sends the next."""
    run = AutolabelRun.objects.get(pk=run_id)
    if run.status in (RunStatus.CANCELLED, RunStatus.DONE, RunStatus.FAILED, RunStatus.PAUSED):
        return 0  # a duplicate delivery of a finished run, or a paused one (resume sends again)
    queue = chunk_queue(run.sources)

    def send(chunks: list[list[int]]) -> None:
        for chunk in chunks:
            autolabel_chunk_task.apply_async((run_id, chunk), queue=queue)

    # A run created over the API: its items written now, the first chunks sent after the first
    # batch of them.
    return autolabel_run_start(run=run, size=chunk_size_of(run.params), send=send)


def _send_next(run: AutolabelRun) -> None:
    """The chunk after this one, while the run runs (after this chunk's commits)."""
    chunk = run_dispatch_next(run=run, size=chunk_size_of(run.params))
    if chunk:
        autolabel_chunk_task.apply_async((run.pk, chunk), queue=chunk_queue(run.sources))


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
    if run.status in (RunStatus.PAUSED, RunStatus.CANCELLED):
        return 0  # its items stay pending: a resume sends them again (and sends no next)
    processed = 0
    try:
        processed = len(
            autolabel_chunk_process(
                run=run, solution_ids=solution_ids, stop=lambda: autolabel_run_stopped(run=run)
            )
        )
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
    _send_next(run)
    return processed


@shared_task(ignore_result=True)
def lost_work_requeue_task() -> dict[str, list[int]]:
    """Beat, every RECOVERY_SWEEP_S: send again the jobs a broker lost (autolabel.recovery)."""
    return lost_work_requeue()
