"""The gold rate's pace is kept counted on the membership (labeling.services.gold.pace): the
stored counts equal the live ones through submits, rejections, gold flag changes and a gold
rate change, and a claim no longer counts the user's answers once they are stored."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from labeling.models import Annotation, AnnotationStatus, ProjectMembership
from labeling.services.gold.questions import gold_unset
from labeling.services.projects.edit import project_update
from labeling.services.queue.claim import task_claim_next
from labeling.services.review.actions import review_reject
from tests.factories import ProjectFactory, SolutionFactory
from tests.review.conftest import member
from tests.review.test_gold_serving import _answer, _gold

pytestmark = pytest.mark.django_db


def _live(project, user) -> tuple[int, int]:
    answers = Annotation.objects.filter(
        solution__project=project, annotator=user, status=AnnotationStatus.SUBMITTED
    )
    return answers.count(), answers.filter(solution__is_gold=True).count()


def _stored(project, user) -> tuple[int | None, int | None]:
    return (
        ProjectMembership.objects.filter(project=project, user=user)
        .values_list("answers", "gold_answers")
        .get()
    )


def test_stored_counts_follow_every_change_and_the_claim_stops_counting():
    project = ProjectFactory(gold_rate=0.25, overlap=2)
    SolutionFactory.create_batch(8, problem__project=project, steps=2)
    golds = [_gold(project, [1, 1]) for _ in range(2)]
    user, reviewer = member(project, "pace"), member(project, "pace-reviewer", role="reviewer")
    assert _stored(project, user) == (None, None)

    answered = []
    for _ in range(6):
        claim = task_claim_next(project=project, user=user)
        answered.append(_answer(claim, user))
        assert _stored(project, user) == _live(project, user)
    assert _live(project, user)[1] == 1  # work, work, work, gold, work, work

    with CaptureQueriesContext(connection) as queries:
        claim = task_claim_next(project=project, user=user)
    aggregate = 'COUNT("labeling_annotation"."id")'  # counting the user's answers
    counted = [q["sql"] for q in queries if aggregate in q["sql"]]
    assert not counted, counted  # the pace came from the membership row
    _answer(claim, user)
    assert _stored(project, user) == _live(project, user)

    review_reject(annotation=answered[0], reviewer=reviewer, comment="redo step 1")
    assert _stored(project, user) == _live(project, user)

    gold_answer = next(a for a in answered if a.solution_id in {g.pk for g in golds})
    gold_unset(solution=gold_answer.solution)  # a gold answer becomes plain work
    assert _stored(project, user) == (None, None)
    _answer(task_claim_next(project=project, user=user), user)  # the rework draft comes first
    assert _stored(project, user) == (None, None)  # NULL + 1 stays unknown
    task_claim_next(project=project, user=user)  # paces gold: counts again, once
    assert _stored(project, user) == _live(project, user)

    project_update(project=project, gold_rate=0.5)
    assert _stored(project, user) == (None, None)
