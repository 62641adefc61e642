"""Parse what a step says, not every '=' in it (issue 25, precision): one block per class of
misreading. Each true statement is a correct step (or its claim) from the *develop* part of
shared/data/processbench_dev.jsonl (ProcessBench id in the comment; test_rows_are_develop
checks the part), and must not be refuted; beside it a false statement of the same shape,
which must still be refuted, so the rule spares the reading, not the claim."""

import pytest

from autolabel.symbolic import check_step
from autolabel.symbolic.verdicts import REFUTED
from tests.autolabel.develop_rows import assert_develop

# (class, ProcessBench id or "" for the issue's own example, true text, false text)
CASES = [
    # units: an exponent after a unit word squares or cubes the unit, not the number
    (
        "unit power",
        "math-706",
        r"For the new diameter of 4 cm, the radius is \( r_2 = \frac{4}{2} = 2 \) cm."
        "\n"
        r"\[ V_2 = \frac{4}{3} \pi (2)^3 = \frac{4}{3} \pi \cdot 8 = "
        r"\frac{32}{3} \pi \text{ cm}^3 \]",
        r"\[ V_2 = \frac{4}{3} \pi \cdot 8 = \frac{31}{3} \pi \text{ cm}^3 \]",
    ),
    (
        "units",
        "gsm8k-396",
        r"- Time spent writing: \(4 \text{ hours} = 4 \times 60 = 240 \text{ minutes}\)",
        r"- Time spent writing: \(4 \text{ hours} = 4 \times 60 = 250 \text{ minutes}\)",
    ),
    (
        "units",
        "gsm8k-217",
        "She also has 2 dimes, each dime is worth 10 cents. So, 2 dimes = 2 * 10 = 20 cents.",
        "She also has 2 dimes, each dime is worth 10 cents. So, 2 dimes = 2 * 10 = 30 cents.",
    ),
    # a Markdown list marker is not a minus sign
    (
        "list marker",
        "omnimath-501",
        "First, the LCM of 10, 12, and 15 is 60.\n- 10 = 2 * 5\n- 12 = 2^2 * 3\n- 15 = 3 * 5",
        "First, the LCM of 10, 12, and 15 is 60.\n- 10 = 2 * 5\n- 12 = 2^2 * 3\n- 15 = 3 * 7",
    ),
    (
        "list marker",
        "omnimath-14",
        "Note that:\n"
        r"- \(5^{129} \equiv 1^{129} \equiv 1 \mod 4\),"
        "\n"
        r"- \(7^{131} \equiv (-1)^{131} \equiv -1 \equiv 3 \mod 4\).",
        "Note that:\n"
        r"- \(5^{129} \equiv 1^{129} \equiv 1 \mod 4\),"
        "\n"
        r"- \(7^{131} \equiv (-1)^{131} \equiv -1 \equiv 2 \mod 4\).",
    ),
    # prose around a formula: the formula is an operand or object of the words before it
    (
        "prose operand",
        "olympiadbench-987",
        r"- Small cookie price increase: $10\%$ of $\$1.50 = 0.10 \times \$1.50 = \$0.15$",
        r"- Small cookie price increase: $10\%$ of $\$1.50 = 0.10 \times \$1.50 = \$0.25$",
    ),
    (
        "prose object",
        "math-839",
        r"Therefore, the mean of \(\frac{1}{2}\) and \(\frac{7}{8}\) is \(\boxed{\frac{11}{16}}\).",
        r"Therefore, \(\frac{1}{2} + \frac{7}{8}\) is \(\boxed{\frac{11}{16}}\).",
    ),
    (
        "prose object",
        "omnimath-965",
        r"So, the power of \(2\) in \(100!\) is \(97\).",
        r"So, \(2^{7}\) is \(127\).",
    ),
    (
        "prose object",
        "math-829",
        r"the sum of the roots \( 2 + 3 + x_D \) is equal to \( 9a - 1 \) divided by \( a \), "
        r"which simplifies to \( 9 - \frac{1}{a} \).",
        r"the sum of the roots is \( \frac{9a - 1}{a} \), which simplifies to \( 9 - a \).",
    ),
    (
        "clause subject",
        "olympiadbench-794",
        "Therefore, the sum of the digits of the integer equal to "
        r"$\left(10^{3}+1\right)^{2}$ is $\boxed{4}$.",
        r"Therefore, the integer $\left(10^{3}+1\right)^{2}$ is $\boxed{4}$.",
    ),
    (
        "clause subject",
        "omnimath-802",
        r"Therefore, the total number of perfect squares that divide $10^{10}$ is $\boxed{36}$.",
        r"Therefore, $6^{2}$ is $\boxed{37}$.",
    ),
    # disjunctions and case splits: a solution answers one branch
    (
        "disjunction",
        "olympiadbench-865",
        r"Setting each factor equal to zero gives us the solutions: \[ a + 4 = 0 \quad "
        r"\text{or} \quad a - 1 = 0 \] Solving these equations, we find: \[ a = -4 \quad "
        r"\text{or} \quad a = 1 \]",
        r"Setting each factor equal to zero gives us the solutions: \[ a + 4 = 0 \quad "
        r"\text{or} \quad a - 1 = 0 \] Solving these equations, we find: \[ a = -3 \quad "
        r"\text{or} \quad a = 1 \]",
    ),
    (
        "disjunction",
        "olympiadbench-648",
        r"Setting each factor equal to zero gives us: \[x - 1 = 0\] or \[x^2 - 3x - 3 = 0\] "
        r"From the first equation, we find: \[x = 1\]",
        r"Setting each factor equal to zero gives us: \[x - 1 = 0\] or \[x^2 - 3x - 3 = 0\] "
        r"From the first equation, we find: \[x = 2\]",
    ),
    (
        "disjunction",
        "",
        r"\(a^2 = 25\), so \(a = 5\) or \(a = -5\). Since \(a\) is positive, \(a = 5\).",
        r"\(a^2 = 25\), so \(a = 5\) or \(a = -6\). Since \(a\) is positive, \(a = 5\).",
    ),
    (
        "disjunction",
        "",
        r"\(2x + 1 = 9\) or \(2x + 1 = -9\), so \(x = 4\) or \(x = -5\).",
        r"\(2x + 1 = 9\) or \(2x + 1 = -9\), so \(x = 4\) or \(x = -4\).",
    ),
    (
        "case split",
        "olympiadbench-218",
        r"**Case 1: \(n = 0\)** If \(n = 0\), then: \[3n^2 = 0,\] \[m^2 = k = 1,\] "
        r"\[2(n+1)^2 = 2(0+1)^2 = 2.\] So, the integers are \(0, 1, 2\), which are consecutive.",
        r"**Case 1: \(n = 0\)** If \(n = 0\), then: \[3n^2 = 0,\] \[m^2 = k = 1,\] "
        r"\[2(n+1)^2 = 2(0+1)^2 = 4.\] So, the integers are \(0, 1, 2\), which are consecutive.",
    ),
    # equations run together without a separator: "-14 = x + 2", then "-16 = x"
    (
        "run together",
        "math-708",
        "Now, let's solve Equation 1 for x: -14 = x + 2 -16 = x. So, x = -16.",
        "Now, let's solve Equation 1 for x: -14 = x + 2. So, x = -15.",
    ),
    # hypotheses, tests and rejected values
    (
        "tested value",
        "omnimath-843",
        r"Substituting \(a = 1\) and \(c = 2\) into the equation, we get: \[ 2 \cdot 1^3 + 2^3 = "
        r"1^4 \cdot 2^2 \implies 2 + 8 = 4 \implies 10 = 4, \] which is false.",
        r"Therefore we get: \[ 2 \cdot 1^3 + 2^3 = 11 \].",
    ),
    (
        "tested value",
        "omnimath-305",
        "Seventh, consider \\( n = 60 \\):\n- Here, \\( d_5 = 5 \\) and \\( d_6 = 6 \\)\n"
        "- Check: \\( 60 = 5^2 + 6^2 = 25 + 36 = 61 \\)\n- This does not work.",
        "Seventh, consider \\( n = 61 \\):\n- Here, \\( d_5 = 5 \\) and \\( d_6 = 6 \\)\n"
        "- So: \\( 61 = 5^2 + 6^2 = 25 + 36 = 62 \\)",
    ),
    (
        "tested value",
        "olympiadbench-783",
        "Seventh, substitute \\( x = 3 \\) into the original equation:\n"
        "\\[ 2 + \\sqrt{3 - 2} = 3 - 2 \\]\n\\[ 2 + \\sqrt{1} = 1 \\]\n\\[ 2 + 1 = 1 \\]\n(False)",
        "Seventh, simplify:\n\\[ 2 + \\sqrt{1} = 4 \\]",
    ),
    # the hypotheses, goals and questions: a false equality not asserted
    ("question", "", r"Would \(2 + 2 = 5\) work? No.", r"So \(2 + 2 = 5\) works."),
    (
        "goal",
        "",
        r"We need \(3 \times 4 = 13\) for this to work, which fails.",
        r"We need to find the total: \(3 \times 4 = 13\).",
    ),
    (
        "hypothesis",
        "",
        r"Suppose, for contradiction, that \(\sqrt{4} = \frac{3}{2}\).",
        r"Since the square is 4, we know that \(\sqrt{4} = \frac{3}{2}\).",
    ),
    (
        "negated",
        "",
        r"It is not the case that \(7 \times 8 = 54\); we cannot have \(2 + 2 = 5\).",
        r"It is the case that \(7 \times 8 = 54\).",
    ),
    (
        "rejected",
        "",
        r"Note that \(4 + 4 = 9\) would be wrong; it is 8.",
        r"Note that \(4 + 4 = 9\), so it is 9.",
    ),
    # approximations and rounding to the precision written
    (
        "approximation",
        "math-514",
        r"\[100 ÷ 7 ≈ 14.2857\] Rounding up, we get 15. So, the smallest multiple of 7 greater "
        r"than 100 is \(15 × 7 = 105\).",
        r"\[100 ÷ 7 ≈ 14.2857\] Rounding up, we get 15. So, the smallest multiple of 7 greater "
        r"than 100 is \(15 × 7 = 115\).",
    ),
    (
        "approximation",
        "math-532",
        r"Next, we simplify the right-hand side: \[ (1.05)^n > \frac{1100}{980} \approx "
        r"1.1224489795918367 \]",
        r"Next, we simplify the right-hand side: \[ \frac{1100}{980} = 1.3224 \]",
    ),
    ("rounding", "", r"So \(\frac{2}{3} = 0.67\).", r"So \(\frac{2}{3} = 0.6\)."),
    ("rounding", "", r"So \(\pi = 3.14\), and \(\sqrt{2} = 1.41\).", r"So \(\sqrt{2} = 1.5\)."),
]


def _refuted(text: str, problem: str | None = None) -> bool:
    return check_step(text, problem=problem).verdict == REFUTED


@pytest.mark.parametrize(
    ("true_text", "false_text"),
    [(c[2], c[3]) for c in CASES],
    ids=[f"{c[0]}:{c[1] or 'issue'}" for c in CASES],
)
def test_true_statement_is_not_refuted_and_false_one_is(true_text, false_text):
    verdict = check_step(true_text)
    assert verdict.verdict != REFUTED, [c.text for c in verdict.failed]
    assert _refuted(false_text)


def test_a_unit_power_stays_a_unit():
    """16 cm^3 is 16 (cubic centimetres), not 4096; a conversion of square units is not
    decided from linear factors."""
    claims = check_step(r"\[ V = 2 \cdot 8 = 16 \text{ cm}^3 \]").claims
    assert [c.holds for c in claims if c.holds is not None] == [True]
    assert not _refuted(r"\[ 2 \text{ cm}^2 = 200 \text{ mm}^2 \]")


def test_a_list_marker_is_not_a_minus_but_a_leading_minus_is():
    assert not _refuted("We have:\n* 14 = 2 * 7\n+ 21 = 3 * 7")
    assert _refuted("We get\n-3 + 5 = -2")


def test_pi_named_a_permutation_by_the_problem_is_not_the_constant():
    problem = "Let $\\pi$ be a permutation of the numbers from 2 through 2012. Find the largest"
    step = r"The maximum occurs when $\pi(2) = 2012, \pi(3) = 2011, \ldots, \pi(2012) = 2$."
    assert not _refuted(step, problem=problem)
    assert _refuted(r"The area is $\pi(3)^2 = 9\pi = 10\pi$.", problem="A circle of radius 3")


def test_rows_are_develop():
    """Every ProcessBench id cited above is in the develop part (when the dev set is here)."""
    assert_develop({c[1] for c in CASES if c[1]})


def test_a_quantity_needed_is_still_a_claim():
    """'we need' states a goal; 'she needs 3 x 4 = 13 cups' states a quantity."""
    assert _refuted("She needs 3 x 4 = 13 cups.")
    assert _refuted("We need to find the total: 3 x 4 = 13 cups.")
