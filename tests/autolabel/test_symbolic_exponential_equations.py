"""Issue 25, round 15: equation rewrites with letters in exponents
(autolabel/symbolic/exponential_equations.py), kinds rearranging and rewriting.

Develop-part rows: olympiadbench-438 step 1 (labelled correct, adjudicated: the right side's
``3^x`` rewritten as ``3^x(3^2)``; x = 3 solves the equation before and not the rewrite) and
step 3, its labelled first error (``3^{x}(3^2 - 9)`` simplified to ``3^{x}(-6)``);
olympiadbench-350 step 1 (``8(8^x) = 2^{61}`` rewritten as ``2^3 \\cdot 2^{x} = 2^{61}``, the
shape the test below writes with a cue). True rewrites of the same shapes must hold, and
taking logs (a letter outside an exponent) or a factor divided out stay undecided.
"""

import pytest

from autolabel.symbolic import check_step, check_step_local
from autolabel.symbolic.verdicts import REFUTED
from tests.autolabel.develop_rows import assert_develop, failed_kinds

DEVELOP_ROWS = {"olympiadbench-438", "olympiadbench-350"}

GIVEN = r"Given equation: \( 3^{x+2} + 2^{x+2} + 2^{x} = 2^{x+5} + 3^{x} \)."
STEP_1 = (
    r"Step 1: Factor out common terms from both sides. We can rewrite the equation as: "
    r"\( 3^{x+2} + 2^{x}(2^2 + 1) = 3^x(3^2) + 2^{x+5} \). Simplifying further, "
    r"\( 3^{x+2} + 2^{x}(5) = 3^x(9) + 2^{x+5} \)."
)

# (true rewrite, its false twin)
PAIRS = [
    (
        r"We have \( 3^{x}(3^2 - 1) = 2^{x}(2^5 - 5) \). Simplifying, \( 3^{x}(8) = 2^{x}(27) \).",
        r"We have \( 3^{x}(3^2 - 9) = 2^{x}(2^5 - 5) \). Simplifying, \( 3^{x}(-6) = 2^{x}(27) \).",
    ),
    (
        r"So $8(8^x) = 2^{61}$. Rewriting, we get $2^{3x+3} = 2^{61}$.",
        r"So $8(8^x) = 2^{61}$. Rewriting, we get $2^3 \cdot 2^{x} = 2^{61}$.",
    ),
    (
        r"So $4^x = 2^{x+1}$. Rewriting, we get $2^{2x} = 2 \cdot 2^x$.",
        r"So $4^x = 2^{x+1}$. Rewriting, we get $2^{2x} = 4 \cdot 2^x$.",
    ),
    (
        r"So $(3/2)^x = 27/8$. Rearranging, we get $8 \cdot 3^x = 27 \cdot 2^x$.",
        r"So $(3/2)^x = 27/8$. Rearranging, we get $8 \cdot 2^x = 27 \cdot 3^x$.",
    ),
    (
        r"So $2^{2x} - 3 \cdot 2^x + 2 = 0$. Factoring, we get $(2^x - 1)(2^x - 2) = 0$.",
        r"So $2^{2x} - 3 \cdot 2^x + 2 = 0$. Factoring, we get $(2^x - 1)(2^x + 2) = 0$.",
    ),
]

NOT_DECIDED = [
    r"So $2^{x+1} = 8$. Simplifying, we get $x + 1 = 3$.",
    r"So $2^{x^2} = 2^x$. Simplifying, $x^2 = x$.",
    r"So $2^x(2^x - 1) = 0$. Simplifying, we get $2^x = 1$.",
    r"So $2^{x/2} = 4$. Simplifying, $2^{x} = 16$.",
    r"So $x \cdot 2^x = 2^x$. Simplifying, $x = 1$.",
    r"So $2^{100x} = 8$. Simplifying, we get $2^{100x+1} = 17$.",
]


def test_the_cited_rows_are_in_the_develop_part():
    assert_develop(DEVELOP_ROWS)


def test_olympiadbench_438_step_1_is_refuted_against_the_step_before():
    failed = check_step_local(STEP_1, ("To solve the equation, let's start. " + GIVEN,)).failed
    assert [c.kind for c in failed] == ["rearranging"]
    assert "3^x(3^2)" in failed[0].text
    right = STEP_1.replace("3^x(3^2) +", "3^x +").replace("3^x(9) +", "3^x +")
    verdict = check_step_local(right, ("To solve the equation, let's start. " + GIVEN,))
    assert verdict.verdict != REFUTED, [c.as_dict() for c in verdict.failed]


@pytest.mark.parametrize("true, false", PAIRS)
def test_an_exponential_rewrite_is_decided(true, false):
    verdict = check_step(true, timeout_s=5.0)
    assert verdict.verdict != REFUTED, [c.as_dict() for c in verdict.failed]
    assert any(c.kind == "rearranging" and c.holds for c in verdict.claims), verdict.claims
    assert "rearranging" in (failed_kinds(false) or set())


@pytest.mark.parametrize("text", NOT_DECIDED)
def test_logs_taken_or_a_factor_divided_out_are_not_refuted(text):
    verdict = check_step(text, timeout_s=5.0)
    assert verdict.verdict != REFUTED, [c.as_dict() for c in verdict.failed]
