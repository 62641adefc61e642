# ruff: noqa: E501 -- exact copies of real step texts, one literal per text
"""Issue 25, round 16 (found by layout_rewrites' ``thin_space``): math spacing commands must
not push a hedge out of reach.

hedges.hedged reads fixed windows around a failed claim (120 characters of its sentence before
it, 80 after). ``\\,`` around every "=" and operator (the prepared text writes each as two
spaces) made develop omnimath-843 step 3's substitution test, "Substituting \\(a = 2\\) and
\\(c = 4\\) into the equation, we get: \\[ ... \\implies 2 \\cdot 8 + 64 = 16 \\cdot 16
\\implies ... 80 = 256, \\] which is false.", refuted at its second link: "Substituting"
and "which is false" both fell outside the windows. The windows are now counted in visible
characters (spacing commands, ``\\left``/``\\right``, ``\\displaystyle`` and runs of spaces
folded), so the step reads the same however it is spaced; a false claim with no hedge, or
with one that is far in visible text too, is still refuted.
"""

import pytest

from autolabel.quality.layout_rewrites import LAYOUT
from autolabel.symbolic import check_step
from autolabel.symbolic.verdicts import REFUTED
from tests.autolabel.develop_rows import assert_develop, failed_kinds

OMNIMATH_843_3 = "Second, if \\(a = 2\\), then \\(c \\geq \\sqrt[2]{2 \\cdot 2^3} = \\sqrt[2]{16} = 4\\). Since \\(c\\) is a positive integer, \\(c \\geq 4\\). Substituting \\(a = 2\\) and \\(c = 4\\) into the equation, we get: \\[ 2 \\cdot 2^3 + 4^3 = 2^4 \\cdot 4^2 \\implies 2 \\cdot 8 + 64 = 16 \\cdot 16 \\implies 16 + 64 = 256 \\implies 80 = 256, \\] which is false. Substituting \\(a = 2\\) and \\(c = 5\\) into the equation, we get: \\[ 2 \\cdot 2^3 + 5^3 = 2^4 \\cdot 5^2 \\implies 2 \\cdot 8 + 125 = 16 \\cdot 25 \\implies 16 + 125 = 400 \\implies 141 = 400, \\] which is false. Therefore, there are no solutions for \\(a = 2\\)."

TEST = r"Substituting \(a = 2\) and \(c = 4\) into the equation, we get: \[ 2 \cdot 2^3 + 4^3 = 2^4 \cdot 4^2 \implies 2 \cdot 8 + 64 = 16 \cdot 16 \implies 16 + 64 = 256 \implies 80 = 256, \] which is false."


def _spaced(text: str, space: str) -> str:
    return text.replace(" = ", f"{space}={space}").replace(" + ", f"{space}+{space}")


def test_cited_rows_are_develop_rows():
    assert_develop({"omnimath-843"})


@pytest.mark.parametrize("space", ["\\,", "\\;", "\\:", "\\ ", "\\quad ", "~\\,"])
def test_a_substitution_test_spaced_any_way_is_not_refuted(space):
    assert check_step(TEST, timeout_s=5.0).verdict != REFUTED
    spaced = _spaced(TEST, space)
    assert spaced != TEST
    verdict = check_step(spaced, timeout_s=5.0)
    assert verdict.verdict != REFUTED, [c.as_dict() for c in verdict.failed]


def test_the_develop_step_thin_spaced_is_not_refuted():
    assert check_step(OMNIMATH_843_3, timeout_s=5.0).verdict != REFUTED
    spaced = LAYOUT["thin_space"](OMNIMATH_843_3)
    verdict = check_step(spaced, timeout_s=5.0)
    assert verdict.verdict != REFUTED, [c.as_dict() for c in verdict.failed]


@pytest.mark.parametrize(
    "later",
    [
        r"2 (8) + (64) = 256",
        r"2 \left(8\right) + \left(64\right) = 256",
        r"\displaystyle 16 + 64 = 256 \quad",
    ],
)
def test_a_rejection_after_sized_or_spaced_links_reaches_the_first(later):
    text = rf"We get \[ 2 \cdot 8 + 64 = 16 \cdot 16 \implies {later} \implies 80 = 256, \] which is false."
    assert check_step(text, timeout_s=5.0).verdict != REFUTED


@pytest.mark.parametrize("space", ["", "\\,", "\\;"])
def test_false_twins_with_no_hedge_are_still_refuted(space):
    twin = r"Adding the two terms: \[ 2 \cdot 8 + 64 = 16 \cdot 16 \implies 16 + 64 = 256 \implies 80 = 256. \]"
    assert failed_kinds(_spaced(twin, space))


@pytest.mark.parametrize("space", ["", "\\,"])
def test_false_twins_whose_hedge_is_far_in_visible_text_are_still_refuted(space):
    far = (
        "We substitute the values into the equation first, and then we simplify each side "
        "carefully by hand, one term after another, before we compare them: the total is "
        r"\( 2 \cdot 8 + 64 = 16 \cdot 16 \)."
    )
    assert failed_kinds(_spaced(far, space))
