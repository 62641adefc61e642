"""The annotator's loop sends a fixed number of statements, whatever the solution's length.

A claim and a submit through the API (token auth, as scripts and the load benches use it) are
counted on a solution of 3 steps and one of 30, each step with a suggestion: the counts are the
ones ARCHITECTURE.md states (BEGIN and COMMIT included where the backend logs them), and the
same for both lengths. A new query per step, or a re-read of what a service just wrote, fails.
"""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from labeling.models import Role, Step
from labeling.services.people.tokens import token_create
from tests.factories import MembershipFactory, ProjectFactory, SolutionFactory, SuggestionFactory

pytestmark = pytest.mark.django_db(transaction=True)

# (claim, submit) statements: on PostgreSQL a claim takes its solution in one statement and a
# submit joins its label writes (labeling/pg/writes_joined.py); SQLite sends those one by one. The
# claim order's read is kept 2 s per process (training_runs.active_learning): not counted.
MOST = {"postgresql": (10, 7), "sqlite": (13, 10)}


def _counts(client: APIClient, project_id: int) -> tuple[int, int]:
    with CaptureQueriesContext(connection) as claim:
        task = client.post(f"/api/projects/{project_id}/queue/next/")
    assert task.status_code == 200, task.content
    body = task.json()
    # Every step after the first marks a dependency (labels[].uses): same statements.
    labels = [
        {"step_id": s["id"], "rating": 1, **({"uses": [0]} if s["index"] else {})}
        for s in body["solution"]["steps"]
    ]
    assert all(s["suggestions"] for s in body["solution"]["steps"])
    url = f"/api/annotations/{body['annotation']['id']}/submit/"
    with CaptureQueriesContext(connection) as submit:
        done = client.post(url, {"version": 1, "labels": labels}, format="json")
    assert done.status_code == 200, done.content
    assert [label["rating"] for label in done.json()["labels"]] == [1] * len(labels)
    return len(claim), len(submit)


def test_claim_and_submit_send_a_fixed_number_of_statements():
    project = ProjectFactory()
    membership = MembershipFactory(project=project, role=Role.ANNOTATOR)
    for steps in (3, 30, 3):  # claimed in id order (all open, none submitted)
        solution = SolutionFactory(problem__project=project, steps=steps)
        for step in Step.objects.filter(solution=solution):
            SuggestionFactory(step=step)
    client = APIClient()
    client.credentials(
        HTTP_AUTHORIZATION=f"Token {token_create(user=membership.user, name='t').key}"
    )
    _counts(client, project.pk)  # warm: the statements are compiled once per thread

    short = _counts(client, project.pk)  # 30 steps, then 3
    long_then = _counts(client, project.pk)
    assert short == long_then
    claim, submit = short
    claim_most, submit_most = MOST[connection.vendor]
    assert claim <= claim_most and submit <= submit_most, (claim, submit)
