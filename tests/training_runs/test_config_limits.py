"""A client's training config (training_runs/config_checks.py): every field well-typed for
everyone, the choices the trainer knows, and a non-staff user's costly numbers within
settings.TRAINING_LIMITS, refused with a 400 naming `config.<field>` before anything is stored."""

import pytest
from rest_framework.test import APIClient

from training_runs.models import TrainingRun


def _post(project, user, export, base_model, config):
    client = APIClient()
    client.force_authenticate(user)
    return client.post(
        f"/api/projects/{project.pk}/training-runs/",
        {"export": export.pk, "base_model": str(base_model), "config": config},
        format="json",
    )


def _refused(response, field: str) -> str:
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["code"] == "validation_error"
    assert error["details"]["field"] == field, error
    assert not TrainingRun.objects.exists()
    return error["message"]


@pytest.mark.parametrize(
    "config, field",
    [
        ({"epochs": "many"}, "config.epochs"),
        ({"lr": "1e-5"}, "config.lr"),
        ({"lr": 0}, "config.lr"),
        ({"lr": 10.0}, "config.lr"),
        ({"batch_size": 2.5}, "config.batch_size"),
        ({"packing": "yes"}, "config.packing"),
        ({"seed": 2**63}, "config.seed"),
        ({"log_every": 0}, "config.log_every"),
        ({"domains": "math"}, "config.domains"),
        ({"domains": ["x" * 101]}, "config.domains"),
        ({"step_separator": "\n" * 1000}, "config.step_separator"),
        ({"head": "transformer"}, "config.head"),
        ({"lr_scheduler": "bogus"}, "config.lr_scheduler"),
        ({"attn_implementation": "kernels-community/flash-attn"}, "config.attn_implementation"),
    ],
)
def test_a_malformed_config_is_refused_for_everyone(
    train_project, trl_export, base_model, config, field
):
    _refused(_post(train_project, train_project.admin, trl_export, base_model, config), field)


@pytest.mark.parametrize(
    "config, field",
    [
        ({"epochs": 1_000_000}, "config.epochs"),
        ({"max_steps": 10**8}, "config.max_steps"),
        ({"batch_size": 100_000}, "config.batch_size"),
        ({"max_length": 1_000_000}, "config.max_length"),
        ({"save_every": 1, "keep_checkpoints": 100_000}, "config.keep_checkpoints"),
    ],
)
def test_a_project_admins_costly_config_is_capped(
    train_project, trl_export, base_model, config, field
):
    message = _refused(
        _post(train_project, train_project.admin, trl_export, base_model, config), field
    )
    assert "TRAINING_LIMITS" in message and "server admin may raise it" in message


def test_the_operator_raises_a_cap_and_staff_are_not_capped(
    train_project, trl_export, base_model, settings, django_capture_on_commit_callbacks
):
    admin = train_project.admin
    settings.TRAINING_LIMITS = {"epochs": 100}
    with django_capture_on_commit_callbacks():
        ok = _post(train_project, admin, trl_export, base_model, {"epochs": 50})
    assert ok.status_code == 202, ok.content
    admin.is_staff = True
    admin.save()
    with django_capture_on_commit_callbacks():
        staff = _post(train_project, admin, trl_export, base_model, {"max_length": 65536})
    assert staff.status_code == 202, staff.content
    assert TrainingRun.objects.count() == 2


def test_a_project_holds_a_bounded_number_of_unfinished_training_runs(
    train_project, trl_export, base_model, settings, django_capture_on_commit_callbacks
):
    """labeling/services/jobs/quota.py: PROJECT_ACTIVE_JOBS["training_runs"], a 409 in words."""
    settings.PROJECT_ACTIVE_JOBS = {"training_runs": 1}
    admin = train_project.admin
    with django_capture_on_commit_callbacks():
        first = _post(train_project, admin, trl_export, base_model, {"max_steps": 1})
        second = _post(train_project, admin, trl_export, base_model, {"max_steps": 1})
    assert first.status_code == 202, first.content
    assert second.status_code == 409, second.content
    assert "PROJECT_ACTIVE_JOBS['training_runs']" in second.json()["error"]["message"]
    TrainingRun.objects.update(status="cancelled")
    with django_capture_on_commit_callbacks():
        third = _post(train_project, admin, trl_export, base_model, {"max_steps": 1})
    assert third.status_code == 202, third.content
