# ruff: noqa: E501 -- exact copies of real step texts, one literal per text
"""Function values (issue 25, symbolic-1.9): a function the problem defines, evaluated at a
number in a step (autolabel/symbolic/functions.py, kind ``function_value``). Texts marked with
a ProcessBench id are exact copies from the develop part of shared/data/processbench_dev.jsonl
(autolabel/quality/dev_split.py)."""

import pytest

from autolabel.symbolic import check_step
from autolabel.symbolic.functions import definitions

LINEAR = "Let $f(x) = 2x+3$. Find $f(4)$."
RATIONAL = r"If $f(x)=\frac{3x-2}{x-2}$, what is the value of $f(-2) +f(-1)+f(0)$? Express your answer as a common fraction."
CUBE = r"If $f(x)=x^3$, what is the value of $f^{-1}(8)\div (f(8))^{-1}$?"  # math-169
POLY = r"Let $P(x) = 4x^3 - 2x^2 + 7x - 1$, and let $Q(x) = P(x)^2$. What is the y-intercept of $Q(x)$?"  # math-205
TWO = r"Let $f(x) = 12x+7$ and $g(x) = 5x+2$ whenever $x$ is a positive integer. Define $h(x)$ to be the greatest common divisor of $f(x)$ and $g(x)$. What is the sum of all possible values of $h(x)$?"  # math-375

# (problem, step) that must be refuted by a false function value
REFUTED = [
    (LINEAR, "So $f(4) = 2(4)-3 = 5$."),
    (LINEAR, "So $f(4) = 12$."),
    (LINEAR, "$f(f(1)) = f(5) = 12$"),
    (RATIONAL, r"$f(-2) = \frac{3(-2)+2}{-2-2} = 1$"),
    # math-169, step 1 (the first error): the reciprocal of f(8) = 512 is 1/512
    (
        CUBE,
        "To find \\( (f(8))^{-1} \\), we need to solve for \\( x \\) in \\( x^3 = 512 \\). Therefore, \\( (f(8))^{-1} = 8 \\).",
    ),
]

# (problem, step) with true or undecidable function values: never refuted
NOT_REFUTED = [
    (LINEAR, "So $f(4) = 2(4)+3 = 11$."),
    (LINEAR, "$2f(3) + 1 = 19$ and $f(f(1)) = f(5) = 13$"),
    (RATIONAL, r"$f(-2) = \frac{3(-2)-2}{-2-2} = \frac{-8}{-4} = 2$"),
    # math-205, step 1 (correct): P(0) in a chain of products of zero
    (
        POLY,
        "The y-intercept of \\( Q(x) \\) is the same as the y-intercept of \\( P(x) \\), because the y-intercept is the value of \\( Q(x) \\) when \\( x = 0 \\). Therefore, we need to evaluate \\( P(0) \\):\n\\[ P(0) = 4(0)^3 - 2(0)^2 + 7(0) - 1 = -1 \\]",
    ),
    # math-375, step 4 (correct)
    (
        TWO,
        "So, the possible values of \\( h(x) \\) are \\( \\gcd(5x + 2, 2x + 3) \\) when \\( x = 5 \\) and \\( x = 15 \\). For \\( x = 5 \\): \\[ f(5) = 12(5) + 7 = 60 + 7 = 67 \\] \\[ g(5) = 5(5) + 2 = 25 + 2 = 27 \\] The GCD of 67 and 27 is 1 because 67 is a prime number and does not divide 27.",
    ),
    # math-169, step 0 (correct): an inverse is not a value of f
    (
        CUBE,
        "To find \\( f^{-1}(8) \\), we need to solve for \\( x \\) in \\( x^3 = 8 \\). Therefore, \\( f^{-1}(8) = 2 \\).",
    ),
    # hypothetical, rounded, approximate, quoted, a slip whose result stands
    (LINEAR, "If $f(4) = 12$, then we would have a contradiction."),
    (r"Let $f(x)=x/3$.", "$f(1) = 0.33$"),
    (r"Let $f(x)=x/3$.", "$f(1) = 0$ people"),
    (LINEAR, r"$f(4) \approx 12$"),
    (r"Let $f(x) = 2x+3$. Is $f(4) = 12$ possible?", "We are asked whether $f(4) = 12$."),
    # the step defines its own f
    (LINEAR, "Now let $f(x) = x^2$ instead, so $f(4) = 16$."),
]

# problems whose functions are not read: piecewise, unknowns, a functional equation, an
# equation to solve, a restricted rule
NOT_READ = [
    r"Let \[f(x) = \begin{cases} -x^2 - 1 &\text{if }x<0, \\ 2&\text{if }0 \le x< 4, \\ \sqrt{x}&\text{if }x \ge 4. \end{cases} \]Find $f(\pi)$.",
    r"Let $f(x) = ax^2 + 3$ and $f(1) = 5$.",
    r"The function $f(x)$ satisfies the equation $f(x)=f(x-1)+f(x+1)$ for all values of $x$. If $f(1)=1$ and $f(2)=3$, what is the value of $f(2008)$ ?",
    r"Find all real $x$ with $p(x) = 0$.",
    r"Let $f(x) = x^2$ for $x > 0$ and $f(x) = -x$ for $x \le 0$.",
    r"Let $f(x) = 2x$ and later $f(x) = 3x$.",
]


@pytest.mark.parametrize(("problem", "step"), REFUTED)
def test_false_function_values_are_refuted(problem: str, step: str) -> None:
    verdict = check_step(step, problem=problem)
    assert verdict.verdict == "refuted", [(c.text, c.reason) for c in verdict.claims]
    assert "function_value" in {c.kind for c in verdict.failed}


@pytest.mark.parametrize(("problem", "step"), NOT_REFUTED)
def test_true_or_hedged_function_values_are_not_refuted(problem: str, step: str) -> None:
    verdict = check_step(step, problem=problem)
    assert verdict.verdict != "refuted", [(c.kind, c.text, c.reason) for c in verdict.failed]


def test_a_slip_whose_result_stands_is_not_a_false_value() -> None:
    # f(4) = 11: the written link f(4) = 2(4) + 4 is false, but the chain ends on f(4)'s value
    verdict = check_step("$f(4) = 2(4) + 4 = 11$", problem=LINEAR)
    values = [c for c in verdict.claims if c.kind == "function_value"]
    assert [c.holds for c in values] == [None] and "slip" in values[0].reason


def test_a_true_value_is_decided() -> None:
    verdict = check_step("So $f(4) = 11$.", problem=LINEAR)
    assert [c.holds for c in verdict.claims if c.kind == "function_value"] == [True]


@pytest.mark.parametrize("problem", NOT_READ)
def test_functions_not_plainly_defined_are_not_read(problem: str) -> None:
    assert definitions(problem) == {}


def test_definitions_read() -> None:
    assert set(definitions(TWO)) == {"f"}  # g's rule is restricted ("whenever ...")
    assert str(definitions(RATIONAL)["f"].rule) == "(3*x - 2)/(x - 2)"
    assert set(definitions(POLY)) == {"P"}  # Q(x) = P(x)^2 calls another function
