"""Executing a PRM training run: the trainer as a subprocess, followed to the end.

`training_run_execute` runs `python -m training.train` in a child process (its own process
group, killed with the worker through PR_SET_PDEATHSIG, see training_runs.child), so an
OOM or a crash in torch fails the run instead of the worker, and a cancel can kill it. While
the child runs, the parent streams metrics.jsonl and the log into the row and refreshes the
run's heartbeat. The heartbeat is a lease: a redelivered task (acks_late, a worker lost, or
Redis' visibility timeout on a long run) claims a run only when it is pending or its heartbeat
went stale, with one conditional UPDATE, so one run never trains twice at the same time.
"""

from __future__ import annotations

import json
import logging
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.files.storage import default_storage
from django.db import transaction
from django.db.models import F, Q
from django.db.models.functions import Coalesce
from django.utils import timezone

from labeling.models import Export
from training_runs.models import TrainingRun, TrainingStatus
from training_runs.progress import Progress, read_progress
from training_runs.services import free_model_name, heartbeat_stale_s, prm_model_register, run_dir

log = logging.getLogger(__name__)

HEARTBEAT_EVERY_S = 10.0  # the row is rewritten at least this often, else only on new output
KILL_GRACE_S = 10.0


class Outcome:
    """What one execute call did (a redelivered task needs to know)."""

    DONE = "done"
    FAILED = "failed"
    CANCELLED = "cancelled"
    BUSY = "busy"  # another live process holds the run's lease
    FINISHED = "finished"  # already finished before this call


def _worker_id() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def _claim(run_id: int, worker: str) -> str | None:
    """Take the run's lease with one conditional UPDATE; None when taken, else why not."""
    now = timezone.now()
    stale = now - timedelta(seconds=heartbeat_stale_s())
    claimable = Q(status=TrainingStatus.PENDING) | Q(
        Q(heartbeat_at__isnull=True) | Q(heartbeat_at__lt=stale), status=TrainingStatus.RUNNING
    )
    taken = TrainingRun.objects.filter(claimable, pk=run_id).update(
        status=TrainingStatus.RUNNING,
        worker=worker,
        heartbeat_at=now,
        attempts=F("attempts") + 1,
        started_at=Coalesce(F("started_at"), now),
        error="",
    )
    if taken:
        return None
    status = TrainingRun.objects.filter(pk=run_id).values_list("status", flat=True).first()
    return Outcome.BUSY if status == TrainingStatus.RUNNING else Outcome.FINISHED


def _export_path(export: Export, directory: Path) -> Path:
    """The export's file on local disk (copied next to the run for non-local storages)."""
    try:
        return Path(default_storage.path(export.file.name))
    except NotImplementedError:
        target = directory / Path(export.file.name).name
        with default_storage.open(export.file.name, "rb") as src, target.open("wb") as dst:
            shutil.copyfileobj(src, dst)
        return target


def training_config(run: TrainingRun, *, data: Path, out: Path) -> dict[str, Any]:
    """The full TrainConfig the trainer gets: the run's settings plus what the app decides."""
    from training.config import TrainConfig

    values = {**run.config, "data": [str(data)], "model": run.base_model, "out": str(out)}
    values["progress"] = True
    if any(out.glob("checkpoint-*")):
        values["resume_from"] = "latest"  # a run taken over from a lost worker continues
    return TrainConfig.from_dict(values).validate().to_dict()


def trainer_command(config_path: Path) -> list[str]:
    """training_child wrapping `python -m training.train`, or the TRAINING_LAUNCHER (e.g.
    `accelerate launch --config_file training/configs/accelerate_fsdp.yaml`) with `-m`."""
    python = sys.executable
    launcher = shlex.split(getattr(settings, "TRAINING_LAUNCHER", "") or "") or [python]
    train = [*launcher, "-m", "training.train", "--config", str(config_path)]
    return [python, "-m", "training_runs.child", str(os.getpid()), "--", *train]


def _holds(run_id: int, worker: str) -> bool:
    return TrainingRun.objects.filter(
        pk=run_id, worker=worker, status=TrainingStatus.RUNNING
    ).exists()


def _sizes(*paths: Path) -> tuple[int, ...]:
    return tuple(path.stat().st_size if path.exists() else -1 for path in paths)


def _publish(run_id: int, worker: str, progress: Progress) -> bool:
    """Write progress and renew the lease; False when this process no longer holds the run."""
    fields: dict[str, Any] = {"heartbeat_at": timezone.now(), "log_tail": progress.log_tail}
    if progress.history:
        fields.update(history=progress.history, metrics=progress.metrics, step=progress.step)
    elif progress.step:
        fields["step"] = progress.step
    if progress.total:
        fields["total_steps"] = progress.total
    return bool(
        TrainingRun.objects.filter(pk=run_id, worker=worker, status=TrainingStatus.RUNNING).update(
            **fields
        )
    )


def _kill(proc: subprocess.Popen) -> None:
    """SIGTERM the trainer's process group, SIGKILL it after a grace period."""
    for sig, wait in ((signal.SIGTERM, KILL_GRACE_S), (signal.SIGKILL, 5.0)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            continue


def _failure_message(returncode: int, log_tail: str) -> str:
    if returncode < 0:
        name = signal.Signals(-returncode).name
        oom = " (out of memory? the kernel's OOM killer sends SIGKILL)"
        hint = oom if name == "SIGKILL" else ""
        return f"The trainer was killed by {name}{hint}."
    lines = [line.strip() for line in log_tail.splitlines() if line.strip()]
    errors = [line for line in lines if re.match(r"^[\w.]+(Error|Exception|Interrupt)\b", line)]
    last = errors[-1] if errors else (lines[-1] if lines else "no output")
    return f"The trainer exited with status {returncode}: {last}"


def _finish(run_id: int, worker: str, **fields: Any) -> bool:
    fields["finished_at"] = timezone.now()
    return bool(
        TrainingRun.objects.filter(pk=run_id, worker=worker, status=TrainingStatus.RUNNING).update(
            **fields
        )
    )


def training_run_execute(*, run_id: int, poll_s: float = 1.0) -> str:
    """Run the trainer for one run and follow it to the end; returns an Outcome.

    Safe to call for a run another process is executing (returns BUSY) or that is finished
    (returns FINISHED): nothing happens then.
    """
    worker = _worker_id()
    refused = _claim(run_id, worker)
    if refused:
        return refused
    run = TrainingRun.objects.select_related("export").get(pk=run_id)
    directory = run_dir(run)
    out = directory / "out"
    log_path = directory / "train.log"
    try:
        if run.export is None or not run.export.file:
            raise ValueError("The run's export was deleted.")
        directory.mkdir(parents=True, exist_ok=True)
        data = _export_path(run.export, directory)
        config = training_config(run, data=data, out=out)
        config_path = directory / "train_config.json"
        config_path.write_text(json.dumps(config, indent=2), encoding="utf-8")
    except Exception as exc:  # a bad setup fails the run with its reason, not the worker
        _finish(run_id, worker, status=TrainingStatus.FAILED, error=f"Setup failed: {exc}")
        return Outcome.FAILED
    env = {
        **os.environ,
        "PYTHONUNBUFFERED": "1",
        "TOKENIZERS_PARALLELISM": "false",
        "PYTHONPATH": os.pathsep.join(
            filter(None, [str(settings.BASE_DIR), os.environ.get("PYTHONPATH", "")])
        ),
    }
    with log_path.open("ab") as log_file:
        proc = subprocess.Popen(
            trainer_command(config_path),
            cwd=settings.BASE_DIR,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=log_file,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: a cancel kills all of it
        )
    seen, published = None, 0.0
    every = min(HEARTBEAT_EVERY_S, heartbeat_stale_s() / 3)
    try:
        while True:
            try:
                returncode = proc.wait(timeout=poll_s)
            except subprocess.TimeoutExpired:
                returncode = None
            # Rewrite the row (history, log, heartbeat) only on new output or when the heartbeat
            # is due; in between, a cheap query notices a cancel.
            sizes = _sizes(out / "metrics.jsonl", log_path)
            if sizes != seen or time.monotonic() - published >= every:
                holds = _publish(run_id, worker, read_progress(out, log_path))
                seen, published = sizes, time.monotonic()
            else:
                holds = _holds(run_id, worker)
            if returncode is not None:
                break
            if not holds:  # cancelled, or the lease went to another worker
                _kill(proc)
                still = TrainingRun.objects.filter(pk=run_id, status=TrainingStatus.RUNNING)
                return Outcome.BUSY if still.exists() else Outcome.CANCELLED
    except Exception as exc:
        # The soft time limit, or the database gone: never leave the trainer running behind.
        _kill(proc)
        limit = type(exc).__name__ == "SoftTimeLimitExceeded"
        reason = "it ran past TRAINING_TIME_LIMIT_S" if limit else f"{type(exc).__name__}: {exc}"
        error = f"The run was stopped: {reason}"
        _finish(run_id, worker, status=TrainingStatus.FAILED, error=error)
        raise
    except BaseException:
        # The worker is shutting down: stop the trainer and give the lease up at once, so the
        # redelivered task (acks_late) takes the run over and resumes it from its checkpoint.
        _kill(proc)
        TrainingRun.objects.filter(pk=run_id, worker=worker).update(heartbeat_at=None)
        raise
    progress = read_progress(out, log_path)
    final = {
        "history": progress.history,
        "metrics": progress.metrics,
        "log_tail": progress.log_tail,
    }
    if returncode != 0 or not (out / "config.json").is_file():
        error = _failure_message(returncode, progress.log_tail)
        _finish(run_id, worker, status=TrainingStatus.FAILED, error=error, **final)
        return Outcome.FAILED
    stats = out / "data_stats.json"
    if stats.is_file():  # examples, steps, and what truncation dropped, per split
        progress.metrics["data"] = json.loads(stats.read_text(encoding="utf-8"))
    with transaction.atomic():
        finished = _finish(
            run_id,
            worker,
            status=TrainingStatus.DONE,
            artifact_path=str(out),
            step=max(progress.step, progress.total),
            total_steps=max(progress.step, progress.total),
            **final,
        )
        if not finished:
            return Outcome.CANCELLED  # cancelled while the last step was saved
        run.refresh_from_db()
        prm_model_register(
            project=run.project,
            name=free_model_name(run.project, f"run-{run.pk}"),
            path=str(out),
            created_by=run.created_by,
            created_by_server=run.created_by_server,
            training_run=run,
            base_model=run.base_model,
            metrics={k: v for k, v in progress.metrics.items() if k in ("train", "eval", "data")},
        )
    return Outcome.DONE
