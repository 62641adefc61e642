"""SIGKILL a real Celery worker mid-run on Redis; a new worker finishes the run, no duplicates.

The killed worker's unacked tasks come back after the visibility timeout. A task it had taken
off the queue but not yet recorded as unacked (kombu's Redis transport has that window between
BRPOP and its bookkeeping; a loaded machine widens it) comes back through the recovery sweep
(autolabel.recovery), as in production: the new worker runs beat with a short sweep."""

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
from django.db.models import Count

from annotate.celery import app
from autolabel.models import AutolabelItem, ItemStatus, RunStatus
from autolabel.services import autolabel_run_create
from autolabel.symbolic import check_step
from autolabel.tasks import autolabel_run_start_task
from labeling.models import Solution, Suggestion

ROOT = Path(__file__).resolve().parents[2]
STEP_S = 10.0  # the symbolic check's timeout_s per step, here and in the workers
pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _start_worker(name: str, log: Path, *, beat_schedule: Path | None = None) -> subprocess.Popen:
    db = connection.settings_dict
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "annotate.settings.test",
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "REDIS_URL": settings.REDIS_URL,
        # Redeliver a dead worker's unacked tasks after 2 s instead of an hour.
        "CELERY_VISIBILITY_TIMEOUT": "2",
        "CELERY_BROKER_TRANSPORT_OPTIONS": json.dumps(
            {"unacked_restore_interval": 1, "unacked_restore_throttle": 1}
        ),
        # A window of two chunks (autolabel.run_dispatch) for a run of 50: the kill lands while
        # chunks send their next ones, and a chunk sent but lost with the worker comes back.
        "AUTOLABEL_CHUNKS_IN_FLIGHT": "2",
        "RECOVERY_STALL_S": "4",
        "RECOVERY_SWEEP_S": "1",
    }
    beat = ["-B", "-s", str(beat_schedule)] if beat_schedule else []
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "annotate",
            "worker",
            "-Q",
            "default,autolabel",
            "--concurrency",
            "1",
            "-n",
            f"{name}@%h",
            "-l",
            "info",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
            *beat,
        ],
        cwd=ROOT,
        env=env,
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,  # its own process group: SIGKILL takes the pool child too
    )


def _items(run, status) -> int:
    return AutolabelItem.objects.filter(run=run, status=status).count()


def test_killed_worker_then_a_new_one_completes_the_run(pb_project, tmp_path):
    if not settings.REDIS_URL:
        pytest.skip("needs Redis (REDIS_URL)")
    with app.connection_for_write() as conn:
        conn.default_channel.queue_purge("default")
        conn.default_channel.queue_purge("autolabel")
    # Step budgets the machine's load cannot reach (a claim's soft limit is half of it: 5 s
    # against the longest claim's 0.5 s wall at load 7), so the worker's verdicts are the
    # ones this process computes below; at the default 2 s a busy machine turned a verified
    # step into "time limit" in one process and not the other (281 against 282 at -n 4).
    run = autolabel_run_create(
        project=pb_project,
        sources=["symbolic"],
        params={"chunk_size": 2, "symbolic": {"timeout_s": STEP_S}},
    )
    first = _start_worker("first", tmp_path / "first.log")
    second = None
    try:
        autolabel_run_start_task.delay(run.pk)
        deadline = time.monotonic() + 60
        while _items(run, ItemStatus.DONE) < 10 and time.monotonic() < deadline:
            time.sleep(0.05)
        os.killpg(first.pid, signal.SIGKILL)
        first.wait(10)
        done_at_kill = _items(run, ItemStatus.DONE)
        assert 10 <= done_at_kill < run.total, (done_at_kill, (tmp_path / "first.log").read_text())

        time.sleep(2.5)  # past the visibility timeout: the killed worker's tasks are redelivered
        second = _start_worker("second", tmp_path / "second.log", beat_schedule=tmp_path / "beat")
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            run.refresh_from_db()
            if run.status == RunStatus.DONE:
                break
            time.sleep(0.2)
        log = (tmp_path / "second.log").read_text()
        assert run.status == RunStatus.DONE, log
    finally:
        for proc in (first, second):
            if proc and proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(10)

    assert (run.done, run.failed) == (run.total, 0)
    # Exactly one suggestion per step and source, and exactly the ones the checker gives:
    # step by step, the same verdict, so a lost or extra label names its step.
    dupes = Suggestion.objects.values("step_id", "source").annotate(n=Count("id")).filter(n__gt=1)
    assert not dupes.exists()
    expected = {}
    for solution in Solution.objects.filter(project=pb_project):
        steps = list(solution.steps.order_by("index").values_list("pk", "text"))
        texts = [text for _, text in steps]
        for i, (step_id, text) in enumerate(steps):
            verdict = check_step(
                text, previous_steps=texts[:i], problem=solution.problem.text, timeout_s=STEP_S
            )
            if verdict.verdict in ("verified", "refuted"):
                expected[step_id] = verdict.verdict
    written = dict(
        Suggestion.objects.filter(source="symbolic").values_list("step_id", "evidence__verdict")
    )
    assert written == expected
    assert len(expected) > 200  # the sample's steps with a decided claim (282)
