"""Two or more reviewers acting on one solution at once, on PostgreSQL with real threads."""

import pytest
from django.db import connection

from labeling.errors import Conflict
from labeling.models import Annotation, AnnotationStatus, Resolution, ReviewAction, Solution
from labeling.services.queue.claim import task_claim_next
from labeling.services.review.actions import review_accept, review_adjudicate, review_reject
from tests.concurrency.threads import run_threads
from tests.factories import MembershipFactory, ProjectFactory, SolutionFactory, UserFactory
from tests.review.conftest import label

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _setup(n_reviewers: int):
    project = ProjectFactory(overlap=2)
    solution = SolutionFactory(problem__project=project, steps=3)
    users = []
    for name in ("a", "b"):
        user = UserFactory(username=name)
        MembershipFactory(project=project, user=user)
        users.append(user)
    reviewers = [UserFactory(username=f"r{i}") for i in range(n_reviewers)]
    for r in reviewers:
        MembershipFactory(project=project, user=r, role="reviewer")
    first = label(users[0], project, [1, 1, -1])
    second = label(users[1], project, [1, -1, -1])
    return project, solution, users, reviewers, first, second


def _outcome(call):
    try:
        call()
        return "ok"
    except Conflict:
        return "conflict"


def test_concurrent_rejects_of_one_annotation_make_one_rework():
    assert connection.vendor == "postgresql"
    project, solution, users, reviewers, first, _ = _setup(8)
    outcomes = run_threads(
        8,
        lambda i: _outcome(
            lambda: review_reject(annotation=first, reviewer=reviewers[i], comment=f"r{i}")
        ),
    )
    assert sorted(outcomes) == ["conflict"] * 7 + ["ok"]
    assert Annotation.objects.filter(revises=first).count() == 1
    assert Solution.objects.get(pk=solution.pk).submitted_count == 1
    assert ReviewAction.objects.filter(action="reject").count() == 1
    # The rework is what the annotator gets next.
    rework = Annotation.objects.get(revises=first)
    assert task_claim_next(project=project, user=users[0]).annotation.pk == rework.pk


def test_concurrent_adjudications_from_the_same_view_resolve_once():
    project, solution, _, reviewers, first, second = _setup(8)
    steps = list(solution.steps.order_by("index").values_list("id", flat=True))

    def act(i: int):
        if i % 2:
            return lambda: review_accept(
                annotation=first if i % 4 == 1 else second,
                reviewer=reviewers[i],
                expected_resolution_id=None,
            )
        return lambda: review_adjudicate(
            solution=solution,
            reviewer=reviewers[i],
            labels=[{"step_id": s, "rating": (i % 3) - 1} for s in steps],
            expected_resolution_id=None,
        )

    outcomes = run_threads(8, lambda i: _outcome(act(i)))
    assert sorted(outcomes) == ["conflict"] * 7 + ["ok"]
    assert Resolution.objects.count() == 1
    assert Resolution.objects.filter(is_current=True).count() == 1
    assert ReviewAction.objects.count() == 1


def _accept_or_reject(first, reviewers):
    def act(i: int) -> str:
        if i == 0:
            return _outcome(lambda: review_accept(annotation=first, reviewer=reviewers[0]))
        return _outcome(
            lambda: review_reject(annotation=first, reviewer=reviewers[1], comment="no")
        )

    return act


def test_reject_racing_accept_never_leaves_a_resolution_on_a_rejected_annotation():
    for _ in range(5):
        _, solution, _, reviewers, first, _ = _setup(2)
        run_threads(2, _accept_or_reject(first, reviewers))
        first.refresh_from_db()
        assert first.status == AnnotationStatus.REJECTED
        current = Resolution.objects.filter(solution=solution, is_current=True)
        assert not current.filter(annotations=first).exists()
