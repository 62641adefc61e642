"""The labeling page's step rows: PostgreSQL's one statement answers what the ORM reads do
(labeling.steps.payload), suggestions in the same order with the same values."""

import pytest

from labeling.models import Step, StepAlternative
from labeling.steps import payload as payload_steps
from tests.factories import SolutionFactory, SuggestionFactory

pytestmark = pytest.mark.django_db


@pytest.mark.postgres
@pytest.mark.parametrize("suggestions", [True, False])
def test_one_statement_answers_what_the_orm_reads_do(suggestions):
    solution = SolutionFactory(steps=4)
    SolutionFactory(problem=solution.problem, steps=2)  # another solution's steps stay out
    steps = list(Step.objects.filter(solution=solution).order_by("index"))
    steps[1].metadata = {"kind": "tool_call", "name": "python", "images": [{"media": "a.png"}]}
    steps[1].uses, steps[1].uses_source = [0], "annotator"
    steps[1].thinking = True
    steps[1].save()
    StepAlternative.objects.create(step=steps[2], position=0, text="x = 1", is_chosen=True)
    StepAlternative.objects.create(step=steps[2], position=1, text="x = 2")
    for step in steps[:3]:
        SuggestionFactory(step=step, source="symbolic", agent="a-sympy", value=-1, score=0.1)
        SuggestionFactory(
            step=step,
            source="judge",
            agent="qwen-7b",
            value=None,
            score=0.7321456789012345,
            evidence={"reason": "ok", "calibration": {"n": 40, "on": [0.1, 0.25]}, "é": None},
        )
        SuggestionFactory(step=step, source="judge", agent="a-judge", value=1, score=None)

    fast = payload_steps.payload_step_rows(solution_id=solution.pk, suggestions=suggestions)
    orm = payload_steps._orm_rows(solution_id=solution.pk, suggestions=suggestions)
    assert fast == orm
    assert [row[0] for row in fast] == [step.pk for step in steps]
    assert [row[6] for row in fast[:3]] == [False, True, False]  # thinking
    assert fast[2][7] == 2  # alternatives
    if suggestions:
        assert [(g["source"], g["agent"]) for g in fast[0][8]] == [
            ("judge", "a-judge"),
            ("judge", "qwen-7b"),
            ("symbolic", "a-sympy"),
        ]
        assert fast[3][8] == []
    else:
        assert all(row[8] == [] for row in fast)
