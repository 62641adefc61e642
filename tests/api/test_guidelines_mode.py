"""The labeling page's guidelines say the rating rule of the project's mode."""

import pytest
from rest_framework.test import APIClient

from labeling.selectors.guidelines import EVERY_STEP
from tests.factories import ProjectFactory, SolutionFactory
from tests.review.conftest import member

pytestmark = pytest.mark.django_db


def _guidelines(project) -> str:
    SolutionFactory(problem__project=project, steps=2)
    client = APIClient()
    client.force_authenticate(member(project, "g"))
    return client.post(f"/api/projects/{project.pk}/queue/next/").json()["project"]["guidelines"]


def test_first_error_project_with_the_default_text_says_stop_at_the_first_wrong_step():
    shown = _guidelines(ProjectFactory(first_error_mode=True))
    assert EVERY_STEP not in shown
    assert "stop at the\nfirst wrong step" in shown


def test_other_projects_and_own_guidelines_are_shown_as_written():
    assert EVERY_STEP in _guidelines(ProjectFactory(first_error_mode=False))
    own = "Rate every step. Yes, every one."
    assert _guidelines(ProjectFactory(first_error_mode=True, guidelines=own)) == own
