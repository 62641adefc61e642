"""Going back under concurrency, on PostgreSQL with real threads: two tabs resubmitting, a
reopened skip racing a fresh claim for the last slot, a resubmit racing a reviewer's reject."""

import pytest
from django.db import connection

from labeling.errors import Conflict
from labeling.models import Annotation, AnnotationStatus, LabelHistory
from labeling.services.labeling.annotations import annotation_skip
from labeling.services.labeling.my_work import annotation_reopen, annotation_resubmit
from labeling.services.queue.claim import task_claim_next
from labeling.services.review.actions import review_reject
from tests.concurrency.threads import run_threads
from tests.factories import ProjectFactory, SolutionFactory
from tests.review.conftest import label, member

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _outcome(call):
    try:
        return call() or "ok"
    except Conflict:
        return "conflict"


def _labels(annotation, rating):
    steps = annotation.solution.steps.order_by("index").values_list("id", flat=True)
    return [{"step_id": s, "rating": rating} for s in steps]


def test_two_tabs_resubmitting_the_same_version_apply_one():
    assert connection.vendor == "postgresql"
    project = ProjectFactory(overlap=1)
    SolutionFactory(problem__project=project, steps=3)
    user = member(project, "a")
    submitted = label(user, project, [1, 1, 1])
    before = LabelHistory.objects.filter(annotation=submitted).count()

    def resubmit(i: int):
        annotation = Annotation.objects.select_related("solution__project").get(pk=submitted.pk)
        return _outcome(
            lambda: (
                annotation_resubmit(
                    annotation=annotation,
                    user=user,
                    version=submitted.version,
                    labels=_labels(annotation, [-1, 0][i]),
                )
                and None
            )
        )

    outcomes = run_threads(2, resubmit)
    assert sorted(outcomes) == ["conflict", "ok"]
    submitted.refresh_from_db()
    assert submitted.version == 2 + 1  # the claim's 1, the submit, one resubmit
    winner = [-1, 0][outcomes.index("ok")]
    ratings = list(submitted.labels.order_by("step__index").values_list("rating", flat=True))
    assert ratings == [winner] * 3
    assert LabelHistory.objects.filter(annotation=submitted).count() == before + 3


def _race_for_the_last_slot() -> None:
    project = ProjectFactory(overlap=1)
    solution = SolutionFactory(problem__project=project, steps=2)
    a, b = member(project, f"a{project.pk}"), member(project, f"b{project.pk}")
    skipped = task_claim_next(project=project, user=a).annotation
    annotation_skip(annotation=skipped, user=a)
    skipped = Annotation.objects.select_related("solution__project").get(pk=skipped.pk)

    def act(i: int):
        if i == 0:
            return _outcome(lambda: annotation_reopen(annotation=skipped, user=a) and None)
        claim = task_claim_next(project=project, user=b)
        return "ok" if claim is not None else "none"

    outcomes = run_threads(2, act)
    drafts = Annotation.objects.filter(solution=solution, status=AnnotationStatus.DRAFT)
    assert drafts.count() == 1, outcomes
    assert outcomes.count("ok") == 1, outcomes


def test_a_reopened_skip_and_a_fresh_claim_never_both_take_the_last_slot():
    for _ in range(5):
        _race_for_the_last_slot()


def test_a_resubmit_racing_a_reject_either_is_refused_or_is_what_the_rework_copies():
    project = ProjectFactory(overlap=1)
    SolutionFactory(problem__project=project, steps=2)
    user = member(project, "a")
    reviewer = member(project, "rev", "reviewer")
    submitted = label(user, project, [1, 1])

    def act(i: int):
        annotation = Annotation.objects.select_related("solution__project").get(pk=submitted.pk)
        if i == 0:
            return _outcome(
                lambda: (
                    annotation_resubmit(
                        annotation=annotation,
                        user=user,
                        version=submitted.version,
                        labels=_labels(annotation, -1),
                    )
                    and None
                )
            )
        return _outcome(
            lambda: review_reject(annotation=annotation, reviewer=reviewer, comment="redo") and None
        )

    resubmitted, rejected = run_threads(2, act)
    assert rejected == "ok"
    rework = Annotation.objects.get(revises=submitted)
    copied = list(rework.labels.order_by("step__index").values_list("rating", flat=True))
    assert copied == ([-1, -1] if resubmitted == "ok" else [1, 1])
