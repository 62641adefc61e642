"""SIGKILL a real `gpu` worker mid-training on Redis: its trainer dies with it, and a new worker
takes the run over once the lease is stale, resumes from the last checkpoint and finishes it."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from annotate.celery import app
from training_runs.models import PrmModel, TrainingRun
from training_runs.services import run_dir, training_run_create
from training_runs.tasks import training_run_task

from .conftest import FAST_CONFIG
from .test_end_to_end import _trainer_pids

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

STEPS = 150


def _start_worker(name: str, log: Path, training_root: Path) -> subprocess.Popen:
    db = connection.settings_dict
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "annotate.settings.test",
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "REDIS_URL": settings.REDIS_URL,
        "TRAINING_ROOT": str(training_root),
        "TRAINING_HEARTBEAT_STALE_S": "3",
        # Redeliver a dead worker's unacked tasks after 2 s instead of an hour.
        "CELERY_VISIBILITY_TIMEOUT": "2",
        "CELERY_BROKER_TRANSPORT_OPTIONS": json.dumps(
            {"unacked_restore_interval": 1, "unacked_restore_throttle": 1}
        ),
    }
    command = [sys.executable, "-m", "celery", "-A", "annotate", "worker", "-Q", "gpu"]
    command += ["--concurrency", "1", "-n", f"{name}@%h", "-l", "info"]
    command += ["--without-gossip", "--without-mingle", "--without-heartbeat"]
    return subprocess.Popen(
        command,
        cwd=ROOT,
        env=env,
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,  # its own process group: SIGKILL takes the pool child too
    )


def _wait(predicate, timeout: float, message) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, message()
        time.sleep(0.2)


def test_a_killed_trainer_worker_is_taken_over_and_resumed(
    train_project, trl_export, base_model, training_root, tmp_path
):
    if not settings.REDIS_URL:
        pytest.skip("needs Redis (REDIS_URL)")
    with app.connection_for_write() as conn:
        conn.default_channel.queue_purge("gpu")
    # Enough steps that the kill at step 6 lands mid-run on an idle machine too.
    config = {**FAST_CONFIG, "max_steps": STEPS, "save_every": 4, "keep_checkpoints": 1}
    run = training_run_create(
        project=train_project, export=trl_export, base_model=str(base_model), config=config
    )
    config_path = run_dir(run) / "train_config.json"
    logs = {name: tmp_path / f"{name}.log" for name in ("first", "second")}
    first = _start_worker("first", logs["first"], training_root)
    second = None
    try:
        training_run_task.delay(run.pk)

        def past_a_checkpoint() -> bool:
            run.refresh_from_db()
            return run.step >= 6

        _wait(past_a_checkpoint, 120, lambda: logs["first"].read_text())
        assert _trainer_pids(config_path)
        os.killpg(first.pid, signal.SIGKILL)
        first.wait(10)
        # PR_SET_PDEATHSIG: the trainer does not outlive its worker.
        _wait(lambda: not _trainer_pids(config_path), 10, lambda: "the trainer survived")
        assert run.step < STEPS
        first_worker = run.worker

        time.sleep(2.5)  # past the visibility timeout: the killed worker's task is redelivered
        second = _start_worker("second", logs["second"], training_root)

        def finished() -> bool:
            run.refresh_from_db()
            return run.status in TrainingRun.FINISHED

        _wait(finished, 180, lambda: logs["second"].read_text()[-3000:])
    finally:
        for proc in (first, second):
            if proc and proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(10)

    assert run.status == "done", (run.error, run.log_tail[-2000:])
    assert run.attempts == 2 and run.worker != first_worker
    train_log = (run_dir(run) / "train.log").read_text()
    assert "resumed from" in train_log and "checkpoint-" in train_log
    assert run.step == STEPS and run.history[-1]["step"] == STEPS
    assert PrmModel.objects.filter(training_run=run).count() == 1
