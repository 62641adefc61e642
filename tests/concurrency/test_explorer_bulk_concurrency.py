"""Bulk explorer actions racing on the same solutions, on PostgreSQL with real threads: the
solution row locks make each solution change once, and the others report it as left."""

import pytest
from django.db import connection

from labeling.models import LabelHistory, Resolution, Solution
from labeling.services.projects.explorer import explorer_bulk
from labeling.services.review.resolutions import resolution_create
from tests.concurrency.threads import run_threads
from tests.factories import MembershipFactory, ProjectFactory, SolutionFactory, UserFactory
from tests.review.conftest import label

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _reviewed(n: int):
    project = ProjectFactory(overlap=1)
    annotator = UserFactory(username="a")
    MembershipFactory(project=project, user=annotator)
    admin = UserFactory(username="boss")
    MembershipFactory(project=project, user=admin, role="admin")
    solutions = []
    for _ in range(n):
        solution = SolutionFactory(problem__project=project, steps=3)
        label(annotator, project, [1, 1, -1])
        steps = solution.steps.order_by("index").values_list("id", flat=True)
        resolution_create(solution=solution, ratings=dict.fromkeys(steps, 1), provenance="reviewer")
        solutions.append(solution)
    return project, admin, [s.pk for s in solutions]


@pytest.mark.parametrize("action", ["mark_gold", "send_to_review"])
def test_concurrent_bulk_actions_change_each_solution_once(action):
    assert connection.vendor == "postgresql"
    project, admin, ids = _reviewed(3)
    # Each thread names the ids in its own order: the locks are taken in id order regardless.
    results = run_threads(
        6,
        lambda i: explorer_bulk(
            project=project, action=action, user=admin, ids=ids[i % 3 :] + ids[: i % 3]
        ),
    )
    assert sum(r["changed"] for r in results) == 3
    assert all(r["matched"] == 3 for r in results)
    left = "already_gold" if action == "mark_gold" else "already_in_review"
    assert sum(r["skipped"].get(left, 0) for r in results) == 6 * 3 - 3
    if action == "mark_gold":
        assert Solution.objects.filter(pk__in=ids, is_gold=True).count() == 3
    else:
        assert not Resolution.objects.filter(solution_id__in=ids, is_current=True).exists()
        assert LabelHistory.objects.filter(solution_id__in=ids, action="withdraw").count() == 9
