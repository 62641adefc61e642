"""Deleting a project while its annotators submit, on PostgreSQL with real threads: no 500, no
503, no deadlock; each submit either lands before the delete or is told the project is gone,
and the purge leaves nothing behind."""

import time

import pytest
from django.db import connection, connections
from rest_framework.test import APIClient

from labeling.models import Annotation, LabelHistory, Project, Solution, Step, StepLabel
from labeling.services.projects.delete import project_purge
from labeling.services.queue.claim import task_claim_next
from tests.concurrency.threads import run_threads
from tests.factories import ProjectFactory, SolutionFactory
from tests.review.conftest import member

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

ANNOTATORS = 4
SOLUTIONS = 400


def test_annotators_submitting_while_the_project_is_deleted():
    assert connection.vendor == "postgresql"
    project = ProjectFactory(overlap=1)
    for _ in range(SOLUTIONS):
        SolutionFactory(problem__project=project, steps=4)
    admin = member(project, "admin", role="admin")
    users = [member(project, f"a{i}") for i in range(ANNOTATORS)]
    first = [task_claim_next(project=project, user=u).annotation for u in users]

    def delete() -> list[tuple[int, str | None]]:
        client = APIClient()
        client.force_authenticate(admin)
        time.sleep(0.3)  # the annotators are in full swing
        response = client.delete(f"/api/projects/{project.pk}/")
        project_purge(project_id=project.pk, batch=2)
        return [(response.status_code, None)]

    def annotate(user, annotation_id: int, version: int) -> list[tuple[int, str | None]]:
        """Submit and take the next task, until told to stop or nothing is left."""
        client = APIClient()
        client.force_authenticate(user)
        outcomes = []
        while annotation_id is not None:
            steps = Step.objects.filter(solution__annotations=annotation_id).order_by("index")
            labels = [{"step_id": s, "rating": 1} for s in steps.values_list("id", flat=True)]
            body = {"version": version, "labels": labels, "next": True}
            response = client.post(f"/api/annotations/{annotation_id}/submit/", body, format="json")
            body = response.json()
            outcomes.append((response.status_code, body.get("error", {}).get("code")))
            task = body.get("next_task") if response.status_code == 200 else None
            annotation_id = task and task["annotation"]["id"]
            version = task and task["annotation"]["version"]
        return outcomes

    def act(i: int):
        try:
            if i == 0:
                return delete()
            return annotate(users[i - 1], first[i - 1].pk, first[i - 1].version)
        finally:
            connections.close_all()

    results = run_threads(ANNOTATORS + 1, act)
    assert results[0] == [(202, None)]
    submits = [outcome for outcomes in results[1:] for outcome in outcomes]
    # Landed before the delete, told the project is gone, or (its annotation already purged
    # when the request came) no such annotation: never a 5xx, never a deadlock.
    assert set(submits) <= {(200, None), (410, "project_deleted"), (404, "not_found")}, submits
    assert (200, None) in submits
    stopped = [outcomes[-1] for outcomes in results[1:]]
    assert all(status != 200 for status, _ in stopped), stopped  # nobody ran out of work
    assert not Project.objects.filter(pk=project.pk).exists()
    for model in (Solution, Step, Annotation, StepLabel, LabelHistory):
        assert model.objects.count() == 0, model
