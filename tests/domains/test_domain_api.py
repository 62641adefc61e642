"""Project.domain: set on create, changed in settings, listed, and the sources it allows."""

import pytest
from rest_framework.test import APIClient

from autolabel.models import AutolabelRun
from tests.factories import MembershipFactory, ProjectFactory, SolutionFactory, UserFactory

pytestmark = pytest.mark.django_db


def _client(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_a_project_is_created_with_a_domain_and_lists_its_sources():
    staff = _client(UserFactory(is_staff=True))
    made = staff.post("/api/projects/", {"name": "Tools", "domain": "agent"}, format="json")
    assert made.status_code == 201, made.content
    assert made.json()["domain"] == "agent"
    assert made.json()["domain_sources"] == ["agent", "judge", "prm"]
    listed = staff.get("/api/projects/").json()["results"]
    assert [(p["name"], p["domain"]) for p in listed] == [("Tools", "agent")]


def test_the_default_domain_is_math():
    staff = _client(UserFactory(is_staff=True))
    body = staff.post("/api/projects/", {"name": "Plain"}, format="json").json()
    assert body["domain"] == "math"
    assert body["domain_sources"] == ["answer", "symbolic", "rollout", "judge", "consensus", "prm"]


def test_an_admin_changes_the_domain_in_settings_and_a_bad_one_is_refused():
    project = ProjectFactory()
    admin = UserFactory()
    MembershipFactory(project=project, user=admin, role="admin")
    url = f"/api/projects/{project.pk}/"
    changed = _client(admin).patch(url, {"domain": "text"}, format="json")
    assert changed.status_code == 200 and changed.json()["domain"] == "text"
    project.refresh_from_db()
    assert project.domain == "text"
    bad = _client(admin).patch(url, {"domain": "poetry"}, format="json")
    assert bad.status_code == 400
    assert bad.json()["error"]["code"] == "validation_error"
    annotator = UserFactory()
    MembershipFactory(project=project, user=annotator, role="annotator")
    assert _client(annotator).patch(url, {"domain": "math"}, format="json").status_code == 403


@pytest.mark.parametrize(
    ("domain", "refused", "allowed"),
    [
        ("math", "code", "symbolic"),
        ("code", "symbolic", "code"),
        ("agent", "rollout", "agent"),
        ("multimodal", "symbolic", "judge"),
        ("text", "symbolic", "rollout"),
        ("text", "answer", "judge"),
    ],
)
def test_a_run_refuses_a_source_that_does_not_apply_to_the_domain(domain, refused, allowed):
    project = ProjectFactory(domain=domain)
    SolutionFactory(problem__project=project, steps=2)
    admin = UserFactory()
    MembershipFactory(project=project, user=admin, role="admin")
    url = f"/api/projects/{project.pk}/autolabel-runs/"
    response = _client(admin).post(url, {"sources": [refused]}, format="json")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "validation_error"
    article = "an" if domain == "agent" else "a"
    assert f"Source {refused} does not apply to {article} {domain} project" in error["message"]
    assert not AutolabelRun.objects.exists()
    params = {"judge": {"backend": {"kind": "scripted", "responses": ["-1"]}}}
    ok = _client(admin).post(url, {"sources": [allowed], "params": params}, format="json")
    assert ok.status_code != 400 or "does not apply" not in ok.json()["error"]["message"], (
        ok.content
    )
