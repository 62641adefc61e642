"""manage.py train: inline training registers the PRM; bad input is a CommandError."""

import json

import pytest
from django.core.management import CommandError, call_command

from training_runs.models import PrmModel, TrainingRun

from .conftest import FAST_CONFIG


def test_train_inline_registers_the_model(train_project, trl_export, base_model, tmp_path, capsys):
    config = tmp_path / "config.json"
    config.write_text(json.dumps(FAST_CONFIG))
    call_command(
        "train",
        project=train_project.name,
        export=trl_export.pk,
        model=str(base_model),
        config=str(config),
        inline=True,
    )
    run = TrainingRun.objects.get()
    assert run.status == "done" and run.config == FAST_CONFIG
    model = PrmModel.objects.get()
    assert model.training_run == run
    assert f"registered as model {model.pk}" in capsys.readouterr().out


def test_no_wait_queues_the_task(
    train_project, trl_export, base_model, monkeypatch, django_capture_on_commit_callbacks
):
    from labeling.services.jobs import outbox

    queued = []
    monkeypatch.setattr(
        outbox, "_publish", lambda messages: queued.extend(m.args[0] for m in messages)
    )
    with django_capture_on_commit_callbacks(execute=True):
        call_command(
            "train",
            project=str(train_project.pk),
            export=trl_export.pk,
            model=str(base_model),
            no_wait=True,
        )
    assert queued == [TrainingRun.objects.get().pk]


@pytest.mark.parametrize(
    "options, message",
    [
        ({"project": "nope"}, "No project"),
        ({"export": 999999}, "No export 999999"),
        ({"model": "/nonexistent"}, "not a model directory"),
    ],
)
def test_errors(train_project, trl_export, base_model, options, message):
    values = {"project": train_project.name, "export": trl_export.pk, "model": str(base_model)}
    with pytest.raises(CommandError, match=message):
        call_command("train", **{**values, **options})
    assert not TrainingRun.objects.exists()
