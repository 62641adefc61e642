"""A training run's base_model and a registered model's path (training_runs.model_refs): a
project admin names only the operator's model directories and the project's own training runs;
staff any directory. Refusals do not say whether the path exists."""

import os
import shutil
from pathlib import Path

import pytest
from rest_framework.test import APIClient

from labeling.errors import ValidationFailed
from labeling.services.jobs import outbox
from tests.factories import ProjectFactory, UserFactory
from training_runs.models import PrmModel, TrainingRun
from training_runs.services import prm_model_register, training_run_create


def _client(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture(autouse=True)
def _no_publish(monkeypatch):
    monkeypatch.setattr(outbox, "_publish", lambda messages: None)


@pytest.fixture
def elsewhere(tmp_path: Path, base_model: Path) -> Path:
    """A real checkpoint outside every model directory (another team's, say)."""
    return Path(shutil.copytree(base_model, tmp_path / "team-b" / "base"))


def _start(project, user, base_model: str, export):
    body = {"export": export.pk, "base_model": base_model, "config": {"max_steps": 1}}
    return _client(user).post(f"/api/projects/{project.pk}/training-runs/", body, format="json")


def _register(project, user, path: str):
    body = {"name": f"m{PrmModel.objects.count()}", "path": path}
    return _client(user).post(f"/api/projects/{project.pk}/prm-models/", body, format="json")


def _refused(response, field: str, path: str) -> str:
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["details"]["field"] == field
    assert "MODEL_DIRS" in error["message"] and "ask a server admin" in error["message"]
    return error["message"].replace(path, "<path>")


def test_base_model_outside_the_model_dirs_is_refused(
    train_project, trl_export, base_model, elsewhere, model_dirs
):
    admin = train_project.admin
    words = {
        _refused(_start(train_project, admin, path, trl_export), "base_model", path)
        for path in [
            str(elsewhere),  # a checkpoint that exists
            str(elsewhere.parent / "missing"),  # one that does not
            str(model_dirs / ".." / elsewhere.relative_to(model_dirs.parent)),  # traversal
            "/etc",
        ]
    }
    assert len(words) == 1  # the same answer whether or not it exists
    assert not TrainingRun.objects.exists()
    link = model_dirs / "link-out"
    link.symlink_to(elsewhere)
    try:
        _refused(_start(train_project, admin, str(link), trl_export), "base_model", str(link))
    finally:
        link.unlink()

    ok = _start(train_project, admin, str(base_model), trl_export)
    assert ok.status_code == 202, ok.content
    staff = UserFactory(username="operator", is_staff=True)
    assert _start(train_project, staff, str(elsewhere), trl_export).status_code == 202


def test_registering_follows_the_same_rules(
    train_project, trained_prm, elsewhere, training_root, model_dirs
):
    admin = train_project.admin
    other = ProjectFactory(name="Other team")
    theirs = TrainingRun.objects.create(project=other, base_model="/m")
    ours = TrainingRun.objects.create(project=train_project, base_model="/m")
    their_out = Path(shutil.copytree(trained_prm, training_root / f"run-{theirs.pk}" / "out"))
    our_out = Path(shutil.copytree(trained_prm, training_root / f"run-{ours.pk}" / "out"))

    words = {
        _refused(_register(train_project, admin, path), "path", path)
        for path in [
            str(their_out),
            str(training_root / f"run-{ours.pk}" / ".." / f"run-{theirs.pk}" / "out"),
            str(elsewhere),
            str(training_root / "run-999999" / "out"),
        ]
    }
    assert len(words) == 1
    assert _register(train_project, admin, str(our_out)).status_code == 201
    assert _register(train_project, admin, str(trained_prm)).status_code == 201
    staff = UserFactory(username="operator", is_staff=True)
    assert _register(train_project, staff, str(their_out)).status_code == 201


def test_services_take_the_acting_user(train_project, trl_export, base_model, elsewhere):
    with pytest.raises(ValidationFailed, match="MODEL_DIRS"):
        training_run_create(
            project=train_project,
            export=trl_export,
            base_model=str(elsewhere),
            created_by=train_project.admin,
        )
    with pytest.raises(ValidationFailed, match="MODEL_DIRS"):
        prm_model_register(
            project=train_project, name="x", path=str(elsewhere), created_by=train_project.admin
        )
    run = training_run_create(
        project=train_project,
        export=trl_export,
        base_model=str(base_model),
        created_by=train_project.admin,
    )
    assert run.base_model == os.path.realpath(base_model)
