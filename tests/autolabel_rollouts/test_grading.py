"""Grading rollouts: through autolabel.answers when present, else the boxed-exact fallback."""

import pytest

from autolabel.rollouts import grading


def test_last_boxed_balances_braces() -> None:
    assert grading.last_boxed("a \\boxed{1} then \\boxed{\\frac{1}{2}} end") == "\\frac{1}{2}"
    assert grading.last_boxed("\\fbox{7}") == "7"
    assert grading.last_boxed("no box") is None
    assert grading.last_boxed("\\boxed{unclosed") is None


def test_fallback_grader_when_answers_is_missing(monkeypatch) -> None:
    monkeypatch.setattr(grading, "_answers", lambda: None)
    assert grading.grader_version() == grading.FALLBACK_VERSION
    assert grading.grade("so $\\boxed{\\dfrac{1}{2}}$.", "\\frac{1}{2}") is True
    assert grading.grade("\\boxed{\\text{5}}", "5") is True
    assert grading.grade("\\boxed{6}", "5") is False
    assert grading.grade("the answer is 5", "5") is False  # no boxed answer: wrong


def test_grader_uses_the_answers_module_when_present() -> None:
    answers = pytest.importorskip("autolabel.answers")
    assert grading.grader_version() == getattr(answers, "ANSWER_CHECK_VERSION", "autolabel.answers")
    assert grading.grade("Therefore $\\boxed{0.5}$.", "\\frac{1}{2}") is True
    assert grading.grade("\\boxed{3}", "4") is False
