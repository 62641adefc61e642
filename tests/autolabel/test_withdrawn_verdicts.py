"""A rerun of the symbolic checker removes a verdict it no longer gives (a false refutation an
older checker wrote), and keeps one on a step it could not finish this time."""

import pytest

from autolabel.engines import symbolic as symbolic_engine
from autolabel.engines.base import SolutionInput
from autolabel.engines.symbolic import AGENT, SymbolicEngine
from autolabel.services import suggestions_upsert
from autolabel.symbolic.verdicts import unknown
from labeling.models import Suggestion
from tests.factories import SolutionFactory

pytestmark = pytest.mark.django_db

STEPS = [
    "Let $x$ be the number of apples Jamal has.",  # nothing to decide
    "Then $52 - 8 = 44$.",  # true arithmetic: checks out
    "So Jamal has $44 + 4 = 48$ bananas.",  # the checker will run out of time here
]


def _old_refutation(step) -> None:
    Suggestion.objects.create(step=step, source="symbolic", agent=AGENT, value=-1, score=None)


def test_a_rerun_withdraws_what_the_checker_no_longer_says(monkeypatch):
    solution = SolutionFactory(steps=STEPS)
    steps = list(solution.steps.order_by("index"))
    for step in steps:
        _old_refutation(step)  # an older checker refuted all three

    real_check = symbolic_engine.check_steps

    def check(steps, **kwargs):
        verdicts = real_check(steps, **kwargs)
        verdicts[2] = unknown("time limit of 2 s exceeded")  # this run could not finish step 2
        return verdicts

    monkeypatch.setattr(symbolic_engine, "check_steps", check)
    result = SymbolicEngine()(SolutionInput(problem="?", gold_answer="", steps=STEPS), {})
    assert result.withdrawn == [0]
    suggestions_upsert(solution=solution, result=result)

    left = dict(
        Suggestion.objects.filter(step__solution=solution, source="symbolic").values_list(
            "step__index", "value"
        )
    )
    # Step 0: the old −1 is gone. Step 1: now evidence, not a rating. Step 2: kept, undecided.
    assert left == {1: None, 2: -1}
