"""An export an unfinished job reads is not deleted under it (the class of the registered
model's DELETE: a delete refuses while an unfinished run uses what it deletes). Before, a
project admin's DELETE removed the file under a pending training run or a queued Hub push,
which then failed."""

import pytest
from rest_framework.test import APIClient

from labeling.models import Export, HubPush
from tests.factories import MembershipFactory, ProjectFactory, UserFactory
from training_runs.models import TrainingRun, TrainingStatus


@pytest.fixture
def world(db):
    project = ProjectFactory()
    admin = UserFactory()
    MembershipFactory(project=project, user=admin, role="admin")
    client = APIClient()
    client.force_authenticate(admin)
    export = Export.objects.create(project=project, format="trl", status="done")
    return project, client, export


def test_an_export_a_pending_training_run_reads_is_refused(world):
    project, client, export = world
    run = TrainingRun.objects.create(project=project, export=export, base_model="/m")
    refused = client.delete(f"/api/exports/{export.pk}/")
    assert refused.status_code == 409, refused.content
    error = refused.json()["error"]
    assert error["code"] == "conflict" and f"training run {run.pk}" in error["message"]
    assert Export.objects.filter(pk=export.pk).exists()
    run.status = TrainingStatus.CANCELLED
    run.save(update_fields=["status"])
    assert client.delete(f"/api/exports/{export.pk}/").status_code == 204
    run.refresh_from_db()
    assert run.export_id is None  # the finished run keeps its row


@pytest.mark.parametrize("status", ["pending", "running"])
def test_an_export_an_unfinished_hub_push_reads_is_refused(world, status):
    _, client, export = world
    push = HubPush.objects.create(export=export, repo_id="me/data", status=status)
    refused = client.delete(f"/api/exports/{export.pk}/")
    assert refused.status_code == 409
    assert f"Hub push {push.pk}" in refused.json()["error"]["message"]
    HubPush.objects.filter(pk=push.pk).update(status="done")
    assert client.delete(f"/api/exports/{export.pk}/").status_code == 204


def test_a_training_run_on_an_export_deleted_meanwhile_is_a_400(world):
    from labeling.errors import ValidationFailed
    from training_runs.services import training_run_create

    project, _, export = world
    Export.objects.filter(pk=export.pk).delete()
    with pytest.raises(ValidationFailed, match="was deleted"):
        training_run_create(project=project, export=export, base_model="/m")
