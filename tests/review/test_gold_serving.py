"""Gold questions in the annotator's queue: served at the project's rate, to everyone, and as a
screening set that gates new annotators."""

import json

import pytest
from rest_framework.test import APIClient

from labeling.models import (
    Annotation,
    ProjectMembership,
    Solution,
    TaskLock,
)
from labeling.selectors.labeling_page import task_payload
from labeling.services.gold.questions import gold_set
from labeling.services.labeling.annotations import annotation_submit
from labeling.services.queue.claim import task_claim_next
from tests.factories import ProjectFactory, SolutionFactory
from tests.review.conftest import member

pytestmark = pytest.mark.django_db


def _gold(project, ratings):
    solution = SolutionFactory(problem__project=project, steps=len(ratings))
    steps = solution.steps.order_by("index").values_list("id", flat=True)
    gold_set(
        solution=solution,
        labels=[{"step_id": s, "rating": r} for s, r in zip(steps, ratings, strict=True)],
    )
    return Solution.objects.get(pk=solution.pk)


def _answer(claim, user, ratings=None):
    steps = list(claim.annotation.solution.steps.order_by("index").values_list("id", flat=True))
    ratings = ratings or [1] * len(steps)
    return annotation_submit(
        annotation=claim.annotation,
        user=user,
        version=claim.annotation.version,
        labels=[{"step_id": s, "rating": r} for s, r in zip(steps, ratings, strict=True)],
    )


def test_gold_is_served_at_the_project_rate():
    project = ProjectFactory(gold_rate=0.25)
    SolutionFactory.create_batch(10, problem__project=project, steps=2)
    golds = {_gold(project, [1, 1]).pk for _ in range(3)}
    user = member(project, "g1")
    served = []
    for _ in range(12):
        claim = task_claim_next(project=project, user=user)
        served.append(claim.annotation.solution_id in golds)
        _answer(claim, user)
    assert served == [False, False, False, True] * 3


def test_gold_has_no_overlap_and_never_comes_as_regular_work():
    project = ProjectFactory(overlap=1, gold_rate=1.0)
    gold = _gold(project, [1, -1])
    users = [member(project, f"o{i}") for i in range(3)]
    for user in users:
        claim = task_claim_next(project=project, user=user)
        assert claim.annotation.solution_id == gold.pk
        _answer(claim, user, [1, -1])
    assert Solution.objects.get(pk=gold.pk).submitted_count == 3
    # With no regular work and the gold answered, nothing is left.
    assert task_claim_next(project=project, user=users[0]) is None
    project.gold_rate = 0
    project.save()
    newcomer = member(project, "o-new")
    assert task_claim_next(project=project, user=newcomer) is None  # gold is not work


def test_an_expired_gold_draft_is_resumed_although_many_answered():
    project = ProjectFactory(overlap=1, gold_rate=1.0)
    gold = _gold(project, [1, 1])
    first, second = member(project, "e1"), member(project, "e2")
    _answer(task_claim_next(project=project, user=first), first)
    draft = task_claim_next(project=project, user=second).annotation
    TaskLock.objects.filter(user=second).delete()
    assert task_claim_next(project=project, user=second).annotation.pk == draft.pk
    assert draft.solution_id == gold.pk


def test_the_task_payload_does_not_tell_it_is_gold():
    project = ProjectFactory(gold_rate=1.0)
    _gold(project, [1, 1])
    claim = task_claim_next(project=project, user=member(project, "t1"))
    payload = json.dumps(
        task_payload(annotation=claim.annotation, lock_expires_at=None), default=str
    )
    assert "gold" not in payload


@pytest.fixture
def screened():
    project = ProjectFactory(screening_size=2, screening_pass_rate=0.8)
    SolutionFactory.create_batch(3, problem__project=project, steps=2)
    golds = [_gold(project, [1, 1, -1]), _gold(project, [1, -1])]
    return project, golds


def _status(project, user) -> str:
    client = APIClient()
    client.force_authenticate(user)
    return client.get(f"/api/projects/{project.pk}/progress/").json()["screening"]


def test_screening_pass_opens_regular_work(screened):
    project, golds = screened
    user = member(project, "s-good")
    assert _status(project, user) == "pending"
    answers = {golds[0].pk: [1, 1, -1], golds[1].pk: [1, -1]}
    for _ in range(2):
        claim = task_claim_next(project=project, user=user)
        assert claim.annotation.solution_id in answers
        _answer(claim, user, answers[claim.annotation.solution_id])
    claim = task_claim_next(project=project, user=user)
    assert claim.annotation.solution_id not in answers
    assert ProjectMembership.objects.get(project=project, user=user).screening == "passed"
    assert _status(project, user) == "passed"


def test_screening_failure_stops_the_queue(screened):
    project, _ = screened
    user = member(project, "s-bad")
    for _ in range(2):
        claim = task_claim_next(project=project, user=user)
        _answer(claim, user)  # all +1: 3 of 5 steps right = 0.6 < 0.8
    assert task_claim_next(project=project, user=user) is None
    assert _status(project, user) == "failed"
    assert not Annotation.objects.filter(annotator=user, solution__is_gold=False).exists()


def test_reviewers_are_not_screened_and_no_gold_means_no_gate(screened):
    project, golds = screened
    reviewer = member(project, "s-rev", "reviewer")
    assert task_claim_next(project=project, user=reviewer).annotation.solution_id not in {
        g.pk for g in golds
    }
    bare = ProjectFactory(screening_size=5)
    SolutionFactory(problem__project=bare)
    assert task_claim_next(project=bare, user=member(bare, "s-bare")) is not None
