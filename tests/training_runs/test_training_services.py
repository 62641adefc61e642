"""TrainingRun services: validation at creation, the lease, progress parsing, failures."""

import json
import signal
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from labeling.errors import Conflict, ValidationFailed
from labeling.services.exports.snapshots import export_build, export_create
from tests.factories import ProjectFactory
from training_runs.execution import (
    Outcome,
    _claim,
    _failure_message,
    training_config,
    training_run_execute,
)
from training_runs.models import PrmModel, TrainingRun, TrainingStatus
from training_runs.progress import read_progress
from training_runs.services import (
    HEARTBEAT_STALE_S,
    prm_model_register,
    run_dir,
    training_run_cancel,
    training_run_create,
)

from .conftest import FAST_CONFIG


def _create(project, export, model, **config):
    return training_run_create(project=project, export=export, base_model=str(model), config=config)


def test_create_stores_a_pending_run(train_project, trl_export, base_model):
    run = _create(train_project, trl_export, base_model, lr=1e-4, max_steps=5)
    assert (run.status, run.config, run.base_model) == (
        "pending",
        {"lr": 1e-4, "max_steps": 5},
        str(base_model),
    )


def test_create_refuses_an_export_that_is_not_trl(train_project, base_model):
    export = export_build(
        export=export_create(project=train_project, created_by=None, format="prm800k")
    )
    with pytest.raises(ValidationFailed, match="TRL stepwise export"):
        _create(train_project, export, base_model)


def test_create_refuses_an_unfinished_export(train_project, base_model):
    export = export_create(project=train_project, created_by=None, format="trl")
    with pytest.raises(ValidationFailed, match="finished export"):
        _create(train_project, export, base_model)


def test_create_refuses_another_projects_export(trl_export, base_model):
    with pytest.raises(ValidationFailed, match="another project"):
        _create(ProjectFactory(), trl_export, base_model)


@pytest.mark.parametrize("path", ["relative/model", "/nonexistent/model"])
def test_create_refuses_a_missing_model(train_project, trl_export, path):
    with pytest.raises(ValidationFailed) as err:
        _create(train_project, trl_export, path)
    assert err.value.details == {"field": "base_model"}


@pytest.mark.parametrize(
    "config, message",
    [
        ({"out": "/tmp/x"}, "may not set out"),
        ({"data": ["a"]}, "may not set data"),
        ({"eval_data": ["/etc/passwd"]}, "may not set eval_data"),
        ({"eval_data": "/srv/other-project/export.jsonl"}, "may not set eval_data"),
        ({"learning_rate": 1}, "unknown setting"),
        ({"batch_size": 0}, "batch_size"),
        ({"head": "deep"}, "head"),
    ],
)
def test_create_refuses_bad_configs(train_project, trl_export, base_model, config, message):
    with pytest.raises(ValidationFailed, match=message):
        _create(train_project, trl_export, base_model, **config)


def test_cancel_pending_and_refuse_twice(train_project, trl_export, base_model):
    run = _create(train_project, trl_export, base_model)
    assert training_run_cancel(run=run).status == "cancelled"
    assert run.finished_at is not None
    with pytest.raises(Conflict):
        training_run_cancel(run=run)
    # A cancelled run is never started by a (late) task.
    assert training_run_execute(run_id=run.pk) == Outcome.FINISHED


def test_the_lease_is_taken_once_and_only_from_a_stale_holder(
    train_project, trl_export, base_model
):
    run = _create(train_project, trl_export, base_model)
    assert _claim(run.pk, "host:1") is None
    assert _claim(run.pk, "host:2") == Outcome.BUSY  # a redelivered copy while alive
    run.refresh_from_db()
    assert (run.status, run.worker, run.attempts) == ("running", "host:1", 1)
    stale = timezone.now() - timedelta(seconds=HEARTBEAT_STALE_S + 1)
    TrainingRun.objects.filter(pk=run.pk).update(heartbeat_at=stale)
    assert _claim(run.pk, "host:2") is None  # the first worker was lost
    run.refresh_from_db()
    assert (run.worker, run.attempts) == ("host:2", 2)
    TrainingRun.objects.filter(pk=run.pk).update(status=TrainingStatus.DONE)
    assert _claim(run.pk, "host:3") == Outcome.FINISHED


def test_config_sets_data_model_out_and_resumes_from_checkpoints(
    train_project, trl_export, base_model, tmp_path
):
    run = _create(train_project, trl_export, base_model, lr=2e-5)
    out = tmp_path / "out"
    config = training_config(run, data=tmp_path / "d.jsonl", out=out)
    assert (config["data"], config["model"], config["out"], config["lr"]) == (
        [str(tmp_path / "d.jsonl")],
        str(base_model),
        str(out),
        2e-5,
    )
    assert config["resume_from"] is None
    (out / "checkpoint-4").mkdir(parents=True)
    assert training_config(run, data=tmp_path / "d.jsonl", out=out)["resume_from"] == "latest"


def test_read_progress_parses_metrics_and_the_tqdm_bar(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    records = [
        {"split": "train", "step": 1, "loss": 0.7},
        {"split": "train", "step": 2, "loss": 0.6},
        {"split": "eval", "step": 2, "loss": 0.65, "f1": 0.5},
    ]
    text = "".join(json.dumps(r) + "\n" for r in records)
    (out / "metrics.jsonl").write_text(text + '{"split": "train", "st')  # a line being written
    log = tmp_path / "train.log"
    log.write_text(
        "info: training 24 examples (8 eval), 10 steps of 8 x 1 x 1 examples\n"
        "training:   0%|          | 0/10 [00:00<?, ?step/s]\r"
        "training:  30%|###       | 3/10 [00:02<00:05, 1.4s/step]"
    )
    progress = read_progress(out, log)
    assert (progress.step, progress.total) == (3, 10)
    assert progress.history == records
    assert progress.metrics == {"train": records[1], "eval": records[2]}
    assert progress.log_tail.splitlines()[-1].startswith("training:  30%")


def test_failure_messages_name_the_signal_or_the_exception():
    assert "SIGKILL" in _failure_message(
        -signal.SIGKILL, ""
    ) and "out of memory" in _failure_message(-9, "")
    tail = "Traceback (most recent call last):\n  File x\nValueError: no training examples left\n"
    assert _failure_message(1, tail) == (
        "The trainer exited with status 1: ValueError: no training examples left"
    )


def test_a_crashing_trainer_fails_the_run_with_its_error(train_project, trl_export, tmp_path):
    broken = tmp_path / "broken-model"
    broken.mkdir()
    (broken / "config.json").write_text("{}")  # a directory, but not a checkpoint
    run = _create(train_project, trl_export, broken, **FAST_CONFIG)
    assert training_run_execute(run_id=run.pk, poll_s=0.2) == Outcome.FAILED
    run.refresh_from_db()
    assert run.status == "failed" and run.finished_at is not None
    assert run.error.startswith("The trainer exited with status 1: "), run.error
    assert "Traceback" in run.log_tail
    assert not PrmModel.objects.exists()


def test_execute_trains_streams_progress_and_registers_the_prm(
    train_project, trl_export, base_model
):
    # max_length 40 cuts the toy solutions: the run must say how many labeled steps it dropped.
    run = _create(train_project, trl_export, base_model, **{**FAST_CONFIG, "max_length": 40})
    assert training_run_execute(run_id=run.pk, poll_s=0.2) == Outcome.DONE
    run.refresh_from_db()
    assert run.status == "done", run.error
    dropped = run.metrics["data"]["train"]["steps_dropped"]
    assert dropped > 0
    assert run.metrics["truncation"].startswith(f"truncation dropped {dropped} of ")
    assert (run.step, run.total_steps, run.progress) == (3, 3, 1.0)
    assert [r["step"] for r in run.history if r["split"] == "train"] == [1, 2, 3]
    assert run.metrics["train"]["step"] == 3 and "loss" in run.metrics["train"]
    out = Path(run.artifact_path)
    assert out == run_dir(run) / "out" and (out / "config.json").is_file()
    model = run.prm_model
    assert (model.name, model.path, model.project_id) == (
        f"run-{run.pk}",
        str(out),
        train_project.pk,
    )
    assert model.metrics["train"] == run.metrics["train"]
    assert model.metrics["data"] == run.metrics["data"]
    # A redelivered task after the run finished does nothing.
    assert training_run_execute(run_id=run.pk) == Outcome.FINISHED
    assert PrmModel.objects.count() == 1


def test_register_by_path_checks_the_directory_and_the_name(train_project, trained_prm, tmp_path):
    model = prm_model_register(project=train_project, name="mine", path=str(trained_prm))
    assert model.base_model  # read from training_config.json
    with pytest.raises(ValidationFailed, match="already has a model"):
        prm_model_register(project=train_project, name="mine", path=str(trained_prm))
    with pytest.raises(ValidationFailed, match="not a model directory"):
        prm_model_register(project=train_project, name="other", path=str(tmp_path))


def test_a_long_history_is_thinned_evenly_keeping_the_last_record():
    from training_runs.progress import thin

    history = [{"step": i} for i in range(1, 10_001)]
    kept = thin(history, limit=1000)
    assert len(kept) <= 1001
    assert kept[0] == {"step": 1} and kept[-1] == {"step": 10_000}
    gaps = {b["step"] - a["step"] for a, b in zip(kept[:-2], kept[1:-1], strict=True)}
    assert gaps == {10}
    assert thin(history[:5], limit=1000) == history[:5]
    # Per split: the rare eval records all survive, in their place.
    mixed = []
    for i in range(1, 3001):
        mixed.append({"split": "train", "step": i})
        if i % 500 == 0:
            mixed.append({"split": "eval", "step": i})
    kept = thin(mixed, limit=1000)
    assert [r for r in kept if r["split"] == "eval"] == [r for r in mixed if r["split"] == "eval"]
    assert 1000 + 6 <= len(kept) <= 1001 + 6
    assert [r["step"] for r in kept] == sorted(r["step"] for r in kept)


def _launcher(settings, tmp_path, code: str) -> None:
    """A stand-in trainer (through TRAINING_LAUNCHER), ignoring its `-m training.train ...`."""
    import sys

    script = tmp_path / "fake_trainer.py"
    script.write_text(code)
    settings.TRAINING_LAUNCHER = f"{sys.executable} {script}"


def test_an_oom_killed_trainer_fails_the_run_and_spares_the_worker(
    train_project, trl_export, base_model, settings, tmp_path
):
    _launcher(
        settings,
        tmp_path,
        "import os, signal\n"
        "print('allocating', flush=True)\n"
        "os.kill(os.getpid(), signal.SIGKILL)\n",
    )
    run = _create(train_project, trl_export, base_model)
    assert training_run_execute(run_id=run.pk, poll_s=0.1) == Outcome.FAILED
    run.refresh_from_db()
    assert run.status == "failed"
    assert run.error == (
        "The trainer was killed by SIGKILL (out of memory? the kernel's OOM killer sends SIGKILL)."
    )
    assert "allocating" in run.log_tail


def test_a_trainer_that_saves_nothing_fails_the_run(
    train_project, trl_export, base_model, settings, tmp_path
):
    _launcher(settings, tmp_path, "print('nothing to do')\n")
    run = _create(train_project, trl_export, base_model)
    assert training_run_execute(run_id=run.pk, poll_s=0.1) == Outcome.FAILED
    run.refresh_from_db()
    assert run.error == "The trainer exited with status 0: nothing to do"
    assert not PrmModel.objects.exists()


def test_the_trainer_gets_the_runs_full_config(
    train_project, trl_export, base_model, settings, tmp_path
):
    """What the trainer is started with: --config FILE holding data, model, out and settings."""
    seen = tmp_path / "argv.json"
    _launcher(
        settings,
        tmp_path,
        f"import json, sys\njson.dump(sys.argv[1:], open({str(seen)!r}, 'w'))\n",
    )
    run = _create(train_project, trl_export, base_model, lr=3e-4, max_steps=7)
    training_run_execute(run_id=run.pk, poll_s=0.1)
    argv = json.loads(seen.read_text())
    assert argv[:3] == ["-m", "training.train", "--config"]
    config = json.loads(Path(argv[3]).read_text())
    assert (config["lr"], config["max_steps"], config["model"]) == (3e-4, 7, str(base_model))
    assert config["out"] == str(run_dir(run) / "out")
    (data,) = config["data"]
    assert Path(data).read_bytes() == Path(trl_export.file.path).read_bytes()


def _interrupted_run(train_project, trl_export, base_model, settings, tmp_path, monkeypatch, exc):
    """A run whose follow loop is interrupted by `exc` while a stand-in trainer sleeps."""
    from training_runs import execution

    _launcher(settings, tmp_path, "import time\nprint('training', flush=True)\ntime.sleep(60)\n")
    run = _create(train_project, trl_export, base_model)
    calls = {"n": 0}
    real = execution._holds

    def holds(run_id, worker):
        calls["n"] += 1
        if calls["n"] == 3:
            raise exc
        return real(run_id, worker)

    monkeypatch.setattr(execution, "_holds", holds)
    with pytest.raises(type(exc)):
        training_run_execute(run_id=run.pk, poll_s=0.1)
    run.refresh_from_db()
    return run


def test_the_soft_time_limit_fails_the_run_and_kills_the_trainer(
    train_project, trl_export, base_model, settings, tmp_path, monkeypatch
):
    from celery.exceptions import SoftTimeLimitExceeded

    run = _interrupted_run(
        train_project,
        trl_export,
        base_model,
        settings,
        tmp_path,
        monkeypatch,
        SoftTimeLimitExceeded(),
    )
    assert run.status == "failed"
    assert run.error == "The run was stopped: it ran past TRAINING_TIME_LIMIT_S"
    from .test_training_child import _pids_with

    assert not _pids_with(str(run_dir(run) / "train_config.json"))


def test_a_worker_shutdown_gives_the_lease_up_for_the_redelivered_task(
    train_project, trl_export, base_model, settings, tmp_path, monkeypatch
):
    run = _interrupted_run(
        train_project, trl_export, base_model, settings, tmp_path, monkeypatch, SystemExit(1)
    )
    assert run.status == "running" and run.heartbeat_at is None
    assert _claim(run.pk, "other:1") is None  # taken over at once, no stale wait


def test_a_hand_registered_name_does_not_block_the_runs_model(
    train_project, trl_export, base_model, trained_prm, settings, tmp_path
):
    run = _create(train_project, trl_export, base_model)
    prm_model_register(project=train_project, name=f"run-{run.pk}", path=str(trained_prm))
    # A stand-in trainer that "saves" the tiny PRM where the run expects it.
    _launcher(
        settings,
        tmp_path,
        "import shutil, sys, json\n"
        "config = json.load(open(sys.argv[sys.argv.index('--config') + 1]))\n"
        f"shutil.copytree({str(trained_prm)!r}, config['out'])\n",
    )
    assert training_run_execute(run_id=run.pk, poll_s=0.1) == Outcome.DONE
    run.refresh_from_db()
    assert run.prm_model.name == f"run-{run.pk}-2"
