"""GET /api/projects/{id}/exports/?export_format=&status=: only those exports, a page at a time (the
training tab asks for the finished TRL ones: it read the newest 50 of all and filtered them)."""

import pytest
from rest_framework.test import APIClient

from labeling.models import Export
from tests.factories import ProjectFactory
from tests.review.conftest import member

pytestmark = pytest.mark.django_db


def test_format_and_status_filter_every_page():
    project, other = ProjectFactory(), ProjectFactory()
    admin = member(project, "admin", role="admin")
    old = Export.objects.create(project=project, format="trl", status="done")
    Export.objects.create(project=other, format="trl", status="done")
    Export.objects.bulk_create(
        Export(project=project, format=f, status=s)
        for f, s in [("prm800k", "done"), ("trl", "failed"), ("trl", "pending")] * 30
    )
    newest = Export.objects.create(project=project, format="trl", status="done")
    client = APIClient()
    client.force_authenticate(admin)
    url = f"/api/projects/{project.pk}/exports/"
    res = client.get(url, {"export_format": "trl", "status": "done", "limit": 1})
    assert res.status_code == 200, res.content
    body = res.json()
    assert body["count"] == 2
    assert [e["id"] for e in body["results"]] == [newest.pk]
    assert [e["id"] for e in client.get(body["next"]).json()["results"]] == [old.pk]
    assert client.get(url, {"status": "pending"}).json()["count"] == 30
    assert client.get(url).json()["count"] == 92
    for bad in ({"export_format": "csv"}, {"status": "done!"}, {"export_format": "trl" * 500}):
        res = client.get(url, bad)
        assert res.status_code == 400, res.content
        assert res.json()["error"]["code"] == "validation_error"
