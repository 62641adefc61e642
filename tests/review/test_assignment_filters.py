"""Assignment choices the UI offers: a count (`limit`), only unassigned solutions, a preview
that writes nothing, and the problem sources with their counts."""

import pytest
from rest_framework.test import APIClient

from labeling.models import Assignment
from labeling.services.queue.assignments import assignment_create, assignment_plan
from tests.factories import ProjectFactory, SolutionFactory
from tests.review.conftest import member

pytestmark = pytest.mark.django_db


@pytest.fixture
def af():
    project = ProjectFactory(overlap=1)
    solutions = SolutionFactory.create_batch(6, problem__project=project, steps=2)
    for s in solutions[4:]:
        s.problem.source = "olympiad"
        s.problem.save()
    users = [member(project, name) for name in ("x", "y")]
    admin = member(project, "boss", "admin")
    client = APIClient()
    client.force_authenticate(admin)
    return project, solutions, users, client


def test_limit_takes_the_first_solutions_and_only_unassigned_skips_assigned(af):
    project, solutions, (x, y), _ = af
    created = assignment_create(project=project, user_ids=[x.pk, y.pk], limit=3)
    assert created == {x.pk: 2, y.pk: 1}
    assert set(Assignment.objects.values_list("solution_id", flat=True)) == {
        s.pk for s in solutions[:3]
    }
    # The next batch: without only_unassigned the first three would be chosen again.
    again = assignment_create(project=project, user_ids=[y.pk], limit=2, only_unassigned=True)
    assert again == {y.pk: 2}
    assert set(Assignment.objects.filter(user=y).values_list("solution_id", flat=True)) == {
        solutions[1].pk,
        solutions[3].pk,
        solutions[4].pk,
    }


def test_preview_counts_without_writing(af):
    project, _, (x, y), client = af
    url = f"/api/projects/{project.pk}/assignments/preview/"
    body = {"user_ids": [x.pk, y.pk], "strategy": "round_robin", "source": "olympiad"}
    res = client.post(url, body, format="json")
    assert res.status_code == 200, res.content
    assert res.json() == {"solutions": 2, "new": {str(x.pk): 1, str(y.pk): 1}}
    assert not Assignment.objects.exists()
    plan = assignment_plan(project=project, user_ids=[x.pk, y.pk], strategy="each", limit=4)
    assert plan.solutions == 4 and plan.per_user([x.pk, y.pk]) == {x.pk: 4, y.pk: 4}
    bad = client.post(url, {"user_ids": [x.pk], "strategy": "weighted"}, format="json")
    assert bad.status_code == 400 and not Assignment.objects.exists()


def test_problem_sources_with_counts(af):
    project, solutions, (x, _), client = af
    assignment_create(project=project, user_ids=[x.pk], solution_ids=[solutions[5].pk])
    res = client.get(f"/api/projects/{project.pk}/problem-sources/")
    assert res.status_code == 200
    by = {r["source"]: r for r in res.json()["results"]}
    assert by["olympiad"] == {"source": "olympiad", "solutions": 2, "open": 2, "unassigned": 1}
    assert sum(r["solutions"] for r in res.json()["results"]) == 6
