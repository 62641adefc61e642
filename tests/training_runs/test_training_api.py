"""Training runs, PRM models and the queue order over the API: permissions, errors, schema."""

import pytest
from rest_framework.test import APIClient

from labeling.services.jobs import outbox
from tests.factories import UserFactory
from training_runs.models import PrmModel, TrainingRun


def _client(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def _users(project):
    return {
        "admin": project.admin,
        "reviewer": project.reviewer,
        "annotator": project.annotator,
        "outsider": UserFactory(username="outsider"),
        "anonymous": None,
    }


# role -> expected status for (read, write)
MATRIX = {
    "admin": (200, "ok"),
    "reviewer": (200, 403),
    "annotator": (403, 403),
    "outsider": (404, 404),
    "anonymous": (403, 403),
}


@pytest.mark.parametrize("role", list(MATRIX))
def test_permissions(role, train_project, trl_export, base_model, trained_prm, monkeypatch):
    queued = []
    monkeypatch.setattr(
        outbox, "_publish", lambda messages: queued.extend(m.args[0] for m in messages)
    )
    client = _client(_users(train_project)[role])
    read, write = MATRIX[role]
    pid = train_project.pk
    run = TrainingRun.objects.create(project=train_project, export=trl_export, base_model="/m")

    assert client.get(f"/api/projects/{pid}/training-runs/").status_code == read
    assert client.get(f"/api/training-runs/{run.pk}/").status_code == read
    assert client.get(f"/api/projects/{pid}/prm-models/").status_code == read
    assert client.get(f"/api/projects/{pid}/queue-priority/").status_code == read

    body = {"export": trl_export.pk, "base_model": str(base_model), "config": {"max_steps": 2}}
    created = client.post(f"/api/projects/{pid}/training-runs/", body, format="json")
    cancelled = client.post(f"/api/training-runs/{run.pk}/cancel/")
    registered = client.post(
        f"/api/projects/{pid}/prm-models/", {"name": "m", "path": str(trained_prm)}, format="json"
    )
    ordered = client.put(
        f"/api/projects/{pid}/queue-priority/", {"order": "prm_active"}, format="json"
    )
    if write == "ok":
        assert created.status_code == 202, created.content
        assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
        assert registered.status_code == 201, registered.content
        assert ordered.json() == {"order": "prm_active"}
    else:
        assert {r.status_code for r in (created, cancelled, registered, ordered)} == {write}
        assert TrainingRun.objects.count() == 1 and not PrmModel.objects.exists()
        assert TrainingRun.objects.get().status == "pending"


@pytest.mark.django_db(transaction=True)
def test_create_queues_the_task_on_commit_and_reads_back(
    train_project, trl_export, base_model, monkeypatch
):
    queued = []
    monkeypatch.setattr(
        outbox, "_publish", lambda messages: queued.extend(m.args[0] for m in messages)
    )
    admin = _client(train_project.admin)
    body = {"export": trl_export.pk, "base_model": str(base_model), "config": {"lr": 1e-4}}
    response = admin.post(f"/api/projects/{train_project.pk}/training-runs/", body, format="json")
    assert response.status_code == 202, response.content
    run = response.json()
    assert queued == [run["id"]]
    assert (run["status"], run["config"], run["export"], run["created_by"]) == (
        "pending",
        {"lr": 1e-4},
        trl_export.pk,
        "t-admin",
    )
    listed = admin.get(f"/api/projects/{train_project.pk}/training-runs/").json()
    assert [r["id"] for r in listed["results"]] == [run["id"]]
    assert "history" not in listed["results"][0]
    detail = admin.get(f"/api/training-runs/{run['id']}/").json()
    assert detail["history"] == [] and detail["progress"] == 0.0


@pytest.mark.parametrize(
    "body, field",
    [
        ({"export": 999999, "base_model": "/x"}, "export"),
        ({"base_model": "/x"}, "export"),
        ({"export": "EXPORT", "base_model": "/nonexistent"}, "base_model"),
        ({"export": "EXPORT", "base_model": "BASE", "config": {"model": "/y"}}, "config"),
    ],
)
def test_bad_requests_get_one_error_shape(train_project, trl_export, base_model, body, field):
    body = {
        k: trl_export.pk if v == "EXPORT" else str(base_model) if v == "BASE" else v
        for k, v in body.items()
    }
    response = _client(train_project.admin).post(
        f"/api/projects/{train_project.pk}/training-runs/", body, format="json"
    )
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "validation_error"
    assert field in (error["details"].get("field", "") + " ".join(error["details"]))


def test_another_projects_export_is_refused(train_project, base_model):
    from labeling.services.exports.snapshots import export_build, export_create
    from tests.factories import ProjectFactory

    other = export_build(
        export=export_create(project=ProjectFactory(), created_by=None, format="trl")
    )
    response = _client(train_project.admin).post(
        f"/api/projects/{train_project.pk}/training-runs/",
        {"export": other.pk, "base_model": str(base_model)},
        format="json",
    )
    assert response.status_code == 400


def test_cancel_a_finished_run_conflicts(train_project, trl_export):
    run = TrainingRun.objects.create(
        project=train_project, export=trl_export, base_model="/m", status="done"
    )
    response = _client(train_project.admin).post(f"/api/training-runs/{run.pk}/cancel/")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "conflict"


def test_queue_priority_refuses_unknown_orders(train_project):
    response = _client(train_project.admin).put(
        f"/api/projects/{train_project.pk}/queue-priority/", {"order": "random"}, format="json"
    )
    assert response.status_code == 400


def test_schema_documents_the_endpoints(db):
    from django.test import Client

    schema = Client().get("/api/schema/?format=json").json()
    for path in (
        "/api/projects/{project_id}/training-runs/",
        "/api/training-runs/{run_id}/",
        "/api/training-runs/{run_id}/cancel/",
        "/api/projects/{project_id}/prm-models/",
        "/api/projects/{project_id}/queue-priority/",
    ):
        assert path in schema["paths"], path
    run_input = schema["components"]["schemas"]["TrainingRunInputRequest"]
    assert set(run_input["required"]) == {"export", "base_model"}


def test_a_retry_with_the_same_idempotency_key_answers_the_same_run(
    train_project, trl_export, base_model, monkeypatch
):
    monkeypatch.setattr(outbox, "_publish", lambda messages: None)
    admin = _client(train_project.admin)
    url = f"/api/projects/{train_project.pk}/training-runs/"
    body = {"export": trl_export.pk, "base_model": str(base_model)}
    first = admin.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="train-1")
    again = admin.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="train-1")
    assert first.status_code == again.status_code == 202, again.content
    assert first.json()["id"] == again.json()["id"]
    assert TrainingRun.objects.count() == 1
