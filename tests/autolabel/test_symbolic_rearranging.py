"""Issue 25, round 10 (symbolic-1.13): an equation restated after an operation the text names
(kind ``rearranging``, autolabel/symbolic/rearranging.py), and repeating decimals.

"Rearranging terms, we get ..." after an equation says the new one is the same equation: the
develop part's first errors of this shape (math-155 step 5, olympiadbench-86 step 4,
math-381 step 2, ...) wrote another one. True restatements, and words that bring in anything
besides the equation before (another equation, a substitution, a square, an operation not on
both sides), must not be refuted; their false twins must.
"""

import pytest

from autolabel.symbolic import check_step, check_step_local
from autolabel.symbolic.verdicts import REFUTED
from tests.autolabel.develop_rows import failed_kinds

TRUE_WITHIN_A_STEP = [
    r"We have $2x + 5 = 9$. Subtracting 5 from both sides, we get $2x = 4$.",
    r"From $x^2 + 6 = 5x$, moving all terms to one side: $x^2 - 5x + 6 = 0$.",
    r"So $\frac{x + y}{2} = 5$. Multiplying both sides by 2, we get $x + y = 10$.",
    r"Then $x^2 - 5x + 6 = 0$. Factoring, we get $(x - 2)(x - 3) = 0$.",
    r"Now $2x - y = 3$. Rearranging, we get $y = 2x - 3$.",
    r"\[ (x + 1)^2 = 0 \] Expanding, we get \[ x^2 + 2x + 1 = 0 \]",
    r"$2x + 3 = 7$. Simplifying, we get $x = 2$.",
    r"$4x^2 + 4y^2 = 100$. Dividing both sides by 4 gives $x^2 + y^2 = 25$.",
    r"$0.05x = 3$. Multiplying both sides by 100: $5x = 300$.",
    r"\[ a^2 + b^2 + x^2 - 16x + 64 = 16 \] Rearranging terms, we get: \[ a^2 + b^2 + x^2 - 16x + 48 = 0 \]",  # noqa: E501
    r"$3(x - 1) + 2 = x$. Expanding and collecting like terms gives $2x - 1 = 0$.",
    r"$\frac{3}{10}(v + c) = \frac{1}{2}c$. Multiply both sides by 20 to eliminate fractions: $6(v + c) = 10c$.",  # noqa: E501
]

# Words that bring in something besides the equation before: not this kind's to decide.
NOT_A_RESTATEMENT = [
    # another equation
    r"$x + y = 10$ and $x - y = 2$. Adding the two equations, we get $2x = 12$.",
    r"$x + y = 10$, $x - y = 2$. Subtracting the second equation from the first, $2y = 8$.",
    r"$A + B = 1$. Add the two equations: $(A + B) + (A - B) = 1 + 2$",
    # a substitution or a fact used
    r"$x + y = 5$. Substituting $y = 2x$, we get $x + 2x = 5$.",
    r"$a + b = 7$. Using $a = 3$, simplifying gives $b = 4$.",
    r"$x^2 + y^2 = 25$. Since $xy = 12$, simplifying gives $x + y = 7$.",
    r"$x^2 + y^2 = 25$. Since $x^2 - y^2 = 7$, simplifying gives $x^2 = 16$.",
    r"If $a + b = 3$, then rearranging gives $a = 5 - b$.",
    # an operation that changes the solutions or the degree
    r"$\sqrt{x + 1} = 2$. Squaring both sides, we get $x + 1 = 4$.",
    r"$x^2 = 3x$. Dividing both sides by $x$, we get $x = 3$.",
    r"$\frac{x + 1}{x} = \frac{3}{2}$. Cross-multiplying, we get $2(x + 1) = 3x$.",
    # an operation said of one thing, not both sides
    r"$n = 2$, we subtract the $n = 1$ case.",
    r"$x + 3 = 10$. Subtract 3: $x = 7$.",
    # other letters: a substitution
    r"$x + y = 5$. Simplifying, $3z = 6$.",
    # a noun, not the operation (PRM800K, rated correct: symbolic-1.13's first draft read it)
    r"$(x - 3)(x - 7) = 0$. The second factor gives me $x - 7 = 0$, so $x = 7$.",
    r"$x = 3$. The expansion of the product gives $x^2 - 9 = 0$.",
    # "becomes" is the rewriting kind's
    r"$x + x = 4$ becomes $2x = 4$.",
]

FALSE_TWINS = [
    r"We have $2x + 5 = 9$. Subtracting 5 from both sides, we get $2x = 14$.",
    r"So $\frac{x + y}{2} = 5$. Multiplying both sides by 2, we get $x + y = 5$.",
    r"Then $x^2 - 5x + 6 = 0$. Factoring, we get $(x - 1)(x - 6) = 0$.",
    r"\[ a^2 + b^2 + x^2 - 16x + 64 = 16 \] Rearranging terms, we get: \[ a^2 + b^2 + x^2 - 16x + 32 = 0 \]",  # noqa: E501
    r"$\frac{3}{10}(v + c) = \frac{1}{2}c$. Multiply both sides by 20 to eliminate fractions: $3(v + c) = 10c$.",  # noqa: E501
    r"\[ xy = xy + 6y - 2x - 12 \] Rearranging terms gives: \[ 6y - 2x = -12 \]",
    r"\[ 2(x-3)(y-4) = -(x-3)^2 \] Expanding both sides gives: \[ 2xy - 8x - 6y + 24 = -x^2 + 6x + 9 \]",  # noqa: E501
]


@pytest.mark.parametrize("text", TRUE_WITHIN_A_STEP)
def test_a_true_restatement_holds(text):
    verdict = check_step(text, timeout_s=5.0)
    assert verdict.verdict != REFUTED, [c.as_dict() for c in verdict.failed]
    assert any(c.kind == "rearranging" and c.holds for c in verdict.claims), verdict.claims


@pytest.mark.parametrize("text", NOT_A_RESTATEMENT)
def test_words_that_bring_in_more_are_not_read(text):
    verdict = check_step(text, timeout_s=5.0)
    assert not any(c.kind == "rearranging" for c in verdict.claims), verdict.claims


@pytest.mark.parametrize("text", FALSE_TWINS)
def test_a_false_restatement_is_refuted(text):
    assert "rearranging" in (failed_kinds(text) or set())


def test_a_step_that_opens_with_the_words_restates_the_step_before():
    before = r"This simplifies to: \[ a^2 + x^2 - 16x + 64 = 16. \]"
    right = r"Rearranging terms, we get: \[ a^2 + x^2 - 16x + 48 = 0. \]"
    wrong = r"Rearranging terms, we get: \[ a^2 + x^2 - 16x + 32 = 0. \]"
    assert check_step_local(right, (before,)).verdict != REFUTED
    failed = check_step_local(wrong, (before,)).failed
    assert [c.kind for c in failed] == ["rearranging"]
    # without the step before, nothing to compare with
    assert check_step_local(wrong, ()).verdict != REFUTED


def test_a_factor_named_in_the_next_step_is_no_restatement():
    # PRM800K (MR-MATH sample), steps rated correct: "factor" is a noun there
    before = r"The first factor gives me $x - 3 = 0$, so $x = 3$."
    step = r"The second factor gives me $x - 7 = 0$, so $x = 7$."
    assert check_step_local(step, (before,)).verdict != REFUTED


def test_the_step_before_must_end_with_an_equation_in_the_same_letters():
    before = r"Let $y = 2x + 1$."
    step = r"Simplifying, we get $x^2 - 4 = 0$."
    assert not any(c.kind == "rearranging" for c in check_step_local(step, (before,)).claims)


REPEATING = [
    r"So $\frac{1}{6} = 0.1\overline{6}$.",
    r"$\frac{1}{3} = 0.\overline{3}$",
    r"$0.\overline{142857} = \frac{1}{7}$",
    r"$\frac{5}{12} = 0.41\overline{6}$",
    r"$0.\dot{3} = \frac13$",
    r"$\frac{7}{3} = 2.(3)$",
    r"$0.\overline{9} = 1$",
    "So 1/6 = 0.1(6).",  # symbolic-1.12 read 0.1 times 6 and refuted it (arithmetic)
    "We get 5/12 = 0.41(6).",
]
REPEATING_FALSE = [
    r"So $\frac{1}{6} = 0.1\overline{7}$.",
    r"$\frac{1}{3} = 0.\overline{4}$",
    r"$0.\overline{142857} = \frac{2}{7}$",
    "So 1/6 = 0.1(7).",  # false as a repeating decimal and as a product
    "$1.5(4) = 7$",
]


@pytest.mark.parametrize("text", REPEATING)
def test_a_repeating_decimal_is_its_fraction(text):
    verdict = check_step(text, timeout_s=5.0)
    assert verdict.verdict != REFUTED, [c.as_dict() for c in verdict.failed]


@pytest.mark.parametrize("text", REPEATING_FALSE)
def test_a_wrong_repeating_decimal_is_refuted(text):
    assert failed_kinds(text) == {"arithmetic"}


def test_a_decimal_before_parentheses_is_still_a_product():
    verdict = check_step("$1.5(4) = 6$", timeout_s=5.0)
    assert verdict.verdict != REFUTED
    assert any(c.holds for c in verdict.claims)
