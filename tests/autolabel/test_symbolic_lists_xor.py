"""Issue 25, round 10 (symbolic-1.13): classes found by probing true statements.

A comma list equal to a comma list in prose ("1, 2, 4, 8, 16 = 2^0, 2^1, 2^2, 2^3, 2^4") is read
item by item, not as "16 = 2^0" (symbolic-1.12 refuted it, arithmetic); where the step or its
problem speaks of exclusive or, "^" may be the bitwise operator ("6 ^ 3 = 5 (xor)"). The false
twins of each stay refuted.
"""

import pytest

from autolabel.symbolic import check_step, check_step_local
from autolabel.symbolic.verdicts import REFUTED
from tests.autolabel.develop_rows import failed_kinds

TRUE = [
    "The factors are 1, 2, 4, 8, 16 = 2^0, 2^1, 2^2, 2^3, 2^4.",
    "The squares 1, 4, 9, 16 = 1^2, 2^2, 3^2, 4^2 in order.",
    "So a, b, c = 3, 4, 5, and the triangle is right.",
    "6 ^ 3 = 5 (xor)",
    "In binary, 5 XOR 3 = 6, i.e. 5 ^ 3 = 6.",
    "With bitwise operations, 12 ^ 10 = 6.",
]

FALSE = [
    "3+3=6, 6+6=13, 12+12=24",  # items with relations are no list
    "So 2 + 2 = 5, and 3 = 3.",
    "6 ^ 3 = 217",  # no xor: a power
    "The values 4, 2 + 2 = 5 are listed.",
]


@pytest.mark.parametrize("text", TRUE)
def test_true_statements_are_not_refuted(text):
    verdict = check_step(text, timeout_s=5.0)
    assert verdict.verdict != REFUTED, [c.as_dict() for c in verdict.failed]


@pytest.mark.parametrize("text", FALSE)
def test_false_twins_stay_refuted(text):
    assert failed_kinds(text) == {"arithmetic"}


def test_the_problem_may_name_the_exclusive_or():
    problem = r"Let $a \oplus b$ denote the bitwise exclusive or of $a$ and $b$."
    assert check_step_local("So 6 ^ 3 = 5.", (), problem).verdict != REFUTED
    assert check_step_local("So 6 ^ 3 = 5.", (), "Compute 6 cubed.").verdict == REFUTED
