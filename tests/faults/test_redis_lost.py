"""Redis SIGKILLed with no persistence in the middle of an auto-label run and an export.

Unlike a restart (test_redis_restart.py, which saves the queue), the broker comes back EMPTY:
every queued chunk message is gone, and so is the queued export. The worker reconnects, the
beat in it runs the recovery sweep (autolabel.recovery) every 2 s, and the sweep sends
each lost job again once it showed no sign of life for RECOVERY_STALL_S: the run completes with
exactly one suggestion per step and source, and the export is built.
"""

import os
import signal
import subprocess
import time

import pytest
from django.conf import settings
from django.db.models import Count

from autolabel.models import AutolabelItem, ItemStatus, RunStatus
from autolabel.services import autolabel_run_create
from bench.load.procs import enqueue, start_worker, steplab_env, stop
from labeling.models import Export, Suggestion
from labeling.models.exports import ExportStatus
from labeling.services.exports.snapshots import export_create
from tests.faults.private_stack import live_database_url, start_private_redis

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _done(run) -> int:
    return AutolabelItem.objects.filter(run=run, status=ItemStatus.DONE).count()


def _redis(port: int, *args: str) -> str:
    # The database the worker's broker uses there (annotate/settings/test.py: TEST_BROKER_DB,
    # one per pytest-xdist worker; the worker process inherits PYTEST_XDIST_WORKER).
    command = ["redis-cli", "-p", str(port), "-n", str(settings.TEST_BROKER_DB), *args]
    out = subprocess.run(command, capture_output=True, text=True, timeout=10)
    return out.stdout.strip()


def test_jobs_whose_messages_redis_lost_are_sent_again_and_finish(pb_project, tmp_path):
    redis = start_private_redis(tmp_path)
    env = steplab_env(live_database_url(), redis.url, RECOVERY_STALL_S="3", RECOVERY_SWEEP_S="2")
    run = autolabel_run_create(
        project=pb_project, sources=["symbolic", "answer"], params={"chunk_size": 2}
    )
    worker = None
    log = tmp_path / "worker.log"
    try:
        # No worker yet: the start task, and (once it ran) the chunks, wait in Redis.
        enqueue(env, "autolabel.tasks.autolabel_run_start_task", run.pk)
        worker = start_worker(env, log, concurrency=1, beat_schedule=tmp_path / "beat")
        deadline = time.monotonic() + 90
        while _done(run) < 6 and time.monotonic() < deadline:
            time.sleep(0.05)
        done_before = _done(run)
        assert 6 <= done_before < run.total, (done_before, log.read_text()[-3000:])
        # Freeze the worker so nothing more leaves the broker, and queue an export: both the
        # run's remaining chunks and the export are now only in Redis.
        os.killpg(worker.pid, signal.SIGSTOP)
        export = export_create(project=pb_project, created_by=None, format="trl")
        enqueue(env, "labeling.tasks.export_build_task", export.pk)
        assert int(_redis(redis.port, "llen", "autolabel") or 0) > 0, "no chunk was queued"
        assert _redis(redis.port, "llen", "exports") == "1"

        stop(redis.proc, signal.SIGKILL)  # no shutdown save: the data is gone
        redis.proc = None
        redis.start()
        assert _redis(redis.port, "dbsize") == "0", "the broker kept its data"
        assert AutolabelItem.objects.filter(run=run, status=ItemStatus.PENDING).count() > 2
        os.killpg(worker.pid, signal.SIGCONT)

        deadline = time.monotonic() + 150
        while time.monotonic() < deadline:
            run.refresh_from_db()
            export.refresh_from_db()
            finished = run.status in (RunStatus.DONE, RunStatus.FAILED)
            if finished and export.status in (ExportStatus.DONE, ExportStatus.FAILED):
                break
            time.sleep(0.2)
        text = log.read_text()
        assert run.status == RunStatus.DONE, (run.status, _done(run), text[-4000:])
        assert export.status == ExportStatus.DONE, (export.status, export.error, text[-4000:])
        assert worker.poll() is None, "the worker died instead of reconnecting"
    finally:
        stop(worker)
        redis.stop()

    assert f"autolabel run {run.pk} was lost by the broker" in text, text[-4000:]
    assert f"export {export.pk} was lost by the broker" in text, text[-4000:]
    assert (run.done, run.failed) == (run.total, 0)
    dupes = Suggestion.objects.values("step_id", "source").annotate(n=Count("id")).filter(n__gt=1)
    assert not dupes.exists(), list(dupes[:5])
    assert Export.objects.get(pk=export.pk).sha256  # a file was written and stored
