"""GET /api/machine-sources/: every suggestion source, installed plug-ins with their labels, in
the export's default priority order; an export's auto_sources is checked against that list."""

import pytest
from rest_framework.test import APIClient

from labeling.exporters.options import AUTO_PRIORITY, Filters
from labeling.models import SuggestionSource
from labeling.rules.machine_sources import machine_sources
from labeling.services.jobs import outbox
from tests.factories import MembershipFactory, ProjectFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client():
    user = UserFactory(username="sources-admin")
    project = ProjectFactory(name="Sources")
    MembershipFactory(project=project, user=user, role="admin")
    client = APIClient()
    client.force_authenticate(user)
    return client, project


def _listed(client) -> list[dict]:
    answer = client.get("/api/machine-sources/")
    assert answer.status_code == 200
    return answer.json()


def test_builtins_in_the_default_priority_order_with_their_labels(admin_client):
    client, _ = admin_client
    listed = _listed(client)
    names = [s["name"] for s in listed]
    default = [str(s) for s in AUTO_PRIORITY]
    assert names[: len(default)] == default
    assert set(names) == set(machine_sources()) == set(SuggestionSource.values)
    assert [s["name"] for s in listed if s["default"]] == list(Filters.auto_sources)
    labels = {s["name"]: s["label"] for s in listed}
    assert labels["rollout"] == "Monte-Carlo rollouts" and labels["code"] == "Code execution"
    assert not any(s["plugin"] for s in listed)
    assert APIClient().get("/api/machine-sources/").status_code in (401, 403)


def test_plugins_are_listed_with_their_labels_and_accepted_by_exports(
    admin_client, installed, monkeypatch, django_capture_on_commit_callbacks, settings
):
    monkeypatch.setattr(outbox, "_publish", lambda messages: None)
    # One export per source stays pending here (nothing is published): more than a project
    # may hold at once by default (labeling/services/jobs/quota.py).
    settings.PROJECT_ACTIVE_JOBS = {"exports": 1000}
    client, project = admin_client
    listed = _listed(client)
    hedges = next(s for s in listed if s["name"] == "hedges")
    assert hedges == {
        "name": "hedges",
        "label": "Hedging language",
        "plugin": True,
        "default": False,
    }
    names = [s["name"] for s in listed]
    assert set(names) == set(machine_sources())
    assert names.index("hedges") > max(names.index(str(s)) for s in SuggestionSource)
    assert "bad-queue" not in names  # a plug-in that failed to load is no source

    url = f"/api/projects/{project.pk}/exports/"
    for name in names:  # every listed source is one the server takes
        body = {"format": "trl", "filters": {"label_source": "auto_any", "auto_sources": [name]}}
        with django_capture_on_commit_callbacks(execute=True):
            answer = client.post(url, body, format="json")
        assert answer.status_code == 202, (name, answer.content)
    refused = client.post(
        url,
        {"format": "trl", "filters": {"label_source": "auto_any", "auto_sources": ["bad-queue"]}},
        format="json",
    )
    assert refused.status_code == 400
    assert refused.json()["error"]["details"]["field"] == "filters.auto_sources"
    too_many = client.post(
        url,
        {"format": "trl", "filters": {"label_source": "auto_any", "auto_sources": ["x"] * 65}},
        format="json",
    )
    assert too_many.status_code == 400
