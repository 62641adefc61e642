"""Solution.has_submission stays true to the annotations when a submission and a reject race on
one solution (PostgreSQL, real threads): the submit's count UPDATE and the reject's refresh each
run after the solution's row lock, so the second reads what the first committed. Without the
lock the reject's refresh could compute "no submission" from a snapshot taken before the other
thread's submit committed, and hide a submitted solution from the review queue."""

import pytest
from django.db import connection

from labeling.models import Annotation, AnnotationStatus, Solution
from labeling.selectors.review import has_submission, review_queue
from labeling.services.labeling.annotations import annotation_submit
from labeling.services.queue.claim import task_claim_next
from labeling.services.review.actions import review_reject
from tests.concurrency.threads import run_threads
from tests.factories import MembershipFactory, ProjectFactory, SolutionFactory, UserFactory
from tests.review.conftest import label

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

ROUNDS = 6


def _marker(solution_id: int) -> tuple[bool, bool]:
    row = Solution.objects.filter(pk=solution_id).annotate(live=has_submission())
    return row.values_list("has_submission", "live").get()


def test_a_submit_racing_the_reject_of_the_only_other_submission():
    assert connection.vendor == "postgresql"
    project = ProjectFactory(overlap=2, review_reasons_stored=True)
    reviewer = UserFactory(username="rev")
    MembershipFactory(project=project, user=reviewer, role="reviewer")
    for round_ in range(ROUNDS):
        a, b = UserFactory(username=f"a{round_}"), UserFactory(username=f"b{round_}")
        for user in (a, b):
            MembershipFactory(project=project, user=user)
        solution = SolutionFactory(problem__project=project, steps=2)
        first = label(a, project, [1, 1])
        assert first.solution_id == solution.pk
        claim = task_claim_next(project=project, user=b)
        assert claim.annotation.solution_id == solution.pk
        steps = list(solution.steps.order_by("index").values_list("id", flat=True))

        def act(i: int, claim=claim, first=first, b=b, steps=steps) -> None:
            if i == 0:
                review_reject(annotation=first, reviewer=reviewer, comment="redo")
            else:
                annotation_submit(
                    annotation=claim.annotation,
                    user=b,
                    version=claim.annotation.version,
                    labels=[{"step_id": s, "rating": 1} for s in steps],
                    finish_reason="solution",
                )

        run_threads(2, act)
        assert Annotation.objects.get(pk=first.pk).status == AnnotationStatus.REJECTED
        assert _marker(solution.pk) == (True, True), f"round {round_}"
        queued = [s.pk for s in review_queue(project=project, state="all")]
        assert solution.pk in queued, f"round {round_}: a submitted solution left the queue"


def test_two_rejects_of_both_submissions_leave_none():
    project = ProjectFactory(overlap=2, review_reasons_stored=True)
    reviewers = [UserFactory(username=f"rev{i}") for i in range(2)]
    for reviewer in reviewers:
        MembershipFactory(project=project, user=reviewer, role="reviewer")
    users = [UserFactory(username=f"u{i}") for i in range(2)]
    for user in users:
        MembershipFactory(project=project, user=user)
    solution = SolutionFactory(problem__project=project, steps=2)
    done = [label(user, project, [1, 1]) for user in users]
    assert _marker(solution.pk) == (True, True)

    run_threads(
        2,
        lambda i: review_reject(annotation=done[i], reviewer=reviewers[i], comment="redo"),
    )
    assert _marker(solution.pk) == (False, False)
    assert solution.pk not in [s.pk for s in review_queue(project=project, state="all")]
