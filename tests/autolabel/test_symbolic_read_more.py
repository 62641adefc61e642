# ruff: noqa: E501 -- exact copies of real step texts, one literal per text
"""Claims the parser missed before symbolic-1.3 (issue 25, round 2), read now as an earned
kind: a division with a remainder (arithmetic) and arithmetic whose numbers carry worded
labels in parentheses. Each false statement must be refuted; tricky true ones of the same
shape must not be. Texts marked with a ProcessBench id are exact copies of first error steps
(or, for the true ones, correct steps) from the develop part of
shared/data/processbench_dev.jsonl (autolabel/quality/dev_split.py)."""

import time

import pytest

from autolabel.symbolic import check_step
from autolabel.symbolic.inline_math import join_lone_symbols
from autolabel.symbolic.labels import blank_labels

REFUTED = [
    # math-14, step 1
    "Divide 706 by 7: 706 ÷ 7 = 101 with a remainder of 1. This means that 706 days from his birth date is equivalent to adding one day to his birth day.",
    # math-484, step 1
    r"Calculate \(327 \mod 17\): \[327 \div 17 = 19 \text{ remainder } 8,\] so \[327 \equiv 8 \pmod{17}.\]",
    # math-54, step 0
    r"We can solve this problem by repeatedly dividing the number by $6$ and keeping track of the remainder. First, we have $$355\div 6=58\;\mathrm{R}\;5.$$ So the last digit of the base $6$ representation of $355$ is $\boxed{5}$.",
    # a remainder alone (the shape of omnimath's "2003 divided by 3 gives a remainder of 1")
    r"Since \(2003\) divided by \(3\) gives a remainder of \(1\), this simplifies to \(-1\).",
    "The remainder when 5050 is divided by 77 is 28.",
    "So 100 leaves a remainder of 5 when divided by 20.",
    # gsm8k-7, step 1: labels between the operands
    "To find out how many chocolate chip cookies they have made, we need to subtract the number of rainbow cookies and oatmeal cookies from the total number of cookies. First, subtract the number of rainbow cookies from the total: 7995 (total cookies) - 2595 (rainbow cookies) = 4500.",
    # gsm8k-146, step 1: labels in \text{} inside a display
    r"To find out how many customers she counted on the third day, we need to add the number of customers from the first and second days to the total for the third day: \[100 (\text{first day}) + 150 (\text{second day}) + 500 (\text{third day}) = 700\]",
    "180 minutes (before dinner) + 80 minutes (homework) = 250 minutes.",
    # olympiadbench-213, step 2: substituting values into a formula computes
    r"Next, let's compute \( \cos B \): \[ \cos B = \frac{a^2 + c^2 - b^2}{2ac} = \frac{12^2 + 13^2 - 17^2}{2 \cdot 12 \cdot 13} \] Substitute the squares: \[ \cos B = \frac{144 + 169 - 289}{2 \cdot 12 \cdot 13} = \frac{214 - 289}{312} = \frac{-75}{312} \] Simplify the fraction: \[ \cos B = \frac{-75 \div 3}{312 \div 3} = \frac{-25}{104} \]",
    # "\\approx" after a claim goes on with its value; it does not hedge an exact one
    r"So $\frac{6}{2} = 4 \approx 4.0$.",
    # gsm8k-40, step 1: a rate written "number/unit"
    "Next, let's calculate the cost of repaving Lewis' street, which is 490 meters long: Cost of repaving Lewis' street = $194/meter × 490 meters = $94,860.",
]

NOT_REFUTED = [
    # true divisions with a remainder
    (
        r"$$ 10 \div 13 = 0\, \text{R}\, 10 $$ This tells us that 10 is not divisible by 13.",
        "verified",
    ),
    (
        r"\(2009 \div 4 = 502 \text{ remainder } 1\). This means that there are 502 complete cycles of four terms.",
        "verified",
    ),
    (
        "Finally, 100 leaves a remainder of 0 when divided by 20, because 100 is exactly divisible by 20.",
        "verified",
    ),
    ("706 ÷ 7 = 100 with a remainder of 6.", "verified"),
    # hedged, negative, or the start of a larger expression: nothing decided
    ("If 10 leaves a remainder of 3 when divided by 4, the count would be off.", "unknown"),
    (r"$-7 \div 3 = -3 \text{ remainder } 2$", "unknown"),
    ("706 / 7 = 100 R 6 + 1", "unknown"),
    # gsm8k-11, gsm8k-52, gsm8k-83 (true computations with labels, from erroneous solutions)
    (
        "Third, Randy ate 2 oatmeal cookies for lunch: Remaining oatmeal cookies = 9 - 3 (from snack) - 2 (for lunch) = 4.",
        "verified",
    ),
    (
        "Now, let's add Doxa's original 1 slice to the total eaten by her brother and sister: Total eaten = 6 (by her brother and sister) + 1 (by Doxa) = 7",
        "verified",
    ),
    (
        "Amount needed to save = $400,000 (desired savings) - $800,000 (current total) = -$400,000 (she already has more than enough).",
        "verified",
    ),
    ("180 minutes (before dinner) + 80 minutes (homework) = 260 minutes.", "verified"),
    # gsm8k-12, gsm8k-63 (true rates), and a fraction of a unit is not a rate
    (
        "First, dinner plates: There are 3 dinner plates. The cost per dinner plate is $6.00. Therefore, the total cost for dinner plates is 3 plates × $6.00/plate = $18.00.",
        "verified",
    ),
    ("Second, the cost for the skirts is: 1 skirt x $8.00/skirt = $8.00.", "verified"),
    ("$15/hour x 40 hours/week = $600/week", "verified"),
    ("1/2 cup + 1/4 cup = 3/4 cup", "verified"),
    # omnimath-843, step 4 (correct): substituting candidates into the equation tests them
    (
        r"Substituting \(a = 3\) and \(c = 9\) into the equation, we get: \[ 2 \cdot 3^3 + 9^3 = 3^4 \cdot 9^2 \implies 2 \cdot 27 + 729 = 81 \cdot 81 \implies 54 + 729 = 6561 \implies 783 = 6561, \] which is false. Therefore, there are no solutions for \(a = 3\).",
        "unknown",
    ),
    (r"Plugging $x = 2$ back in: $2^2 + 1 = 6$.", "unknown"),
    (r"So $\frac{22}{7} = 3.14 \approx 3.1$.", "verified"),
    (r"So $\frac{8}{2} = 4 \approx 4.0$.", "verified"),
    (r"So $3 + 4 = 8$ approximately.", "unknown"),
    # a label that questions the number stays in, and a modulus is not a label
    ("7995 (total cookies) - 2595 (wrong) = 4500.", "unknown"),
    ("So 7 (mod 5) + 3 = 0", "unknown"),
]


@pytest.mark.parametrize("text", REFUTED)
def test_refutes_with_an_earned_kind(text):
    verdict = check_step(text)
    assert verdict.verdict == "refuted", [c.as_dict() for c in verdict.claims]
    assert {c.kind for c in verdict.failed} & {"arithmetic", "chain"}, [
        c.as_dict() for c in verdict.failed
    ]


@pytest.mark.parametrize(("text", "expected"), NOT_REFUTED)
def test_does_not_refute(text, expected):
    verdict = check_step(text)
    assert verdict.verdict == expected, [c.as_dict() for c in verdict.claims]


# gsm8k-46, step 3: one equation split between math and prose ("\( x \) = 350 - 150")
GSM8K_46 = r"Since the combined total is 500, we can set up the equation: 30 + 15 + \( x \) + 105 = 500. Simplifying the equation, we get: 150 + \( x \) = 500. Subtracting 150 from both sides, we get: \( x \) = 350 - 150. Therefore, \( x \) = 200."


def test_reads_an_equation_split_around_a_lone_symbol():
    verdict = check_step(GSM8K_46)
    assert verdict.verdict == "refuted", [c.as_dict() for c in verdict.claims]
    assert any("x = 350 - 150" in c.text for c in verdict.failed), verdict.failed


@pytest.mark.parametrize(
    "text",
    [
        r"we get: 150 + \( x \) = 500. Subtracting 150 from both sides: \( x \) = 500 - 150 = 350.",
        r"Let $x$ be the number of apples and $y$ the pears; then $x$ = 12 - 5 = 7.",
    ],
)
def test_a_true_split_equation_is_not_refuted(text):
    assert check_step(text).verdict == "verified"


def test_lone_symbols_keep_every_position():
    text = r"Let \( x \) be it: 150 + \( x \) = 500, $y$ = 3 and $z$ is 4."
    joined = join_lone_symbols(text)
    assert len(joined) == len(text)
    assert joined == r"Let \( x \) be it: 150 +    x    = 500,  y  = 3 and $z$ is 4."


def test_labels_keep_every_position():
    text = r"7995 (total cookies) - 2595 (rainbow cookies) = 4500 and 100 (\text{first day})"
    blanked = blank_labels(text)
    assert len(blanked) == len(text)
    assert "cookies" not in blanked and "first day" not in blanked
    assert blank_labels(r"f(x) = 3 \(x\) and 3 (x)") == r"f(x) = 3 \(x\) and 3 (x)"


@pytest.mark.parametrize(
    "text",
    [
        "1 (a" * 20000 + ")",
        "7 " + "(total cookies) " * 5000 + "= 7",
        "706 ÷ 7 = 100 with a remainder of " * 3000 + "6",
        "100 leaves a remainder " * 5000 + "of 0 when divided by 20",
        r"150 + \( x \) = " * 5000 + "500",
        "$194/meter × " * 5000 + "490 meters = $94,860",
        "Substituting " + "the values, " * 5000 + "we get 2 + 2 = 5",
    ],
    ids=["open-labels", "many-labels", "quotients", "remainders", "lone-symbols", "rates", "hedge"],
)
def test_long_inputs_stay_within_the_time_limit(text):
    start = time.monotonic()
    verdict = check_step(text, timeout_s=2.0)
    assert time.monotonic() - start < 4.0
    assert verdict.verdict in ("verified", "refuted", "unknown")
