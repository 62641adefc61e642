"""Restart Redis (the broker) in the middle of an auto-label run with a real worker process.

A private redis-server of the test's own (never the shared one) is shut down mid-run with
SHUTDOWN SAVE, as a service restart does, and started again on the same port and directory. The
worker must reconnect by itself, and the run must complete with exactly one suggestion per
step and source.
"""

import subprocess
import time

import pytest
from django.db.models import Count

from autolabel.models import AutolabelItem, ItemStatus, RunStatus
from autolabel.services import autolabel_run_create
from autolabel.symbolic import check_step
from bench.load.procs import enqueue, start_worker, steplab_env, stop, wait_port
from labeling.models import Solution, Suggestion
from tests.faults.private_stack import live_database_url, start_private_redis

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _done(run) -> int:
    return AutolabelItem.objects.filter(run=run, status=ItemStatus.DONE).count()


def _broker_lost(log) -> bool:
    text = log.read_text()
    return "Connection to broker lost" in text or "Cannot connect to redis" in text


def test_worker_reconnects_after_redis_restart_and_the_run_completes(pb_project, tmp_path):
    redis = start_private_redis(tmp_path)
    env = steplab_env(live_database_url(), redis.url)
    run = autolabel_run_create(
        project=pb_project, sources=["symbolic", "answer"], params={"chunk_size": 2}
    )
    worker = None
    log = tmp_path / "worker.log"
    try:
        worker = start_worker(env, log, concurrency=1)
        # Enqueue from another process so the message goes to the private broker.
        enqueue(env, "autolabel.tasks.autolabel_run_start_task", run.pk)
        deadline = time.monotonic() + 90
        while _done(run) < 6 and time.monotonic() < deadline:
            time.sleep(0.05)
        done_before = _done(run)
        assert 6 <= done_before < run.total, (done_before, log.read_text()[-3000:])

        subprocess.run(
            ["redis-cli", "-p", str(redis.port), "shutdown", "save"], timeout=30, check=False
        )
        redis.proc.wait(30)
        # The worker sees the broker gone (its log says so) before the broker is back.
        deadline = time.monotonic() + 30
        while not _broker_lost(log) and time.monotonic() < deadline:
            time.sleep(0.05)
        redis.start()  # same port, same dir: the saved queue is loaded back
        wait_port(redis.port)

        deadline = time.monotonic() + 150
        while time.monotonic() < deadline:
            run.refresh_from_db()
            if run.status in (RunStatus.DONE, RunStatus.FAILED):
                break
            time.sleep(0.2)
        text = log.read_text()
        assert run.status == RunStatus.DONE, (run.status, _done(run), text[-4000:])
        assert worker.poll() is None, "the worker died instead of reconnecting"
    finally:
        stop(worker)
        redis.stop()

    assert _broker_lost(log), text[-3000:]
    assert (run.done, run.failed) == (run.total, 0)
    dupes = Suggestion.objects.values("step_id", "source").annotate(n=Count("id")).filter(n__gt=1)
    assert not dupes.exists(), list(dupes[:5])
    expected = 0  # and exactly the symbolic suggestions the checker gives
    for solution in Solution.objects.filter(project=pb_project):
        texts = list(solution.steps.order_by("index").values_list("text", flat=True))
        for i, text in enumerate(texts):
            verdict = check_step(text, previous_steps=texts[:i], problem=solution.problem.text)
            expected += verdict.verdict in ("verified", "refuted")
    assert Suggestion.objects.filter(source="symbolic").count() == expected
