"""Issue 25, round 16: values substituted into an equation test those values, but the
simplification written after them is claimed (autolabel/symbolic/hedges.py, ``derivation``;
kinds rewriting, rearranging, solving).

Develop-part row: math-271 step 1, its labelled first error ("Substituting b + 5 for N in the
second equation gives us a + (b + 5) + c = 93, which simplifies to a + b + c = 98"). The
words "substituting ... in the equation" hedged every claim of their sentence, the rewriting
too; they still hedge the values tested ("783 = 6561") and the substitution kind, and the
other hedges ("wrong", "suppose", "?") still hedge a derivation.
"""

import pytest

from autolabel.symbolic import check_step
from autolabel.symbolic.verdicts import REFUTED
from tests.autolabel.develop_rows import assert_develop, failed_kinds

DEVELOP_ROWS = {"math-271"}

MATH_271_STEP_1 = (
    r"Now, we can substitute the expressions for \( a - 5 \), \( b + 5 \), and \( 5c \) from "
    r"the first three equations into the fourth equation to get an equation in terms of "
    r"\( N \) only. Substituting \( a - 5 \) for \( N \) in the first equation gives us "
    r"\( a - 5 + b + c = 88 \), which simplifies to \( a + b + c = 93 \). Substituting "
    r"\( b + 5 \) for \( N \) in the second equation gives us \( a + (b + 5) + c = 93 \), "
    r"which simplifies to \( a + b + c = 98 \). Substituting \( 5c \) for \( N \) in the "
    r"fourth equation gives us \( 5c = 5N \), or \( c = N \)."
)

# (true step, its false twin)
PAIRS = [
    (
        r"Substituting \( y = 2x \) into the first equation gives \( x + 2x + z = 6 \), which "
        r"simplifies to \( 3x + z = 6 \).",
        r"Substituting \( y = 2x \) into the first equation gives \( x + 2x + z = 6 \), which "
        r"simplifies to \( 3x + z = 8 \).",
    ),
    (
        r"Plugging \( b = 4 \) back into the equation, we get \( a + 4 + c = 10 \), which "
        r"simplifies to \( a + c = 6 \).",
        r"Plugging \( b = 4 \) back into the equation, we get \( a + 4 + c = 10 \), which "
        r"simplifies to \( a + c = 14 \).",
    ),
]

NOT_REFUTED = [
    # the values tested: a false equation of numbers is what the test finds
    r"Substituting \( a = 3 \) into the equation, we get \( 783 = 6561 \), so 3 is no root.",
    r"Plugging \( x = 2 \) back into the original equation gives \( 4 + 2 = 7 \).",
    # other hedges still hedge a derivation
    r"Substituting \( y = 2x \) into the first equation gives \( x + 2x + z = 6 \), which "
    r"wrongly simplifies to \( 3x + z = 8 \).",
    r"Substituting \( y = 2x \) into the first equation gives \( x + 2x + z = 6 \); does this "
    r"simplify to \( 3x + z = 8 \)?",
]


def test_the_cited_rows_are_in_the_develop_part():
    assert_develop(DEVELOP_ROWS)


def test_math_271_step_1_is_refuted_by_rewriting():
    assert failed_kinds(MATH_271_STEP_1) == {"rewriting"}
    verdict = check_step(MATH_271_STEP_1.replace("= 98", "= 88"), timeout_s=5.0)
    assert verdict.verdict != REFUTED, [c.as_dict() for c in verdict.failed]
    assert sum(c.kind == "rewriting" and bool(c.holds) for c in verdict.claims) == 2


@pytest.mark.parametrize("true, false", PAIRS)
def test_a_simplification_after_a_substitution_is_decided(true, false):
    verdict = check_step(true, timeout_s=5.0)
    assert verdict.verdict != REFUTED, [c.as_dict() for c in verdict.failed]
    assert failed_kinds(false) == {"rewriting"}


@pytest.mark.parametrize("text", NOT_REFUTED)
def test_tested_values_and_other_hedges_are_not_refuted(text):
    verdict = check_step(text, timeout_s=5.0)
    assert verdict.verdict != REFUTED, [c.as_dict() for c in verdict.failed]
