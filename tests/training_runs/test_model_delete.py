"""DELETE /api/projects/{id}/prm-models/{model_id}/: a project admin unregisters a model, which
frees its place under COLLECTION_CAPS["prm_models"]. Before, nothing could, and a project at
its cap could never register another. A model an unfinished run uses is refused (409); the
suggestions it wrote and its files stay."""

import pytest
from rest_framework.test import APIClient

from autolabel.models import AutolabelRun, RunStatus
from labeling.models import Step, Suggestion
from labeling.services.jobs import outbox
from tests.factories import MembershipFactory, ProjectFactory, UserFactory
from training_runs.models import PrmModel, TrainingStatus
from training_runs.services import prm_model_register, training_run_create


@pytest.fixture(autouse=True)
def _no_publish(monkeypatch):
    monkeypatch.setattr(outbox, "_publish", lambda messages: None)


def _client(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _url(model: PrmModel) -> str:
    return f"/api/projects/{model.project_id}/prm-models/{model.pk}/"


@pytest.fixture
def model(train_project, base_model) -> PrmModel:
    return prm_model_register(project=train_project, name="m", path=str(base_model))


def test_reviewers_annotators_and_outsiders_may_not_delete(train_project, model):
    assert _client(train_project.reviewer).delete(_url(model)).status_code == 403
    assert _client(train_project.annotator).delete(_url(model)).status_code == 403
    refused = _client(UserFactory()).delete(_url(model))
    assert refused.status_code == 404 and refused.json()["error"]["code"] == "not_found"
    # Another project's admin: its own project id in the URL does not reach this model.
    other = ProjectFactory()
    other_admin = UserFactory()
    MembershipFactory(project=other, user=other_admin, role="admin")
    assert _client(other_admin).delete(_url(model)).status_code == 404
    forged = f"/api/projects/{other.pk}/prm-models/{model.pk}/"
    assert _client(other_admin).delete(forged).status_code == 404
    assert PrmModel.objects.filter(pk=model.pk).exists()


def test_an_admin_deletes_and_the_suggestions_and_files_stay(train_project, model, base_model):
    step = Step.objects.filter(solution__problem__project=train_project).first()
    kept = Suggestion.objects.create(step=step, source="prm", agent="prm:m", value=1, score=0.9)
    answer = _client(train_project.admin).delete(_url(model))
    assert answer.status_code == 204, answer.content
    assert not PrmModel.objects.filter(pk=model.pk).exists()
    assert Suggestion.objects.filter(pk=kept.pk, agent="prm:m").exists()
    assert (base_model / "config.json").is_file()
    gone = _client(train_project.admin).delete(_url(model))
    assert gone.status_code == 404 and gone.json()["error"]["code"] == "not_found"


@pytest.mark.parametrize("status", [RunStatus.PENDING, RunStatus.RUNNING, RunStatus.PAUSED])
@pytest.mark.parametrize("by", ["model_id", "path"])
def test_a_model_an_unfinished_autolabel_run_uses_is_refused(train_project, model, status, by):
    prm = {"model_id": model.pk, "path": model.path} if by == "model_id" else {"path": model.path}
    run = AutolabelRun.objects.create(
        project=train_project, sources=["prm"], params={"prm": prm}, status=status
    )
    refused = _client(train_project.admin).delete(_url(model))
    assert refused.status_code == 409, refused.content
    error = refused.json()["error"]
    assert error["code"] == "conflict"
    assert f"auto-label run {run.pk}" in error["message"]
    assert PrmModel.objects.filter(pk=model.pk).exists()
    run.status = RunStatus.DONE
    run.save(update_fields=["status"])
    assert _client(train_project.admin).delete(_url(model)).status_code == 204


def test_a_model_an_unfinished_training_run_starts_from_is_refused(
    train_project, model, trl_export, base_model
):
    run = training_run_create(project=train_project, export=trl_export, base_model=str(base_model))
    refused = _client(train_project.admin).delete(_url(model))
    assert refused.status_code == 409
    assert f"training run {run.pk}" in refused.json()["error"]["message"]
    run.status = TrainingStatus.CANCELLED
    run.save(update_fields=["status"])
    assert _client(train_project.admin).delete(_url(model)).status_code == 204


def test_deleting_frees_the_cap(train_project, base_model, settings):
    settings.COLLECTION_CAPS = {"prm_models": 1}
    client = _client(train_project.admin)
    url = f"/api/projects/{train_project.pk}/prm-models/"
    first = client.post(url, {"name": "a", "path": str(base_model)}, format="json")
    assert first.status_code == 201
    body = {"name": "b", "path": str(base_model)}
    assert client.post(url, body, format="json").status_code == 409
    assert client.delete(f"{url}{first.json()['id']}/").status_code == 204
    assert client.post(url, body, format="json").status_code == 201


@pytest.mark.postgres
def test_a_delete_waits_for_a_run_being_created_on_the_model(transactional_db, base_model):
    """The run's create locks the model it reads (autolabel.services._resolve_prm): a delete
    that comes meanwhile waits for the run to commit, then sees it and refuses. Without the
    lock it saw no run, deleted the model, and the run committed on a model that was gone."""
    import threading
    import time

    from django.db import connections, transaction

    from autolabel.services import autolabel_run_create
    from labeling.errors import Conflict
    from training_runs.services import prm_model_delete

    project = ProjectFactory()
    model = prm_model_register(project=project, name="m", path=str(base_model))
    created, outcome = threading.Event(), {}

    def create() -> None:
        try:
            with transaction.atomic():
                run = autolabel_run_create(
                    project=project, sources=["prm"], params={"prm": {"model_id": model.pk}}
                )
                outcome["run"] = run.pk
                created.set()
                time.sleep(1.0)  # the delete starts while this transaction holds the lock
        finally:
            created.set()
            connections.close_all()

    def delete() -> None:
        created.wait(30)
        try:
            prm_model_delete(model=model)
            outcome["delete"] = "deleted"
        except Conflict as exc:
            outcome["delete"] = str(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=create), threading.Thread(target=delete)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert outcome.get("run"), outcome
    assert f"auto-label run {outcome['run']}" in outcome["delete"]
    assert PrmModel.objects.filter(pk=model.pk).exists()
