import pytest
from rest_framework.test import APIClient

from labeling.services.queue.claim import task_claim_next
from tests.factories import MembershipFactory, ProjectFactory, SolutionFactory, UserFactory


@pytest.fixture
def world(db):
    """A project with members of every role, a second project, and one claimed annotation."""
    project = ProjectFactory(name="Alpha")
    other = ProjectFactory(name="Beta")
    for _ in range(3):
        SolutionFactory(problem__project=project, steps=5)
    SolutionFactory(problem__project=other)
    users = {
        "annotator": UserFactory(username="annotator"),
        "outsider": UserFactory(username="outsider"),
        "reviewer": UserFactory(username="reviewer"),
        "admin": UserFactory(username="padmin"),
        "staff": UserFactory(username="staff", is_staff=True),
        "spare": UserFactory(username="spare"),
    }
    MembershipFactory(project=project, user=users["annotator"], role="annotator")
    MembershipFactory(project=project, user=users["spare"], role="annotator")
    MembershipFactory(project=project, user=users["reviewer"], role="reviewer")
    MembershipFactory(project=project, user=users["admin"], role="admin")
    MembershipFactory(project=other, user=users["outsider"], role="annotator")
    claim = task_claim_next(project=project, user=users["annotator"])
    return {"project": project, "other": other, "users": users, "annotation": claim.annotation}


@pytest.fixture
def client_for(world):
    def make(role: str | None) -> APIClient:
        client = APIClient()
        if role is not None:
            client.force_authenticate(world["users"][role])
        return client

    return make
