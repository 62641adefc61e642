import time

import pytest
from rest_framework.test import APIClient

from labeling.models import Suggestion
from tests.factories import MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


def _client(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_admin_starts_a_run_a_worker_finishes_it(pb_project, celery_worker_live):
    admin = _client(pb_project.admin)
    ids = list(pb_project.solutions.order_by("id").values_list("id", flat=True)[:12])
    response = admin.post(
        f"/api/projects/{pb_project.pk}/autolabel-runs/",
        {
            "sources": ["symbolic", "answer"],
            "filter": {"solution_ids": ids},
            "params": {"chunk_size": 5},
        },
        format="json",
    )
    assert response.status_code == 202, response.content
    run_id = response.json()["id"]
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        run = admin.get(f"/api/autolabel-runs/{run_id}/").json()
        if run["status"] in ("done", "failed"):
            break
        time.sleep(0.1)
    assert run["status"] == "done", run
    assert (run["total"], run["done"], run["progress"]) == (12, 12, 1.0)
    assert run["suggestions_written"] == Suggestion.objects.filter(source="symbolic").count() > 0

    listed = admin.get(f"/api/projects/{pb_project.pk}/autolabel-runs/").json()
    assert [r["id"] for r in listed["results"]] == [run_id]
    assert admin.post(f"/api/autolabel-runs/{run_id}/cancel/").status_code == 409


def test_only_project_admins_run_autolabel(pb_project):
    annotator, outsider = UserFactory(username="a1"), UserFactory(username="o1")
    MembershipFactory(project=pb_project, user=annotator, role="reviewer")
    url = f"/api/projects/{pb_project.pk}/autolabel-runs/"
    body = {"sources": ["symbolic"]}
    assert _client(annotator).post(url, body, format="json").status_code == 403
    assert _client(outsider).post(url, body, format="json").status_code == 404
    assert APIClient().post(url, body, format="json").status_code == 403
    bad = _client(pb_project.admin).post(url, {"sources": ["nope"]}, format="json")
    assert bad.status_code == 400
    assert bad.json()["error"]["code"] == "validation_error"
