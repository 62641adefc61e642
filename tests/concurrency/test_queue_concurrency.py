"""The queue under real concurrency, on PostgreSQL: threads with their own connections."""

import threading
from collections import Counter

import pytest
from django.db import connection
from django.db.models import Count, Q
from django.utils import timezone

from labeling.models import Annotation, AnnotationStatus, Solution, TaskLock
from labeling.services.labeling.annotations import annotation_submit
from labeling.services.queue.claim import task_claim_next
from tests.concurrency.threads import run_threads
from tests.factories import MembershipFactory, ProjectFactory, SolutionFactory, UserFactory

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _members(project, n: int) -> list:
    users = [UserFactory(username=f"c{i}") for i in range(n)]
    for u in users:
        MembershipFactory(project=project, user=u)
    return users


def test_32_threads_overlap_1_get_32_distinct_solutions():
    assert connection.vendor == "postgresql"
    project = ProjectFactory(overlap=1)
    for _ in range(40):
        SolutionFactory(problem__project=project, steps=2)
    users = _members(project, 32)

    claimed = run_threads(
        32, lambda i: task_claim_next(project=project, user=users[i]).annotation.solution_id
    )
    assert len(set(claimed)) == 32
    assert TaskLock.objects.count() == 32
    assert Annotation.objects.count() == 32


def test_overlap_2_never_exceeded_while_claiming_and_submitting():
    project = ProjectFactory(overlap=2)
    for _ in range(12):
        SolutionFactory(problem__project=project, steps=2)
    users = _members(project, 16)
    worst_holders: list[int] = []
    lock = threading.Lock()

    def work(i: int) -> int:
        done = 0
        while True:
            claim = task_claim_next(project=project, user=users[i])
            if claim is None:
                return done
            sid = claim.annotation.solution_id
            now = timezone.now()
            holders = (
                TaskLock.objects.filter(solution_id=sid, expires_at__gt=now)
                .values("user_id")
                .union(
                    Annotation.objects.filter(
                        solution_id=sid, status=AnnotationStatus.SUBMITTED
                    ).values("annotator_id")
                )
                .count()
            )
            with lock:
                worst_holders.append(holders)
            steps = list(claim.annotation.solution.steps.values_list("id", flat=True))
            annotation_submit(
                annotation=claim.annotation,
                user=users[i],
                version=claim.annotation.version,
                labels=[{"step_id": s, "rating": 1} for s in steps],
            )
            done += 1

    done = run_threads(16, work)
    assert sum(done) == 24  # 12 solutions x overlap 2, every one completed
    assert max(worst_holders) <= 2
    per_solution = Counter(
        Annotation.objects.filter(status=AnnotationStatus.SUBMITTED).values_list(
            "solution_id", flat=True
        )
    )
    assert set(per_solution.values()) == {2}
    # Nobody submitted the same solution twice, and the counter matches the rows.
    assert (
        not Annotation.objects.values("solution_id", "annotator_id")
        .annotate(n=Count("id"))
        .filter(n__gt=1)
    )
    assert not Solution.objects.exclude(submitted_count=2).exists()
    assert not Solution.objects.filter(~Q(submitted_count=2)).exists()


def test_a_submit_never_waits_for_another_solutions_submit():
    """Submits of different solutions share no lock: while one submit's transaction is still
    open, another annotator's submit in the same project commits (it once waited: the submit's
    row lock took the joined project row too, so a project's submits went one at a time)."""
    from django.db import transaction

    project = ProjectFactory(overlap=1)
    for _ in range(2):
        SolutionFactory(problem__project=project, steps=2)
    a, b = _members(project, 2)
    claims = [task_claim_next(project=project, user=u) for u in (a, b)]
    holding, release = threading.Event(), threading.Event()

    def submit(user, claim):
        labels = [{"step_id": s.id, "rating": 1} for s in claim.annotation.solution.steps.all()]
        return annotation_submit(
            annotation=claim.annotation, user=user, version=claim.annotation.version, labels=labels
        )

    def first(_):
        with transaction.atomic():
            submit(a, claims[0])
            holding.set()
            release.wait(30)  # the transaction (and every lock it took) stays open

    def second(_):
        assert holding.wait(30)
        try:
            with transaction.atomic():
                with connection.cursor() as cursor:
                    cursor.execute("SET LOCAL lock_timeout = '3s'")
                return submit(b, claims[1]).status
        finally:
            release.set()

    results = run_threads(2, lambda i: (first, second)[i](i))
    assert results[1] == AnnotationStatus.SUBMITTED


@pytest.mark.parametrize("solutions", [1, 3])
def test_one_users_two_sessions_claiming_at_once_get_the_same_solution(solutions):
    """Two browser sessions (or tabs) of one annotator load the label page at the same moment:
    both get the one draft. Before claims of a user were serialized, each read "no draft" and
    took a solution from the pool: two drafts, or "all done" for the project's last one."""
    for round_ in range(4):  # the race is lost or won by timing: several rounds
        project = ProjectFactory(overlap=1)
        for _ in range(solutions):
            SolutionFactory(problem__project=project, steps=2)
        user = UserFactory(username=f"twice{solutions}-{round_}")
        MembershipFactory(project=project, user=user)

        claims = run_threads(2, lambda i, p=project, u=user: task_claim_next(project=p, user=u))
        assert None not in claims, "a session was told all done while the other held a draft"
        assert claims[0].annotation.pk == claims[1].annotation.pk
        assert Annotation.objects.filter(annotator=user).count() == 1
        assert TaskLock.objects.filter(user=user).count() == 1
