# ruff: noqa: E501 -- exact copies of real step texts, one literal per text
"""Refute only under every reading (symbolic-1.8, readings.py).

Where a side's text admits more than one plausible reading (the parser's choice points:
``a/bc``, a number before a fraction, a root sign before an operator, ``-3^2``, ``a + p%``), a claim is
refuted only if it is false under every reading; if some reading makes it hold, it is
evidence (undecided, the reading named), not a refutation. Sides with no usual reading are
decided when every reading can be evaluated. MATH_535_0 and MATH_535_1 are exact copies of
correct steps of the develop part of shared/data/processbench_dev.jsonl (mixed numbers).
"""

import pytest

from autolabel.symbolic import check_step
from autolabel.symbolic.chains import make_side
from autolabel.symbolic.readings import side_readings
from autolabel.symbolic.tokens import tokenize
from autolabel.symbolic.verdicts import REFUTED, VERIFIED
from tests.autolabel.develop_rows import assert_develop

MATH_535_0 = "To solve this problem, we can solve this problem by first converting the mixed number \\(3\\frac{4}{5}\\) into an improper fraction:\n\\[3\\frac{4}{5} = \\frac{3 \\cdot 5 + 4}{5} = \\frac{19}{5}.\\]"
MATH_535_1 = "Since the recipe calls for \\(\\frac{19}{5}\\) cups of flour and we want to make half the recipe, we will need \\(\\frac{1}{2} \\cdot \\frac{19}{5} = \\frac{19}{10} = 1\\frac{9}{10}\\) cups of flour."

# True under some reading: never refuted.
TRUE_UNDER_A_READING = [
    MATH_535_0,
    MATH_535_1,
    r"So $6/2(1+2) = 9$.",  # (6/2)(1+2)
    r"So $6/2(1+2) = 1$.",  # 6/(2(1+2))
    r"The total is $2\frac{1}{2} \times 4 = 10$ cups.",  # a mixed number
    r"Then $-3^2 = 9$.",  # (-3)^2 as many write it
    r"Then $-3^2 = -9$.",  # -(3^2)
    "So √16 + 9 = 5.",  # the bar over 16 + 9
    "So √16 + 9 = 13.",  # the bar over 16
    r"We get $-2\frac{1}{2} = -2.5$.",
    "The new price is $50 + 20% = $60.",  # 50 increased by 20%
    r"After the discount, \(80 - 25\% = 60\).",
]

# False under every reading: still refuted (the readings add no blanket excuse).
FALSE_UNDER_EVERY_READING = [
    r"So $6/2(1+2) = 5$.",
    r"The total is $2\frac{1}{2} \times 4 = 12$ cups.",
    r"Then $-3^2 = 6$.",
    "So √16 + 9 = 14.",
    r"So $2 + 3 = 6$.",
    "The new price is $50 + 20% = $61.",
]


def test_cited_rows_are_develop_rows():
    assert_develop({"math-535"})


@pytest.mark.parametrize("text", TRUE_UNDER_A_READING)
def test_a_claim_true_under_some_reading_is_not_refuted(text):
    verdict = check_step(text, timeout_s=5.0)
    assert verdict.verdict != REFUTED, [c.as_dict() for c in verdict.failed]


@pytest.mark.parametrize("text", FALSE_UNDER_EVERY_READING)
def test_a_claim_false_under_every_reading_is_refuted(text):
    verdict = check_step(text, timeout_s=5.0)
    assert verdict.verdict == REFUTED, [c.as_dict() for c in verdict.claims]
    assert all(c.holds is False for c in verdict.failed)


def test_a_claim_true_under_every_reading_is_verified():
    # (0/2)(5) and 0/(2 * 5) are both 0
    verdict = check_step(r"So $0/2(5) = 0$.", timeout_s=5.0)
    assert verdict.verdict == VERIFIED, [c.as_dict() for c in verdict.claims]


def test_the_reading_that_holds_is_named():
    verdict = check_step(r"So $6/2(1+2) = 9$.", timeout_s=5.0)
    (claim,) = verdict.claims
    assert claim.holds is None
    assert "another reading" in claim.reason


def _readings(text: str, mode: str = "math"):
    tokens = [t for t in tokenize(text, mode) if t.kind != "SPACE"]
    return side_readings(make_side(tokens, mode, text))


def test_side_readings_enumerates_choice_points():
    assert len(_readings("2 + 3")) == 1  # one reading: the side itself
    assert len(_readings("6/2(1+2)")) == 2
    assert len(_readings(r"2\frac{1}{2} + 3\frac{1}{3}")) == 4
    assert len(_readings("-3^2")) == 2
    assert _readings("2 3") is None  # a list or a number: no reading to evaluate


def test_a_claim_the_problem_states_is_a_quotation():
    problem = r"If $3+4=12$ in base $b$, what is $b$?"
    step = r"We are told $3 + 4 = 12$ in base $b$."
    assert check_step(step, problem=problem, timeout_s=5.0).verdict != REFUTED
    # not stated by the problem: decided
    assert check_step(step, problem="Find the base.", timeout_s=5.0).verdict == REFUTED
