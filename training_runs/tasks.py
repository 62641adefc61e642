"""Thin Celery task for PRM training runs: an id in, a service call, nothing else."""

from celery import shared_task
from django.conf import settings

from training_runs.execution import Outcome, training_run_execute
from training_runs.services import heartbeat_stale_s


@shared_task(
    # The name it had in autolabel.tasks: messages queued before the move still run, and
    # CELERY_TASK_ROUTES and the recovery sweep address it by this name.
    name="autolabel.tasks.training_run_task",
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
