# ruff: noqa: E501 -- exact copies of real step texts, one literal per text
"""The claim kinds added for issue 25 (more recall, still precise): steps each must refute,
with the kind of the failed claim, and tricky true statements it must not refute. Texts
marked with a ProcessBench id are exact copies from the develop part of
shared/data/processbench_dev.jsonl (autolabel/quality/dev_split.py)."""

import time

import pytest

from autolabel.symbolic import check_step

# (kind, previous step or "", step text that must be refuted)
REFUTED = [
    # solving: consecutive equations of one derivation that share no root
    ("solving", "", "We have $3x + 4 = 25$, so $3x = 22$."),
    ("solving", "", r"$3x = 5 + 7 = 12$, so $x = 5$."),
    # a false statement in numbers derived from an equation (olympiadbench-194, step 3)
    ("solving", "", r"So $33+14b+b^{2} = 25+10b+b^{2}$, so $8 = 4b-4b$."),
    # rational equations: no common root of the numerators
    (
        "solving",
        "",
        r"$\frac{10k}{(5 + k)(4 + k)} = \frac{10}{21} \Rightarrow \frac{k}{(5 + k)(4 + k)} = \frac{1}{20}$",
    ),
    ("solving", "", r"We have $x^2(x - 3) = 0$, so $x^3 - 3x^2 = 1$."),
    # a linear equation with decimals, no rounding of the root (olympiadbench-800, step 4)
    (
        "solving",
        "",
        "Fourth, for \\(a = 33\\): \\[33(33^2 + 2b) = 2013 \\implies 33(1089 + 2b) = 2013 \\implies 1089 + 2b = 60.45 \\implies 2b = -1028.55.\\] Since \\(2b\\) cannot be negative, there is no solution for \\(a = 33\\).",
    ),
    ("solving", "", r"We have $7x = 22$, so $2x = 6.5$."),
    # the words around the derived equation count, not those of the sentence before (gsm8k-197)
    (
        "solving",
        "",
        "Now, we can substitute the third equation (P = L + J) into this equation: (L + J) + 2J + 10 = 100. Since L = J + 10, we substitute L in the equation: ((J + 10) + J) + 2J + 10 = 100. This simplifies to 5J + 20 = 100.",
    ),
    # math-487, step 1
    ("solving", "", r"So \( -2 + 4a + 8 = 0 \Rightarrow 4a = -10 \), hence a = -5/2."),
    # olympiadbench-233, step 9
    (
        "solving",
        "",
        "Solving this quadratic equation, we get:\n\\[ 2x^2 - x - 3 = 0 \\implies (2x + 3)(x - 1) = 0 \\]",
    ),
    ("solving", "", r"\[ x^2 - 5x + 6 = 0 \] \[ (x - 1)(x - 6) = 0 \]"),
    # math-109, steps 4 and 5
    ("solving", "Simplify the equation: 6r^2 = 12r.", "Divide both sides by 2r: 3r = 12."),
    # omnimath-75, steps 1 and 2
    (
        "solving",
        "We can write this as:\n\\[\n(2x - 3) - (4x) = (4x - 3) - (2x - 3)\n\\]",
        "Simplifying both sides, we get:\n\\[\n-2x - 3 = 2x - 6\n\\]",
    ),
    # a chain continued in a display that starts with "=" (math-49, step 2), kind chain
    (
        "chain",
        "",
        "Third, calculate the total sum. \\[Total\\ Sum = 24 \\times 24 \\times (1 + 10 + 100 + 1000 + 10000)\\] \\[= 24 \\times 24 \\times (11111)\\] \\[= 576 \\times 11111\\] \\[= 63950064\\]",
    ),
    ("chain", "", r"\[ S = 12 \cdot 13 \] \[ = 146 \]"),
    # solving: a product of brackets is not a call (math-530, step 1)
    (
        "solving",
        "",
        r"Rearranging the equation, we get \(k - \frac{(5 + k)(4 + k)}{21} = 0 \Rightarrow \frac{-16 + 20k + k^2}{21} = 0 \Rightarrow -16 + 20k + k^2 = 0.\)",
    ),
    # numbers inside a chain with an order relation (math-234, step 1), kind chain
    (
        "chain",
        "",
        r"Then we have \[(a^2 + b^2 + c^2 + d^2)((-1)^2 + 1^2 + 1^2 + 1^2) \ge (a(-1) + b(1) + c(1) + d(1))^2 = (a - 1 + b + c + d)^2 = (17 - 1)^2 = 49^2 = 2401,\] so \[a^2 + b^2 + c^2 + d^2 \ge \frac{2401}{4} = 590.25.\]",
    ),
    ("chain", "", r"So $n \le 2 \cdot 7 = 15$."),
    # a chain continued after the words of a derivation
    ("chain", "", r"\[ S = 20(23) + 80(7) \] This simplifies to: \[ = 460 + 580 \]"),
    # gcd_lcm (math-375, step 5)
    ("gcd_lcm", "", "The GCD of 187 and 77 is 13."),
    ("gcd_lcm", "", r"So $\gcd(12, 18) = 3$, and we divide."),
    ("gcd_lcm", "", r"$\text{lcm}(4, 6) = 24$"),
    ("gcd_lcm", "", "The least common multiple of 4, 6 and 10 is 120."),
    # floors and ceilings, read by the parser (brackets.py; kind floor_ceiling until 1.6):
    # math-74, step 1
    (
        "arithmetic",
        "",
        r"Second, evaluate \(\lceil -8.8 \rceil\): Again, the ceiling function rounds up to the nearest integer. Since \(-8.8\) is closer to \(-9\) than \(-8\), we round up to \(-9\). So, \(\lceil -8.8 \rceil = -9\).",
    ),
    ("chain", "", r"So $N = \left\lfloor \frac{100}{9} \right\rfloor = 12$."),
    ("chain", "", r"$\lfloor 100/3 \rfloor + \lfloor 100/9 \rfloor = 33 + 12 = 45$"),
    ("arithmetic", "", r"\[ \frac{100}{11} \approx 9.0909 \Rightarrow \lceil 9.0909 \rceil = 9 \]"),
]

# (kind, previous step or "", step text, expected verdict): true, or not surely asserted
NOT_REFUTED = [
    ("solving", "", "We have $3x + 4 = 25$, so $3x = 21$.", "verified"),
    ("solving", "", r"$3x = 5 + 7 = 12$, so $x = 4$.", "verified"),
    ("solving", "", r"\[ x^2 - 5x + 6 = 0 \] \[ (x - 2)(x - 3) = 0 \]", "verified"),
    # dropping a root or gaining one is not an error of the derivation
    ("solving", "", r"As x is positive: $x^2 = 9$ gives $x + 0 = 3$.", "verified"),
    ("solving", "", r"Squaring, $x = 2$ so $x^2 = 4$.", "unknown"),
    # decimals: a rounding (44/7 = 6.2857...) or a truncation of the root reads nothing
    ("solving", "", r"We have $7x = 22$, so $2x = 6.29$.", "unknown"),
    ("solving", "", r"We have $7x = 22$, so $2x = 6.2$.", "unknown"),
    ("solving", "", r"Since $4x = 10$, we get $1.25x = 3.13$.", "unknown"),
    ("solving", "", r"We have $3x = 10$, so $0.6x + 1 = 3$.", "verified"),
    # branches of a split (as in olympiadbench-865, step 3, a correct step)
    (
        "solving",
        "",
        "We can factor this quadratic equation as follows: \\[ (a + 4)(a - 1) = 0 \\] Setting each factor equal to zero gives us the solutions: \\[ a + 4 = 0 \\quad \\text{or} \\quad a - 1 = 0 \\]",
        "unknown",
    ),
    # math-741, step 3 (correct)
    (
        "solving",
        "",
        "This gives us two possible solutions for \\(x\\): \\[ x - 8 = 12 \\quad \\text{or} \\quad x - 8 = -12 \\] \\[ x = 20 \\quad \\text{or} \\quad x = -4 \\]",
        "unknown",
    ),
    # olympiadbench-464, step 10 (correct): critical points, one equation each
    (
        "solving",
        "",
        "We find the critical points where the expression equals zero or is undefined:\n- \\( x - 9 = 0 \\) gives \\( x = 9 \\)\n- \\( x + 2 = 0 \\) gives \\( x = -2 \\)\n- \\( x + 1 = 0 \\) gives \\( x = -1 \\)",
        "verified",
    ),
    # a value is not an equation to solve ("x = 5, so x - 4 = 1" checks nothing here)
    ("solving", "", r"For $x = 5$, we get $x - 4 = 1$.", "unknown"),
    ("solving", "", r"If $2x + 1 = 7$, then $2x = 8$.", "unknown"),
    ("solving", "", r"The wrong equation was $2x + 1 = 7$. So $2x = 8$.", "unknown"),
    (
        "solving",
        "",
        r"$\frac{10k}{(5 + k)(4 + k)} = \frac{10}{21} \Rightarrow \frac{k}{(5 + k)(4 + k)} = \frac{1}{21}$",
        "unknown",
    ),
    ("solving", "", r"So $2x + 1 = 2x + 1$, so $0 = 0$.", "verified"),
    # a function's values (math-789, step 1) and a ratio's pieces (olympiadbench-662, step 5)
    ("solving", "", r"\[f^{-1}(5+4) = 2f^{-1}(5) + 1\] \[f^{-1}(9) = 2 \cdot 2 + 1\]", "unknown"),
    (
        "solving",
        "",
        "Using the information from the first step, where \\(B = 20\\), we substitute into the equation:\n\\[20 : (80 + y) = 1 : 6\\]\nThis implies:\n\\[20 / (80 + y) = 1 / 6\\]",
        "unknown",
    ),
    ("solving", "", r"$x^2 = 2$, so $x^2 = 2.01$.", "unknown"),
    ("solving", "", r"Next, $2x = 6$. For the other case, $2x = 10$.", "unknown"),
    # the step before ends with other words: not a derivation from its last equation
    ("solving", "We have $2x + 1 = 7$. This is linear.", "We also know: $x + 1 = 2$.", "unknown"),
    # continued chains
    ("chain", "", r"\[ S = 12 \cdot 13 \] \[ = 156 \]", "verified"),
    ("chain", "", r"\[ S = 12 \cdot 13 \] Next, for the second box: \[ = 146 \]", "unknown"),
    # a function's values are not equations in its letter
    ("solving", "", r"So $g(2) = 5$, hence $g(3) = 7$.", "unknown"),
    ("chain", "", r"So $n \le 2 \cdot 7 = 14$.", "verified"),
    (
        "chain",
        "",
        r"\[ S = 20(23) + 80(7) \] This simplifies to: \[ = 460 + 560 \]",
        "verified",
    ),
    ("chain", "", r"\[ S = 20(23) \] For the other case, \[ = 470 \]", "unknown"),
    ("gcd_lcm", "", "The greatest common divisor of 187 and 77 is 11.", "verified"),
    ("gcd_lcm", "", "The least common multiple of 4, 6 and 10 is 60.", "verified"),
    ("gcd_lcm", "", "If the gcd of 12 and 18 were 5, the fraction would not reduce.", "unknown"),
    ("gcd_lcm", "", r"We get $\gcd(12, 18) = 2 \cdot 3$.", "unknown"),
    ("gcd_lcm", "", r"Here $\gcd(0, 18) = 18$ by convention.", "unknown"),
    ("arithmetic", "", r"$\left\lfloor \frac{100}{3} \right\rfloor = 33$", "verified"),
    (
        "chain",
        "",
        r"$\lfloor 100/3 \rfloor + \lfloor 100/9 \rfloor = 33 + 11 = 44$",
        "verified",
    ),
    ("arithmetic", "", r"$2\lfloor 3.5 \rfloor = 6$", "verified"),
    ("chain", "", r"\[ \lceil \sqrt{1300} \rceil = \lceil 36.0555 \rceil = 37 \]", "verified"),
    # a decimal as close to a whole number as its rounding: the floor is not taken
    ("arithmetic", "", r"$\lfloor 2.9999 \rfloor = 3$", "unknown"),
    ("arithmetic", "", r"$\lceil 4.0 \rceil = 5$", "unknown"),
    ("arithmetic", "", r"$\lfloor x \rfloor = 3$", "unknown"),
    ("arithmetic", "", r"If $\lfloor 3.5 \rfloor = 4$, the sum would be larger.", "unknown"),
    ("chain", "", r"Hence $x^2 + 1 \ge 1 = 1^2$ and $1 \le k \le 9$.", "verified"),
    ("chain", "", r"If $n \le 2 \cdot 7 = 15$, the bound fails.", "unknown"),
    ("chain", "", r"So $S \approx 3.14 \cdot 2 = 6.3$ and $S < 7$.", "verified"),
]


@pytest.mark.parametrize(("kind", "previous", "text"), REFUTED)
def test_refutes(kind, previous, text):
    verdict = check_step(text, previous_steps=[previous] if previous else [])
    assert verdict.verdict == "refuted", [c.as_dict() for c in verdict.claims]
    assert kind in {c.kind for c in verdict.failed}, [c.as_dict() for c in verdict.failed]


@pytest.mark.parametrize(("kind", "previous", "text", "expected"), NOT_REFUTED)
def test_does_not_refute(kind, previous, text, expected):
    verdict = check_step(text, previous_steps=[previous] if previous else [])
    assert verdict.verdict == expected, [c.as_dict() for c in verdict.claims]


def test_every_kind_has_both_lists():
    assert {k for k, _, _ in REFUTED} == {k for k, _, _, _ in NOT_REFUTED}


@pytest.mark.parametrize(
    "text",
    [
        " so ".join(f"$x + {i} = {i + 1}$" for i in range(400)),
        "\\lfloor 1 " * 20000 + "\\rfloor = 1",
        "$\\lfloor 7/2 \\rfloor = 3$ " * 3000,
        "The gcd of " + ", ".join("1,000" for _ in range(5000)) + " and 10 is 5.",
        "gcd(" + ", ".join("12" for _ in range(5000)) + ") = 3",
        "\\[ S = 1 \\]" + " \\[ = 1 \\]" * 3000,
        "$n \\le " + " = ".join("2" for _ in range(3000)) + "$",
    ],
    ids=["derivation", "floor-openers", "many-floors", "gcd-list", "gcd-call", "displays", "bound"],
)
def test_long_inputs_stay_within_the_time_limit(text):
    start = time.monotonic()
    verdict = check_step(text, timeout_s=2.0)
    assert time.monotonic() - start < 4.0
    assert verdict.verdict in ("verified", "refuted", "unknown")
