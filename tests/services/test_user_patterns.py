"""A project admin's step-split pattern runs in linear time (RE2) and is checked when saved
(issue 24: `(a+)+$` took 36 s of CPU on 28 characters with Python's backtracking `re`)."""

import threading

import pytest
from rest_framework.test import APIClient

from labeling.models import Project
from labeling.steps.splitting import split_steps
from tests.factories import MembershipFactory, ProjectFactory, UserFactory

pytestmark = pytest.mark.django_db

CATASTROPHIC = [r"(a+)+$", r"(a|a)*$", r"(a*)*b", r"(x+x+)+y"]


@pytest.mark.parametrize("pattern", CATASTROPHIC)
def test_catastrophic_patterns_split_in_linear_time(pattern):
    text = "a" * 5000 + "\n" + "x" * 5000
    done: list[list[str]] = []
    worker = threading.Thread(target=lambda: done.append(split_steps(text, "regex", pattern)))
    worker.start()
    worker.join(timeout=30)  # backtracking would need 2^5000 steps: it never comes back
    assert done, f"{pattern} did not finish"
    assert "".join(done[0]).replace("\n", "") != ""


def _admin_client(project) -> APIClient:
    admin = UserFactory()
    MembershipFactory(project=project, user=admin, role="admin")
    client = APIClient()
    client.force_authenticate(admin)
    return client


@pytest.mark.parametrize(
    ("pattern", "reason"),
    [
        (r"(a)\1", "backreferences"),
        (r"(?<=Step)\s", "lookaround"),
        (r"(", "missing )"),
        ("a{1001}", "repetition"),
    ],
)
def test_a_pattern_re2_cannot_run_is_refused_when_saved(pattern, reason):
    project = ProjectFactory()
    response = _admin_client(project).patch(
        f"/api/projects/{project.pk}/",
        {"step_split": "regex", "step_split_regex": pattern},
        format="json",
    )
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["message"].startswith("step_split_regex")
    assert reason in error["message"]
    assert Project.objects.get(pk=project.pk).step_split_regex == ""


def test_a_catastrophic_pattern_is_saved_and_harmless():
    project = ProjectFactory()
    response = _admin_client(project).patch(
        f"/api/projects/{project.pk}/",
        {"step_split": "regex", "step_split_regex": r"\n(a+)+\n"},
        format="json",
    )
    assert response.status_code == 200, response.content
    assert split_steps("one\naaa\ntwo", "regex", r"\n(a+)+\n") == ["one", "two"]
