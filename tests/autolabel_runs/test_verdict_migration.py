"""autolabel 0006: stored symbolic "verified" and code "tests pass" +1s become evidence, and a
consensus of refuters loses its +1s; other sources' values are left alone."""

import importlib

import pytest
from django.apps import apps as django_apps

from labeling.models import Suggestion
from tests.factories import SolutionFactory, SuggestionFactory

pytestmark = pytest.mark.django_db

migration = importlib.import_module("autolabel.migrations.0006_suggestion_verdicts_as_evidence")


def _state(row: Suggestion) -> tuple:
    row.refresh_from_db()
    return row.value, row.score, row.evidence.get("kind")


def test_verified_and_passing_tests_become_evidence_and_back():
    a, b, c = SolutionFactory(steps=3).steps.order_by("index")
    claims = {"verdict": "verified", "claims": [{"text": "2 + 3 = 5"}]}
    verified = SuggestionFactory(step=a, agent="sympy/symbolic-1.0", evidence=claims)
    refuted = SuggestionFactory(step=b, agent="sympy/symbolic-1.0", value=-1)
    answer = SuggestionFactory(step=c, agent="answer-check/1", value=1)  # not the step checker
    passed = SuggestionFactory(step=c, source="code", agent="sandbox/python",
                               evidence={"check": "tests", "verdict": "passed"})  # fmt: skip
    prefix = SuggestionFactory(step=b, source="code", agent="sandbox/python",
                               evidence={"check": "prefix"})  # fmt: skip
    judge = SuggestionFactory(step=a, source="judge", agent="critic", value=1)
    refuters = SuggestionFactory(step=a, source="consensus", agent="consensus:symbolic")
    refuters_neg = SuggestionFactory(
        step=b, source="consensus", agent="consensus:symbolic+code", value=-1
    )
    vouched = SuggestionFactory(step=a, source="consensus", agent="consensus:rollout+judge")

    migration.forwards(django_apps, None)

    assert _state(verified) == (None, None, "checks out")
    assert verified.evidence["claims"] == claims["claims"]  # the checked claims are kept
    assert _state(passed) == (None, None, "tests pass")
    assert passed.evidence["verdict"] == "passed"
    for untouched in (refuted, answer, prefix, judge, refuters_neg, vouched):
        before = untouched.value
        assert _state(untouched) == (before, 1.0, None)
    assert not Suggestion.objects.filter(pk=refuters.pk).exists()
    assert not Suggestion.objects.filter(source="symbolic", agent__startswith="sympy/", value=1)

    migration.backwards(django_apps, None)
    assert _state(verified) == (1, 1.0, None)
    assert _state(passed) == (1, 1.0, None)
    assert _state(refuted) == (-1, 1.0, None)


def test_unmeasured_scores_are_cleared():
    """0007: the fixed 1.0 of symbolic, code and consensus verdicts is not a probability."""
    cleared = importlib.import_module("autolabel.migrations.0007_suggestion_unmeasured_scores")
    a, b, c = SolutionFactory(steps=3).steps.order_by("index")
    symbolic = SuggestionFactory(step=a, agent="sympy/symbolic-1.0", value=-1)
    crash = SuggestionFactory(step=b, source="code", agent="sandbox/python", value=-1)
    consensus = SuggestionFactory(step=c, source="consensus", agent="consensus:rollout+judge")
    measured = SuggestionFactory(
        step=b, agent="sympy/symbolic-2", value=-1, score=1.0,
        evidence={"calibration": {"right": 1.0, "n": 30, "on": "x"}},
    )  # fmt: skip
    rollout = SuggestionFactory(step=a, source="rollout", agent="mc", value=1, score=1.0)
    cleared.forwards(django_apps, None)
    for row in (symbolic, crash, consensus):
        row.refresh_from_db()
        assert row.score is None and row.value in (-1, 1)
    for row in (measured, rollout):  # measured, or the source's own estimate (8/8 rollouts)
        row.refresh_from_db()
        assert row.score == 1.0
