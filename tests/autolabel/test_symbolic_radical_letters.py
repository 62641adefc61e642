"""Issue 25, round 16: a square root kept whole through a rewrite is one more letter
(autolabel/symbolic/radical_letters.py; kinds rearranging and rewriting).

Develop-part row: math-59 step 0, its labelled first error ("12x^2 - 32x - 7 +
2\\sqrt{Q} = 9. Rearrange terms to isolate the radical: 2\\sqrt{Q} = 16 - 12x^2 + 32x + 7":
the 7 moved without its sign). True rearrangements around a root hold; multiplying by the
root, squaring it, a root with a letter as its coefficient and roots that differ between the
equations read nothing.
"""

import pytest

from autolabel.symbolic import check_step
from autolabel.symbolic.verdicts import REFUTED
from tests.autolabel.develop_rows import assert_develop, failed_kinds

DEVELOP_ROWS = {"math-59"}

MATH_59_STEP_0 = (
    r"To solve the equation \(\sqrt{3x^2 - 8x + 1} + \sqrt{9x^2 - 24x - 8} = 3\), we'll take "
    "it step by step: ### Step 1: Square Both Sides\nSquaring both sides of the equation to "
    "eliminate the square roots gives us:\n\\[\n(\\sqrt{3x^2 - 8x + 1} + \\sqrt{9x^2 - 24x - "
    "8})^2 = 3^2\n\\]\nExpanding the left side using the formula \\((a+b)^2 = a^2 + 2ab + "
    "b^2\\) yields:\n\\[\n3x^2 - 8x + 1 + 2\\sqrt{(3x^2 - 8x + 1)(9x^2 - 24x - 8)} + 9x^2 - "
    "24x - 8 = 9\n\\]\nSimplifying this expression, we get:\n\\[\n12x^2 - 32x - 7 + "
    "2\\sqrt{(3x^2 - 8x + 1)(9x^2 - 24x - 8)} = 9\n\\]\nRearrange terms to isolate the "
    "radical:\n\\[\n2\\sqrt{(3x^2 - 8x + 1)(9x^2 - 24x - 8)} = 16 - 12x^2 + 32x + 7\n\\]\n"
)

# (true step, its false twin)
PAIRS = [
    (
        r"We have \(x + 2\sqrt{x^2+1} = 5\). Rearranging terms, we get \(2\sqrt{x^2+1} = 5 - x\).",
        r"We have \(x + 2\sqrt{x^2+1} = 5\). Rearranging terms, we get \(2\sqrt{x^2+1} = 5 + x\).",
    ),
    (
        r"We have \(3\sqrt{x} + x = 4\). This simplifies to \(3\sqrt{x} = 4 - x\).",
        r"We have \(3\sqrt{x} + x = 4\). This simplifies to \(3\sqrt{x} = 4 + x\).",
    ),
    (
        r"We have \(2\sqrt{y + 1} - 4x = 5\). Rearranging terms, we get "
        r"\(2\sqrt{y + 1} = 5 + 4x\).",
        r"We have \(2\sqrt{y + 1} - 4x = 5\). Rearranging terms, we get "
        r"\(2\sqrt{y + 1} = 5 - 4x\).",
    ),
]

NOT_DECIDED = [
    r"We have \(\sqrt{x+1} = x\). Multiplying both sides by \(\sqrt{x+1}\), we get "
    r"\(x + 1 = x\sqrt{x+1}\).",
    r"We have \(\sqrt{x+1} = x - 1\). Squaring both sides, this becomes \(x + 1 = (x-1)^2\).",
    r"We have \(x\sqrt{x+1} = 2\). This becomes \(x\sqrt{x+1} - 2 = 1\).",
    r"We have \(\sqrt{4x} + x = 3\). This simplifies to \(2\sqrt{x} = 3 - x\).",
    r"We have \(\sqrt[3]{x} + x = 3\). This simplifies to \(\sqrt[3]{x} = 5 - x\).",
]


def test_the_cited_rows_are_in_the_develop_part():
    assert_develop(DEVELOP_ROWS)


def test_math_59_step_0_is_refuted_by_rearranging():
    assert failed_kinds(MATH_59_STEP_0) == {"rearranging"}
    right = MATH_59_STEP_0.replace("= 16 - 12x^2 + 32x + 7", "= 16 - 12x^2 + 32x")
    verdict = check_step(right, timeout_s=5.0)
    assert verdict.verdict != REFUTED, [c.as_dict() for c in verdict.failed]
    assert any(c.kind == "rearranging" and c.holds for c in verdict.claims)


@pytest.mark.parametrize("true, false", PAIRS)
def test_a_rewrite_around_a_root_is_decided(true, false):
    verdict = check_step(true, timeout_s=5.0)
    assert verdict.verdict != REFUTED, [c.as_dict() for c in verdict.failed]
    assert any(c.kind in ("rearranging", "rewriting") and c.holds for c in verdict.claims)
    assert failed_kinds(false) in ({"rearranging"}, {"rewriting"})


@pytest.mark.parametrize("text", NOT_DECIDED)
def test_roots_worked_on_are_not_refuted(text):
    verdict = check_step(text, timeout_s=5.0)
    assert verdict.verdict != REFUTED, [c.as_dict() for c in verdict.failed]
