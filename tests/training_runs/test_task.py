"""training_run_task: routed to the gpu queue, acks late, and a redelivered copy never trains
a live run a second time."""

import pytest

from annotate.celery import app
from annotate.queues import Queue
from training_runs import tasks
from training_runs.execution import Outcome
from training_runs.services import HEARTBEAT_STALE_S
from training_runs.tasks import training_run_task


def test_routed_to_the_gpu_queue():
    route = app.amqp.router.route({}, training_run_task.name, args=(1,), kwargs={})
    assert route["queue"].name == Queue.GPU


def test_keeps_the_name_it_had_in_autolabel():
    """Messages queued before the move to training_runs name the old task; a worker runs them."""
    assert training_run_task.name == "autolabel.tasks.training_run_task"
    assert app.tasks["autolabel.tasks.training_run_task"] is training_run_task._get_current_object()


def test_survives_a_lost_worker_and_outlives_the_default_time_limit(settings):
    task = training_run_task._get_current_object()
    assert task.acks_late and task.reject_on_worker_lost
    assert task.soft_time_limit == settings.TRAINING_TIME_LIMIT_S > settings.CELERY_TASK_TIME_LIMIT
    assert task.time_limit > task.soft_time_limit


def test_a_busy_run_is_looked_at_once_more_after_a_heartbeat_period(monkeypatch):
    calls, retried = [], []
    monkeypatch.setattr(
        tasks, "training_run_execute", lambda run_id: calls.append(run_id) or Outcome.BUSY
    )

    class Retry(Exception):
        pass

    def retry(**kwargs):
        retried.append(kwargs)
        return Retry()

    monkeypatch.setattr(training_run_task, "retry", retry)
    with pytest.raises(Retry):
        training_run_task.apply(args=(7,), throw=True)
    assert calls == [7] and retried == [{"countdown": HEARTBEAT_STALE_S + 5}]
    # On the retry (retries == 1) a run still alive is left to its owner.
    result = training_run_task.apply(args=(7,), retries=1)
    assert result.get() == Outcome.BUSY and len(retried) == 1
