"""The claim order keeps its invariants under the PRM active-learning order (autolabel's
QueuePriority `prm_active`): solutions assigned to the user first, gold at the project's rate,
and solutions assigned to others never served."""

import pytest

from labeling.services.queue.assignments import assignment_create
from labeling.services.queue.claim import task_claim_next
from tests.factories import ProjectFactory, SolutionFactory
from tests.review.conftest import member
from tests.review.test_gold_serving import _answer, _gold
from training_runs.active_learning import queue_order_set

pytestmark = pytest.mark.django_db


def _prm(min_probability, threshold=0.5):
    return {
        "prm": {
            "min_probability": min_probability,
            "first_error": None,
            "threshold": threshold,
            "uncertainty": abs(min_probability - threshold),
        }
    }


@pytest.fixture
def active():
    project = ProjectFactory(overlap=1, gold_rate=0.25)
    # Unscored solutions come last in the PRM order; wrong-answer convincing ones first.
    unscored = SolutionFactory.create_batch(3, problem__project=project, steps=2)
    convincing = [
        SolutionFactory(problem__project=project, steps=2, metadata=_prm(p), answer_correct=False)
        for p in (0.9, 0.8, 0.7)
    ]
    gold = _gold(project, [1, 1])
    queue_order_set(project=project, order="prm_active")
    return project, unscored, convincing, gold


def _claims(project, user, n):
    served = []
    for _ in range(n):
        claim = task_claim_next(project=project, user=user)
        if claim is None:
            break
        served.append(claim.annotation.solution_id)
        _answer(claim, user)
    return served


def test_assigned_solutions_come_before_the_prm_order_and_gold_keeps_its_rate(active):
    project, unscored, convincing, gold = active
    x, y = member(project, "x"), member(project, "y")
    # The two least interesting solutions for the PRM order, given to x.
    assignment_create(project=project, user_ids=[x.pk], solution_ids=[u.pk for u in unscored[1:]])
    served = _claims(project, x, 5)
    # work, work, work, gold (rate 0.25): x's assigned ones first (in PRM then id order),
    # then the PRM order resumes with the most convincing wrong answer.
    assert served == [unscored[1].pk, unscored[2].pk, convincing[0].pk, gold.pk, convincing[1].pk]
    # y is not an assignee: never gets x's solutions, PRM order otherwise (and 2 answers are
    # too few for gold at 0.25).
    assert _claims(project, y, 10) == [convincing[2].pk, unscored[0].pk]


def test_without_assignments_the_prm_order_is_unchanged(active):
    project, unscored, convincing, gold = active
    served = _claims(project, member(project, "z"), 4)
    assert served == [convincing[0].pk, convincing[1].pk, convincing[2].pk, gold.pk]


def test_any_registered_order_keeps_assigned_first(monkeypatch):
    """A hook ordering by -id, or returning its candidates with no order of its own."""
    from django.utils import timezone

    from labeling.selectors.labeling_page import solution_claimable_for_user
    from labeling.services.queue import claim as queue

    project = ProjectFactory(overlap=1)
    solutions = SolutionFactory.create_batch(4, problem__project=project, steps=1)
    x = member(project, "x")
    assignment_create(project=project, user_ids=[x.pk], solution_ids=[solutions[1].pk])
    for hook, rest in (
        (lambda project, candidates: candidates.order_by("-id"), [3, 2, 0]),
        (lambda project, candidates: candidates.order_by(), [0, 2, 3]),
    ):
        monkeypatch.setattr(queue, "CANDIDATE_ORDERINGS", [hook])
        claimable = solution_claimable_for_user(project=project, user=x, now=timezone.now())
        order = list(
            queue.candidates_ordered(project=project, candidates=claimable).values_list(
                "pk", flat=True
            )
        )
        assert order == [solutions[1].pk] + [solutions[i].pk for i in rest]
