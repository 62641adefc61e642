"""A submission's count and review reasons (labeling/services/labeling/submission_count.py): the
short UPDATE for a solution's only submitted annotation and the full one otherwise store the mask
the live computation gives, and the full expression runs only when it is needed."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from autolabel.engines.base import EngineResult, StepSuggestion
from autolabel.services import suggestions_upsert
from labeling.models import Annotation, AnnotationStatus, Solution
from labeling.selectors.review import REASON_BITS, reasons_mask
from labeling.services.labeling.annotations import annotation_submit
from tests.factories import ProjectFactory, SolutionFactory
from tests.review.conftest import label, member

pytestmark = pytest.mark.django_db

UNSURE, CONFLICT = REASON_BITS["unsure"], REASON_BITS["auto_conflict"]
DISAGREEMENT, SINGLE = REASON_BITS["disagreement"], REASON_BITS["single_annotator"]


def _stored_and_live(solution: Solution) -> tuple[int, int, int, bool]:
    row = (
        Solution.objects.filter(pk=solution.pk)
        .annotate(live=reasons_mask({"pk": solution.pk}))
        .values_list("review_reasons", "live", "submitted_count", "queue_open")
        .get()
    )
    return row


def _refute(solution: Solution, index: int) -> None:
    n = solution.steps.count()
    result = EngineResult(
        source="symbolic",
        agent="sympy",
        suggestions=[
            StepSuggestion(step_index=i, value=-1 if i == index else None) for i in range(n)
        ],
    )
    suggestions_upsert(solution=solution, result=result)


def _full_ran(queries) -> bool:
    """The full expression's UPDATE went out (it reads the step labels' MIN/MAX per step)."""
    return any('UPDATE "labeling_solution"' in q["sql"] and "MIN(" in q["sql"] for q in queries)


@pytest.mark.parametrize(
    ("ratings", "unsure", "expected"),
    [
        ([1, 0, 1], (), SINGLE),  # one annotator: its own state, never "no flags"
        ([1, 0, 1], (2,), SINGLE | UNSURE),
        ([1, 1, -1], (), SINGLE | CONFLICT),  # a +1 on the refuted step 1
        ([1, -1, 1], (0,), SINGLE | UNSURE),  # the refuted step rated -1: no conflict
        ([1, 1, 0], (1,), SINGLE | UNSURE | CONFLICT),
    ],
)
def test_the_only_submission_stores_the_live_mask_without_the_full_expression(
    ratings, unsure, expected
):
    project = ProjectFactory(overlap=1)
    solution = SolutionFactory(problem__project=project, steps=3)
    _refute(solution, 1)
    user = member(project, "solo")
    with CaptureQueriesContext(connection) as queries:
        label(user, project, ratings, unsure=unsure)
    stored, live, count, open_ = _stored_and_live(solution)
    assert (stored, live) == (expected, expected)
    assert (count, open_) == (1, False)
    assert not _full_ran(queries)


def test_a_second_submission_or_an_imported_one_takes_the_full_expression():
    project = ProjectFactory(overlap=2)
    solution = SolutionFactory(problem__project=project, steps=3)
    first, second = member(project, "first"), member(project, "second")
    with CaptureQueriesContext(connection) as queries:
        label(first, project, [1, 1, 1])
    assert not _full_ran(queries)
    assert _stored_and_live(solution) == (SINGLE, SINGLE, 1, True)  # still open for the second
    with CaptureQueriesContext(connection) as queries:
        label(second, project, [1, -1, 1])
    assert _full_ran(queries)
    assert _stored_and_live(solution)[:3] == (DISAGREEMENT, DISAGREEMENT, 2)

    # An imported (annotator-less) submitted annotation is another submission too.
    other = SolutionFactory(problem__project=project, steps=3)
    imported = Annotation.objects.create(solution=other, status=AnnotationStatus.SUBMITTED)
    steps = list(other.steps.order_by("index"))
    imported.labels.create(step=steps[0], rating=-1)
    with CaptureQueriesContext(connection) as queries:
        label(first, project, [1, 1, 1])
    assert _full_ran(queries)
    stored, live, count, _ = _stored_and_live(other)
    assert stored == live and stored & DISAGREEMENT and count == 1
    assert not stored & SINGLE  # two submitted annotations, one of them imported


def test_a_gold_question_takes_the_full_expression():
    project = ProjectFactory(overlap=1)
    solution = SolutionFactory(problem__project=project, steps=2, is_gold=True)
    user = member(project, "g")
    draft = Annotation.objects.create(solution=solution, annotator=user)  # as gold pacing serves
    steps = solution.steps.order_by("index").values_list("id", flat=True)
    with CaptureQueriesContext(connection) as queries:
        annotation_submit(
            annotation=draft,
            user=user,
            version=draft.version,
            labels=[{"step_id": s, "rating": 1} for s in steps],
        )
    assert _full_ran(queries)
    stored, live, _, _ = _stored_and_live(solution)
    assert stored == live
