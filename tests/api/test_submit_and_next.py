"""Submit with `next`: the submit and the next claim in one request (one request per task).

What the answer's `next_task` holds must be what `queue/next` would have served, a retry of the
submit (same request_id, its answer lost) must answer the same next task rather than claim a
second one, the last task answers `next_task: null`, and the request sends fewer statements
than a submit and a claim apart.
"""

import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from labeling.models import Annotation, AnnotationStatus, Role, TaskLock
from labeling.services.people.tokens import token_create
from tests.api.test_loop_queries import MOST
from tests.factories import MembershipFactory, ProjectFactory, SolutionFactory

pytestmark = pytest.mark.django_db(transaction=True)


def _client(project, n_solutions=3):
    membership = MembershipFactory(project=project, role=Role.ANNOTATOR)
    for _ in range(n_solutions):
        SolutionFactory(problem__project=project, steps=3)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_create(user=membership.user).key}")
    return client, membership.user


def _submit(client, task, *, next_=True, request_id=None):
    labels = [{"step_id": s["id"], "rating": 1} for s in task["solution"]["steps"]]
    body = {"version": task["annotation"]["version"], "labels": labels, "next": next_}
    if request_id:
        body["request_id"] = request_id
    return client.post(f"/api/annotations/{task['annotation']['id']}/submit/", body, format="json")


def test_submit_with_next_answers_the_next_claim_and_a_retry_the_same_one():
    project = ProjectFactory()
    client, user = _client(project)
    first = client.post(f"/api/projects/{project.pk}/queue/next/").json()

    rid = str(uuid.uuid4())
    done = _submit(client, first, request_id=rid)
    assert done.status_code == 200, done.content
    body = done.json()
    assert body["status"] == "submitted" and body["id"] == first["annotation"]["id"]
    second = body["next_task"]
    assert second["solution"]["id"] != first["solution"]["id"]
    assert second["annotation"]["status"] == "draft"
    assert TaskLock.objects.filter(user=user, solution_id=second["solution"]["id"]).exists()

    # The answer was lost; the page retries the same write: same submit, same next task.
    again = _submit(client, first, request_id=rid)
    assert again.status_code == 200, again.content
    assert again.json()["next_task"]["annotation"]["id"] == second["annotation"]["id"]
    assert Annotation.objects.filter(annotator=user, status=AnnotationStatus.DRAFT).count() == 1
    # queue/next serves that same draft too.
    resumed = client.post(f"/api/projects/{project.pk}/queue/next/").json()
    assert resumed["annotation"]["id"] == second["annotation"]["id"]

    third = _submit(client, second).json()["next_task"]
    last = _submit(client, third)
    assert last.status_code == 200 and last.json()["next_task"] is None  # nothing left
    assert Annotation.objects.filter(annotator=user, status=AnnotationStatus.SUBMITTED).count() == 3


def test_without_next_the_answer_is_the_annotation_alone():
    project = ProjectFactory()
    client, _ = _client(project)
    task = client.post(f"/api/projects/{project.pk}/queue/next/").json()
    done = _submit(client, task, next_=False)
    assert done.status_code == 200 and "next_task" not in done.json()


def test_submit_with_next_sends_fewer_statements_than_submit_and_claim_apart():
    project = ProjectFactory()
    client, _ = _client(project, n_solutions=4)
    task = client.post(f"/api/projects/{project.pk}/queue/next/").json()
    task = _submit(client, task).json()["next_task"]  # warm: statements compile once a thread
    counts = []
    for _ in range(2):
        with CaptureQueriesContext(connection) as both:
            answer = _submit(client, task)
        assert answer.status_code == 200, answer.content
        task = answer.json()["next_task"]
        counts.append(len(both))
    assert counts[0] == counts[1]
    # One token lookup, one project read and one transaction instead of two of each.
    assert counts[0] <= sum(MOST[connection.vendor]) - 3, counts


def test_submit_with_next_is_one_transaction_a_failed_claim_takes_the_submit_back(monkeypatch):
    """The submit and the next claim commit together (services/next_task.py): when the claim
    fails, the submit is not stored either, the draft keeps its labels, and the page's retry
    with the same request_id then stores it once and answers the next task."""
    import labeling.services.labeling.next_task as next_task

    project = ProjectFactory()
    client, user = _client(project)
    client.raise_request_exception = False
    first = client.post(f"/api/projects/{project.pk}/queue/next/").json()
    draft = client.put(
        f"/api/annotations/{first['annotation']['id']}/draft/",
        {"version": 1, "labels": [{"step_id": first["solution"]["steps"][0]["id"], "rating": -1}]},
        format="json",
    ).json()
    first["annotation"]["version"] = draft["version"]

    real = next_task.task_payload

    def broken(**kwargs):
        raise RuntimeError("the claim broke")

    monkeypatch.setattr(next_task, "task_payload", broken)
    rid = str(uuid.uuid4())
    failed = _submit(client, first, request_id=rid)
    assert failed.status_code == 500
    stored = Annotation.objects.get(pk=first["annotation"]["id"])
    assert stored.status == AnnotationStatus.DRAFT and stored.version == draft["version"]
    assert [label.rating for label in stored.labels.all()] == [-1]  # the autosave is intact
    assert not Annotation.objects.filter(annotator=user).exclude(pk=stored.pk).exists()

    monkeypatch.setattr(next_task, "task_payload", real)
    retried = _submit(client, first, request_id=rid)
    assert retried.status_code == 200, retried.content
    assert retried.json()["status"] == "submitted" and retried.json()["next_task"]
    assert Annotation.objects.filter(annotator=user, status=AnnotationStatus.SUBMITTED).count() == 1
