"""Registered models per project are bounded (COLLECTION_CAPS["prm_models"]) and their list is
paginated. Before, a project admin could register models without end and GET returned every
one of them in one response."""

import pytest
from rest_framework.test import APIClient

from labeling.errors import Conflict
from labeling.services.jobs import outbox
from tests.factories import UserFactory
from training_runs.models import PrmModel
from training_runs.services import prm_model_register, training_run_create


@pytest.fixture(autouse=True)
def _no_publish(monkeypatch):
    monkeypatch.setattr(outbox, "_publish", lambda messages: None)


def _client(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _register(project, user, path, name):
    body = {"name": name, "path": str(path)}
    return _client(user).post(f"/api/projects/{project.pk}/prm-models/", body, format="json")


def test_the_list_is_paginated(train_project, base_model):
    for i in range(3):
        prm_model_register(project=train_project, name=f"m{i}", path=str(base_model))
    url = f"/api/projects/{train_project.pk}/prm-models/"
    client = _client(train_project.reviewer)
    page = client.get(f"{url}?limit=2").json()
    assert page["count"] == 3 and [m["name"] for m in page["results"]] == ["m2", "m1"]
    assert page["next"] and client.get(page["next"]).json()["results"][0]["name"] == "m0"
    refused = client.get(f"{url}?limit=1000000")
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "validation_error"


@pytest.mark.parametrize("staff", [False, True])
def test_a_project_holds_at_most_its_cap_of_models(train_project, base_model, settings, staff):
    settings.COLLECTION_CAPS = {"prm_models": 2}
    user = UserFactory(is_staff=True) if staff else train_project.admin
    for name in ("a", "b"):
        assert _register(train_project, user, base_model, name).status_code == 201
    refused = _register(train_project, user, base_model, "c")
    assert refused.status_code == 409, refused.content
    error = refused.json()["error"]
    assert error["code"] == "conflict"
    assert error["message"].startswith("This project already has 2 registered models, the most")
    assert "COLLECTION_CAPS['prm_models']" in error["message"]
    assert PrmModel.objects.filter(project=train_project).count() == 2


def test_an_unfinished_training_run_keeps_room_for_its_model(
    train_project, base_model, trl_export, settings
):
    """A run registers its output when it finishes: its place is taken when it starts, so a
    finished run's model is never refused (nothing lost), and the cap still holds."""
    settings.COLLECTION_CAPS = {"prm_models": 2}
    prm_model_register(project=train_project, name="a", path=str(base_model))
    run = training_run_create(project=train_project, export=trl_export, base_model=str(base_model))
    refused = _register(train_project, train_project.admin, base_model, "b")
    assert refused.status_code == 409
    assert "already has 2 registered models" in refused.json()["error"]["message"]
    with pytest.raises(Conflict, match="registered models"):
        training_run_create(project=train_project, export=trl_export, base_model=str(base_model))
    # The run's own model goes in whatever the count.
    prm_model_register(project=train_project, name="run", path=str(base_model), training_run=run)
    assert PrmModel.objects.filter(project=train_project).count() == 2
