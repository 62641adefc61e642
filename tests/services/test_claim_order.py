"""The bounded claim reads the queue's order: its three reads (the user's assignments, the
open pool in index order, what the user skipped) list exactly what `candidates_ordered`
orders over the whole project, in that order, whatever the state; and claims follow it.

Random projects mix every rule: overlap 1-3 (and a requeue's extra label on some solutions),
others' submissions and live or expired locks,
rework drafts, the user's own submissions, drafts and skips, assignments to the user and to
others, gold, PRM scores (for the opt-in order)."""

import random
from datetime import timedelta

import pytest
from django.db.models import F, QuerySet
from django.utils import timezone

from labeling.models import Annotation, AnnotationStatus, Assignment, Solution, TaskLock
from labeling.selectors.labeling_page import solution_claimable_for_user
from labeling.services.queue.claim import _claim_first, _claim_phases, candidates_ordered
from labeling.services.queue.pool import queue_open_refresh
from tests.factories import ProjectFactory, SolutionFactory, UserFactory
from training_runs.active_learning import queue_order_set

pytestmark = pytest.mark.django_db


def _prm(rng: random.Random) -> dict:
    if rng.random() < 0.3:
        return {}
    p = round(rng.random(), 3)
    return {
        "prm": {
            "min_probability": p,
            "first_error": None if rng.random() < 0.5 else rng.randrange(3),
            "threshold": 0.5,
            "uncertainty": abs(p - 0.5),
        }
    }


def _random_project(rng: random.Random, *, prm_order: bool):
    project = ProjectFactory(overlap=rng.randint(1, 3))
    if prm_order:
        queue_order_set(project=project, order="prm_active")
    user, others = UserFactory(), UserFactory.create_batch(3)
    now = timezone.now()
    solutions = [
        SolutionFactory(
            problem__project=project,
            steps=1,
            metadata=_prm(rng),
            answer_correct=rng.choice([None, True, False]),
            is_gold=rng.random() < 0.05,
        )
        for _ in range(40)
    ]
    for solution in solutions:
        submitted, extra = 0, int(rng.random() < 0.25)  # extra: requeued when complete
        for other in others:
            roll = rng.random()
            if roll < 0.25 and submitted < project.overlap + extra:
                Annotation.objects.create(
                    solution=solution, annotator=other, status=AnnotationStatus.SUBMITTED
                )
                submitted += 1
            elif roll < 0.35:
                ttl = rng.choice([-60, 600])  # expired or live
                TaskLock.objects.create(
                    solution=solution, user=other, expires_at=now + timedelta(seconds=ttl)
                )
            elif roll < 0.38:
                rejected = Annotation.objects.create(
                    solution=solution, annotator=other, status=AnnotationStatus.REJECTED
                )
                Annotation.objects.create(solution=solution, annotator=other, revises=rejected)
        Solution.objects.filter(pk=solution.pk).update(
            submitted_count=submitted, extra_overlap=extra
        )
        roll = rng.random()
        if roll < 0.1:
            Annotation.objects.create(
                solution=solution, annotator=user, status=AnnotationStatus.DISCARDED
            )
        elif roll < 0.15:
            Annotation.objects.create(
                solution=solution, annotator=user, status=AnnotationStatus.SUBMITTED
            )
        roll = rng.random()
        if roll < 0.1:
            Assignment.objects.create(solution=solution, user=user)
        elif roll < 0.2:
            Assignment.objects.create(solution=solution, user=rng.choice(others))
    queue_open_refresh(project=project)
    return project, user


def _as_queryset(phase, project, user, now):
    """A phase's candidates as a queryset (the pool's phase compiles its first read once)."""
    if isinstance(phase, QuerySet):
        return phase
    return phase.queryset(project=project, user=user, now=now)


@pytest.mark.parametrize("prm_order", [False, True], ids=["default", "prm_active"])
@pytest.mark.parametrize("seed", range(6))
def test_the_three_reads_list_the_whole_order(seed, prm_order):
    rng = random.Random(seed)
    project, user = _random_project(rng, prm_order=prm_order)
    now = timezone.now()
    reference = list(
        candidates_ordered(
            project=project,
            candidates=solution_claimable_for_user(project=project, user=user, now=now),
        ).values_list("pk", flat=True)
    )
    phases = [
        list(_as_queryset(phase, project, user, now).values_list("pk", flat=True))
        for phase in _claim_phases(project=project, user=user, now=now)
    ]
    assert [pk for phase in phases for pk in phase] == reference
    assert reference, "the scenario should leave work to claim"


@pytest.mark.parametrize("prm_order", [False, True], ids=["default", "prm_active"])
@pytest.mark.parametrize("seed", range(3))
def test_claims_follow_the_order(seed, prm_order):
    """Claiming one after another (each claim's draft then skipped by an admin's hand) serves
    the reference order's head each time."""
    rng = random.Random(100 + seed)
    project, user = _random_project(rng, prm_order=prm_order)
    for _ in range(5):
        now = timezone.now()
        reference = list(
            candidates_ordered(
                project=project,
                candidates=solution_claimable_for_user(project=project, user=user, now=now),
            ).values_list("pk", flat=True)
        )
        claim = next(
            (
                c
                for qs in _claim_phases(project=project, user=user, now=now)
                if (c := _claim_first(qs, project=project, user=user, now=now)) is not None
            ),
            None,
        )
        if not reference:
            assert claim is None
            break
        assert claim.annotation.solution_id == reference[0]
        # Another user submits it so the next claim moves on.
        claim.annotation.delete()
        TaskLock.objects.filter(solution_id=reference[0]).delete()
        Solution.objects.filter(pk=reference[0]).update(
            submitted_count=project.overlap + F("extra_overlap")
        )
        queue_open_refresh(solution_ids=[reference[0]])
