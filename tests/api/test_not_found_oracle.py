"""A 404 says the same whether the object is missing or belongs to a project the caller is not
in (issue 24: the messages differed, so ids of other teams' objects could be probed)."""

import pytest
from rest_framework.test import APIClient

from autolabel.models import AutolabelRun
from labeling.models import Export, ImportJob
from labeling.services.people.tokens import token_create
from training_runs.models import TrainingRun

pytestmark = pytest.mark.django_db

MISSING = 2_000_000_000


@pytest.fixture
def theirs(world):
    """Objects of project Alpha, which the outsider is not a member of."""
    project, admin = world["project"], world["users"]["admin"]
    export = Export.objects.create(project=project, created_by=admin, format="trl")
    job = ImportJob.objects.create(project=project, filename="x.jsonl", file="x.jsonl")
    autolabel = AutolabelRun.objects.create(project=project, sources=["symbolic"], params={})
    training = TrainingRun.objects.create(project=project, export=export, base_model="/m")
    token = token_create(user=admin, name="theirs").token
    return {
        "project_id": project.pk,
        "solution_id": world["annotation"].solution_id,
        "annotation_id": world["annotation"].pk,
        "export_id": export.pk,
        "import_id": job.pk,
        "autolabel-runs": autolabel.pk,
        "training-runs": training.pk,
        "token_id": token.pk,
        "user_id": admin.pk,
    }


ROUTES = [
    "/api/projects/{project_id}/",
    "/api/projects/{project_id}/solutions/",
    "/api/projects/{project_id}/members/{user_id}/",
    "/api/projects/{project_id}/exports/",
    "/api/imports/{import_id}/",
    "/api/annotations/{annotation_id}/",
    "/api/annotations/{annotation_id}/submit/",
    "/api/annotations/{annotation_id}/accept/",
    "/api/annotations/{annotation_id}/feedback/",
    "/api/exports/{export_id}/",
    "/api/exports/{export_id}/download/",
    "/api/exports/{export_id}/card/",
    "/api/solutions/{solution_id}/review/",
    "/api/solutions/{solution_id}/comments/",
    "/api/solutions/{solution_id}/gold/",
    "/api/autolabel-runs/{autolabel-runs}/",
    "/api/autolabel-runs/{autolabel-runs}/cancel/",
    "/api/training-runs/{training-runs}/",
    "/api/training-runs/{training-runs}/cancel/",
    "/api/auth/tokens/{token_id}/",
]


def _url(route: str, ids: dict, missing: bool) -> str:
    out = route
    for key, value in ids.items():
        out = out.replace("{" + key + "}", str(MISSING if missing else value))
    return out


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("method", ["get", "post", "put", "delete"])
def test_someone_elses_object_reads_as_missing(world, theirs, route, method):
    client = APIClient()
    client.force_authenticate(world["users"]["outsider"])
    send = getattr(client, method)
    real = send(_url(route, theirs, False), {}, format="json")
    missing = send(_url(route, theirs, True), {}, format="json")
    if missing.status_code == 405:
        assert real.status_code == 405
        return
    assert missing.status_code == 404, missing.content
    assert (real.status_code, real.json()) == (missing.status_code, missing.json())
