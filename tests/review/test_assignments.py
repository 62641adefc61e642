"""Explicit assignment: strategies, the queue honouring it, the API."""

from collections import Counter

import pytest
from rest_framework.test import APIClient

from labeling.errors import ValidationFailed
from labeling.models import Assignment
from labeling.services.labeling.annotations import annotation_submit
from labeling.services.queue.assignments import assignment_clear, assignment_create
from labeling.services.queue.claim import task_claim_next
from tests.factories import ProjectFactory, SolutionFactory
from tests.review.conftest import member

pytestmark = pytest.mark.django_db


@pytest.fixture
def aw():
    project = ProjectFactory(overlap=1)
    solutions = SolutionFactory.create_batch(12, problem__project=project, steps=2)
    users = [member(project, name) for name in ("x", "y", "z")]
    return project, solutions, users


def _per_user(project):
    return Counter(
        Assignment.objects.filter(solution__project=project).values_list(
            "user__username", flat=True
        )
    )


def test_round_robin_spreads_evenly_and_respects_per_solution(aw):
    project, solutions, users = aw
    created = assignment_create(project=project, user_ids=[u.pk for u in users])
    assert sorted(created.values()) == [4, 4, 4]
    assignment_clear(project=project)
    assignment_create(project=project, user_ids=[u.pk for u in users], per_solution=2)
    assert _per_user(project) == {"x": 8, "y": 8, "z": 8}
    per_solution = Counter(
        Assignment.objects.filter(solution__project=project).values_list("solution_id", flat=True)
    )
    assert set(per_solution.values()) == {2}


def test_weighted_follows_the_weights(aw):
    project, _, users = aw
    assignment_create(
        project=project,
        user_ids=[u.pk for u in users],
        strategy="weighted",
        weights=[3, 2, 1],
    )
    assert _per_user(project) == {"x": 6, "y": 4, "z": 2}


def test_each_filters_and_is_idempotent(aw):
    project, solutions, users = aw
    ids = [s.pk for s in solutions[:3]]
    assignment_create(project=project, user_ids=[users[0].pk], solution_ids=ids, strategy="each")
    again = assignment_create(
        project=project, user_ids=[users[0].pk], solution_ids=ids, strategy="each"
    )
    assert again == {users[0].pk: 0}
    assert Assignment.objects.count() == 3
    source = solutions[5].problem
    source.source = "olympiad"
    source.save()
    assignment_create(project=project, user_ids=[users[1].pk], source="olympiad", strategy="each")
    assert list(Assignment.objects.filter(user=users[1]).values_list("solution_id", flat=True)) == [
        solutions[5].pk
    ]


def test_rules(aw):
    project, solutions, users = aw
    outsider_project = ProjectFactory()
    stranger = member(outsider_project, "stranger")
    with pytest.raises(ValidationFailed):
        assignment_create(project=project, user_ids=[stranger.pk])
    with pytest.raises(ValidationFailed):
        assignment_create(project=project, user_ids=[users[0].pk], strategy="weighted")
    foreign = SolutionFactory(problem__project=outsider_project)
    with pytest.raises(ValidationFailed):
        assignment_create(project=project, user_ids=[users[0].pk], solution_ids=[foreign.pk])


def test_queue_serves_assigned_first_and_only_to_assignees(aw):
    project, solutions, users = aw
    x, y, z = users
    assignment_create(
        project=project, user_ids=[x.pk], solution_ids=[solutions[7].pk, solutions[9].pk]
    )
    assignment_create(project=project, user_ids=[y.pk], solution_ids=[solutions[0].pk])
    # x gets its two assigned solutions before the lower-id open ones.
    claimed = []
    for _ in range(3):
        claim = task_claim_next(project=project, user=x)
        claimed.append(claim.annotation.solution_id)
        steps = claim.annotation.solution.steps.values_list("id", flat=True)
        annotation_submit(
            annotation=claim.annotation,
            user=x,
            version=claim.annotation.version,
            labels=[{"step_id": s, "rating": 1} for s in steps],
        )
    assert claimed == [solutions[7].pk, solutions[9].pk, solutions[1].pk]
    # z never gets y's solution even when everything else is taken.
    served = set()
    while (claim := task_claim_next(project=project, user=z)) is not None:
        served.add(claim.annotation.solution_id)
        steps = claim.annotation.solution.steps.values_list("id", flat=True)
        annotation_submit(
            annotation=claim.annotation,
            user=z,
            version=claim.annotation.version,
            labels=[{"step_id": s, "rating": 1} for s in steps],
        )
    assert solutions[0].pk not in served
    assert len(served) == 12 - 3 - 1
    assert task_claim_next(project=project, user=y).annotation.solution_id == solutions[0].pk


def test_api(aw):
    project, _, users = aw
    admin = member(project, "boss", "admin")
    client = APIClient()
    client.force_authenticate(admin)
    url = f"/api/projects/{project.pk}/assignments/"
    res = client.post(
        url,
        {"user_ids": [u.pk for u in users], "strategy": "weighted", "weights": [1, 1, 2]},
        format="json",
    )
    assert res.status_code == 201, res.content
    assert sorted(res.json()["created"].values()) == [3, 3, 6]
    summary = {r["username"]: r for r in client.get(url).json()["results"]}
    assert summary["z"]["assigned"] == 6 and summary["z"]["submitted"] == 0
    bad = client.post(url, {"user_ids": [admin.pk + 1000]}, format="json")
    assert bad.status_code == 400 and bad.json()["error"]["details"]["not_members"]
    cleared = client.delete(url, {"user_ids": [users[2].pk]}, format="json")
    assert cleared.json() == {"deleted": 6}


def test_a_request_past_the_solutions_or_rows_bound_is_refused_and_writes_nothing(aw, monkeypatch):
    """A project of a million solutions is never planned by one request: past SOLUTIONS_MAX
    chosen solutions or ROWS_MAX assignments the POST (and its preview) is a 400 that says
    what to send; a limit within the bound goes through, and only_unassigned goes on."""
    from labeling.services.queue import assignments

    monkeypatch.setattr(assignments, "SOLUTIONS_MAX", 5)
    monkeypatch.setattr(assignments, "ROWS_MAX", 12)
    project, _, users = aw
    client = APIClient()
    client.force_authenticate(member(project, "boss", "admin"))
    url = f"/api/projects/{project.pk}/assignments/"
    ids = [u.pk for u in users]
    for path in (url, f"{url}preview/"):
        many = client.post(path, {"user_ids": ids}, format="json")
        assert many.status_code == 400, many.content
        error = many.json()["error"]
        assert error["details"] == {"field": "limit", "most": 5}
        assert "More than 5 solutions" in error["message"]
    each = client.post(url, {"user_ids": ids, "strategy": "each", "limit": 5}, format="json")
    assert each.status_code == 400 and each.json()["error"]["details"]["most"] == 12
    assert "15 assignments" in each.json()["error"]["message"]
    assert not Assignment.objects.filter(solution__project=project).exists()
    first = client.post(url, {"user_ids": ids, "limit": 5}, format="json")
    assert first.status_code == 201 and sum(first.json()["created"].values()) == 5
    rest = {"user_ids": ids, "limit": 5, "only_unassigned": True}
    assert sum(client.post(url, rest, format="json").json()["created"].values()) == 5
    assert Assignment.objects.filter(solution__project=project).count() == 10
