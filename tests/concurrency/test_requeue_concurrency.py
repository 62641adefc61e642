"""A requeued complete solution under concurrent claims, on PostgreSQL: threads with their own
connections race for its one extra slot (labeling.services.projects.explorer's requeue)."""

import pytest
from django.db import connection

from labeling.models import Annotation, AnnotationStatus, Solution, TaskLock
from labeling.services.projects.explorer import explorer_bulk
from labeling.services.queue.claim import task_claim_next
from tests.concurrency.threads import run_threads
from tests.factories import ProjectFactory, SolutionFactory
from tests.review.conftest import label, member

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_concurrent_claims_of_a_requeued_solution_give_it_to_exactly_one_annotator():
    assert connection.vendor == "postgresql"
    project = ProjectFactory(overlap=2)
    solution = SolutionFactory(problem__project=project, steps=2)
    admin = member(project, "boss", "admin")
    labeled = [member(project, "a"), member(project, "b")]
    for user in labeled:
        label(user, project, [1, -1])
    result = explorer_bulk(project=project, action="requeue", user=admin, ids=[solution.pk])
    assert result["reopened"] == 1
    fresh = [member(project, f"c{i}") for i in range(10)]
    claimers = labeled + fresh  # the two who labeled it race too, and must get nothing

    def claim(i: int) -> int | None:
        got = task_claim_next(project=project, user=claimers[i])
        return None if got is None else got.annotation.solution_id

    claimed = run_threads(len(claimers), claim)
    assert claimed[:2] == [None, None]
    assert sorted(claimed[2:], key=lambda x: x is not None) == [None] * 9 + [solution.pk]
    winner = fresh[claimed[2:].index(solution.pk)]
    assert list(TaskLock.objects.values_list("user_id", flat=True)) == [winner.pk]
    drafts = Annotation.objects.filter(solution=solution, status=AnnotationStatus.DRAFT)
    assert list(drafts.values_list("annotator_id", flat=True)) == [winner.pk]
    assert Solution.objects.get(pk=solution.pk).submitted_count == 2
