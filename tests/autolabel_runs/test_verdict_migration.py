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


def test_symbolic_minus_ones_of_unearned_kinds_become_doubtful_and_back(tmp_path, monkeypatch):
    """0009: a stored symbolic −1 whose failed kinds have not earned a −1 under its version's
    table becomes "doubtful" evidence; a consensus that required symbolic goes where no
    symbolic −1 is left; an earned kind's −1 and other versions' rows as their tables say."""
    from autolabel.calibration import ENV, kinds

    gated = importlib.import_module("autolabel.migrations.0009_symbolic_refutations_gated_by_kind")
    monkeypatch.setattr(kinds, "assume_all_earned", False)
    monkeypatch.setenv(ENV, str(tmp_path))
    kinds.write_kinds(
        "symbolic-1.0",
        {
            "on": "dev",
            "kinds": {"arithmetic": kinds.kind_row(40, 40), "chain": kinds.kind_row(9, 10)},
        },
        folder=tmp_path,
    )

    def failed(kind: str) -> dict:
        calibration = {"right": 0.8, "n": 16, "on": "samples"}
        return {"failed": [{"text": "2 + 3 = 6", "kind": kind}], "calibration": calibration}

    a, b, c = SolutionFactory(steps=3).steps.order_by("index")
    (d,) = SolutionFactory(steps=1).steps.all()
    chain = SuggestionFactory(
        step=a, agent="sympy/symbolic-1.0", value=-1, score=0.8, evidence=failed("chain")
    )
    earned = SuggestionFactory(
        step=d, agent="sympy/symbolic-1.0", value=-1, evidence=failed("arithmetic")
    )
    unmeasured = SuggestionFactory(
        step=b, agent="sympy/symbolic-0.9", value=-1, evidence=failed("arithmetic")
    )
    gone = SuggestionFactory(step=a, source="consensus", agent="consensus:symbolic", value=-1)
    kept = SuggestionFactory(step=d, source="consensus", agent="consensus:symbolic", value=-1)
    other = SuggestionFactory(step=c, source="consensus", agent="consensus:rollout+judge", value=1)

    gated.forwards(django_apps, None)
    kinds.clear_cache()
    assert _state(chain) == (None, None, "doubtful")
    assert chain.evidence["kinds"] == ["chain"]
    assert chain.evidence["gate"]["kinds"][0]["precision"] == 0.9
    assert "calibration" not in chain.evidence
    assert _state(unmeasured) == (None, None, "doubtful")  # no table for symbolic-0.9
    assert _state(earned) == (-1, 1.0, None)
    assert not Suggestion.objects.filter(pk=gone.pk).exists()
    assert Suggestion.objects.filter(pk__in=[kept.pk, other.pk]).count() == 2

    gated.backwards(django_apps, None)
    assert _state(chain) == (-1, 0.8, None)
    assert chain.evidence["calibration"]["right"] == 0.8 and "gate" not in chain.evidence
    assert _state(unmeasured) == (-1, 1.0, None)
