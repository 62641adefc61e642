"""The claim kinds added for issue 14, one block per kind: steps each must refute (with the
kind of the failed claim), and tricky true or undecidable statements it must not refute."""

import time

import pytest

from autolabel.symbolic import check_step

# (kind, step text that must be refuted)
REFUTED = [
    # verbal: equalities and operators in words (PRMBench confidence rows)
    ("verbal", "Yes, and 210 + 91 is 300. So $S_{14} = 7 * 300$."),
    ("verbal", "Multiplying 7 by 6, I should get 43 inches."),
    ("verbal", "So 30 times 6 equals 190."),
    ("verbal", "$2^{10}$ is 1000, so that is too small."),
    ("verbal", "This simplifies to $-6 + 0 - 35$, which is $-42$."),
    ("verbal", "12 is 25% of 50 apples, and 2 + 2 is equal to 5."),
    ("verbal", "Subtracting 3 from 10 gives 8 apples."),
    # absolute values (PRMBench confidence p1_121, step 8)
    ("verbal", "And the absolute value of $-35$ is undoubtedly $70$, because negatives double."),
    ("arithmetic", "$|-35| = 70$"),
    ("arithmetic", "So the area is $\\dfrac{1}{2} |-35| = 35$."),
    # unit conversions within one system of units
    ("unit_conversion", "So 2 hours = 100 minutes."),
    ("unit_conversion", "1 mile = 5000 feet, so the race is long."),
    ("unit_conversion", "3 cups = 1 pint"),
    ("unit_conversion", "$5 \\text{ km} = 500 \\text{ m}$"),
    ("unit_conversion", "The walk took 2 hours + 30 minutes = 140 minutes."),
    # prime factorizations, divisor lists, primality, divisibility
    ("primality", "Since 91 is prime, it has no other divisors."),
    ("primality", "$51$ is a prime number."),
    ("primality", "Note that 1 is prime."),
    ("primality", "And 97 is not prime."),
    ("divisibility", "91 is not divisible by 7."),
    ("divisibility", "7 divides 92, so 92 = 7k."),
    ("divisibility", "3 is a factor of 13."),
    ("divisibility", "Since 17 is even, we pair them up."),
    ("factorization", "The prime factorization of 72 is $8 \\cdot 9$."),
    ("factorization", "The prime factorization of 72 is $2^3 \\cdot 3^3$."),
    ("factorization", "As a product of primes, $360 = 2^3 \\times 3^2 \\times 7$."),
    ("divisors", "The divisors of 12 are 1, 2, 3, 6, and 12."),
    ("divisors", "The proper divisors of 284 are 1, 2, 4, 71, 142, and 284."),
    ("divisors", "The prime factors of 12 are 2, 3 and 5."),
    ("divisors", "The factors of 12 are 3 and 5."),
    # fraction simplification
    ("simplification", "So the probability is $\\frac{6}{8}$, which is in lowest terms."),
    ("simplification", "6/8 cannot be simplified further."),
    # numerals with a base subscript (ProcessBench math-147, step 0)
    (
        "base_conversion",
        r"First: \(3.5_{10} = 3 \times 2 + 0 \times 1 + 5 \times 0.1 + 0 \times 0.01 = 15_5\).",
    ),
    ("base_conversion", "$101_2 = 6$"),
    ("base_conversion", "$2 \\times 25 + 4 \\times 5 + 2 \\times 1 = 62_{10}$"),
    # order claims between numbers (PRMBench domain_inconsistency p1_33, step 18)
    ("inequality", "But we also have 2+1 > 3"),
    ("inequality", "$2^{10} = 1024 < 1000$, so ten doublings are not enough."),
    ("inequality", "Since $7^2 = 49 > 50$, we stop."),
    ("inequality", "We know $3.15 < \\pi$."),
    ("inequality", "So $\\frac{1}{3} \\ge \\frac{1}{2}$."),
    # a stated solution put back into its equation
    ("substitution", "We have $2x + 3 = 7$, so $x = 5$."),
    ("substitution", "$x^2 - 5x + 6 = 0$ gives $x = 2$ or $x = 4$."),
    ("substitution", r"\begin{align*} 2x + 3 &= 7 \\ 2x &= 4 \\ x &= 3 \end{align*}"),
    ("substitution", "$\\sqrt{x + 2} = x$, so $x = -1$."),
    ("substitution", "That gives us 8x=60, so x=8.5."),
    ("substitution", "That gives us 8x=60, so x=7.4."),
    ("substitution", "$x^2 = 2$, so $x = 1.42$."),
    ("substitution", "Then 3 is a root of the equation $x^2 - 4 = 0$."),
    ("substitution", "Then 2 is not a root of the equation $x^2 - 4 = 0$."),
    # counts of listed items (ProcessBench olympiadbench-940, step 1)
    (
        "count",
        "the possible values of \\( n \\) are all the numbers that are not multiples of 3, i.e., "
        "1, 2, 4, 5, 7, 8, 10, ..., 97, 98. There are 32 such numbers.",
    ),
    ("count", "The divisors are 1, 2, 4, 71, and 142. There are 6 of them."),
    ("count", "The terms are 5, 10, 15, \\ldots, 100, so there are 21 terms."),
    # percentages and ratios
    ("verbal", "So 12 is 30% of 50."),
    ("percentage", "$50 discounted by 20% gives $45."),
    ("percentage", "80 increased by 25 percent is 110."),
    ("percentage", "From 3 to 4 is a 30% increase."),
    ("percentage", "That is a 20% decrease from 50 to 45."),
    ("ratio", "So 12:18 = 3:4."),
    ("ratio", "The ratio 6:4, which is in simplest form, gives 6 parts."),
    # rewritings in words (PRMBench deception p1_396 step 11, ProcessBench math-181 step 0)
    (
        "rewriting",
        "Now let's simplify. $4(x^2 - 6x + 9) - 36 - 25(y^2 - 10y + 25) + 625 - 489 = 0$ "
        "becomes $4(x - 3)^2 + 25(y - 5)^2 - 100 = 0$.",
    ),
    (
        "rewriting",
        "To simplify the expression \\(\\frac{(10r^3)(4r^6)}{8r^4}\\), we multiply the "
        "coefficients:\n\\[ 10 \\times 4 = 40 \\]\nSo the expression becomes:\n"
        "\\[ \\frac{40r^3}{8r^4} \\]",
    ),
    ("rewriting", "$x^2 - 5x + 6$ factors as $(x - 2)(x - 4)$."),
    ("rewriting", "$2x + 3x$ simplifies to $6x$"),
    # congruences between numbers, with a literal modulus
    ("congruence", "We have $53\\equiv 6 \\pmod{8}$, so we need $7x \\equiv 2$."),
    ("congruence", "Since $2^{10} \\equiv 3 \\pmod 7$, the cycle has length 3."),
    ("congruence", "Then $-4 \\equiv -1 \\equiv 1 \\pmod{3}$."),
    ("congruence", "So $10 - 4 \\equiv 7 \\ (\\text{mod } 5)$."),
    ("congruence", "So 10 - 4 = 6 and 6 \\equiv 7 (mod 5)."),
    ("congruence", "Thus \\[ 3 \\cdot 7^{2} + 1 \\equiv 2 \\pmod{10} \\]"),
]

# (kind, step text that must not be refuted, the verdict expected)
NOT_REFUTED = [
    ("verbal", "So, 9*4 is 36.", "verified"),
    # congruences: true ones, symbols, hedges, \not, a term that continues an expression
    (
        "congruence",
        "We have $53\\equiv5\\mod{8}$. So, we must have $7x\\equiv-5\\mod{8}$.",
        "verified",
    ),
    ("congruence", "Thus, \\[ -5 \\equiv 32 \\pmod{37} \\]", "verified"),
    (
        "congruence",
        "\\[ (1+i)^4 = (2i)^2 = 4i^2 = 4(-1) = -4 \\equiv -1 \\equiv 2 \\pmod{3} \\]",
        "verified",
    ),
    ("congruence", "By Fermat, $2^{100} \\equiv 1 \\pmod{101}$.", "verified"),
    ("congruence", "Since $7\\equiv-1\\mod{8}$, we get $x \\equiv -3 \\pmod 8$.", "verified"),
    ("congruence", "So $2k \\equiv 46 \\pmod{100}$ and $ts \\equiv 1 \\pmod{23}$.", "unknown"),
    ("congruence", "Then $x - 4 \\equiv 1 \\pmod{3}$, and $xy - 5 \\equiv 2 \\pmod 7$.", "unknown"),
    ("congruence", "If $5 \\equiv 2 \\pmod 4$, then something is off.", "unknown"),
    ("congruence", "Note that $3 \\not\\equiv 1 \\pmod{4}$.", "unknown"),
    (
        "congruence",
        "So $a - b \\equiv 16 - 21 \\pmod{37}$ and $i \\not\\equiv j \\pmod{n}$.",
        "unknown",
    ),
    ("congruence", "We get $2(3) \\equiv 1 \\pmod 5$ and $2^{-1} \\equiv 3 \\pmod 5$.", "unknown"),
    ("congruence", "The units digit: $7^{4} \\equiv 1 \\pmod{10}$, as 2401 ends in 1.", "verified"),
    ("verbal", "30 times 6 is 180, and 30 times 0.5 is 15, so 180 + 15 equals 195.", "verified"),
    ("verbal", "5 + 3 is 2 less than 10.", "unknown"),
    ("verbal", "Then 4 x 3 is 2 times 6.", "verified"),
    ("verbal", "Then 4 x 3 is 2 times as many as 6.", "unknown"),
    ("verbal", "the answer is 5", "unknown"),
    ("verbal", "Day 3 is 12 miles.", "unknown"),
    ("verbal", "1/4 is 15 minutes, so the rest is 45 minutes.", "unknown"),
    ("verbal", "Dividing 60 by 8, we get 7 with a remainder of 4.", "unknown"),
    ("verbal", "Dividing 100 by 3 gives 33.33.", "verified"),
    ("verbal", "the reciprocal of $\\frac56$, which is $\\frac65$.", "unknown"),
    ("verbal", "$x + 3$ is 5, so $x = 2$.", "unknown"),
    ("verbal", "If 3 + 4 is 8, something is off.", "unknown"),
    ("verbal", "$\\frac{10}{49} \\cdot 7$, which is about 1.", "unknown"),
    ("verbal", "The absolute value of -35 is 35.", "verified"),
    ("verbal", "the absolute value of $-3$ is 3 more than 0", "unknown"),
    ("arithmetic", "$|3-5| = |2|$ and $2|{-3}| = 6$", "verified"),
    (
        "arithmetic",
        r"$\left| \frac{\sqrt{7}}{2} - \left( -\frac{\sqrt{7}}{2} \right) \right| = \sqrt{7}$",
        "verified",
    ),
    ("arithmetic", "Since $3 | 12$, we are done.", "unknown"),
    ("arithmetic", "$|a|b|c| = 5$", "unknown"),
    ("arithmetic", "$\\|v\\| = 5$", "unknown"),
    ("arithmetic", "$|x - 3| = 2$", "unknown"),
    ("unit_conversion", "So 2 hours = 120 minutes.", "verified"),
    ("unit_conversion", "60 miles/hour = 88 feet/second", "verified"),
    ("unit_conversion", "25 minutes = 0.42 hours", "verified"),
    ("unit_conversion", "$2 = 200 cents", "verified"),
    ("unit_conversion", "12 inches = 1 foot", "verified"),
    ("unit_conversion", "On the map, 1 inch = 50 miles.", "unknown"),
    ("unit_conversion", "He works 8 hours a day, so 1 day = 8 hours.", "unknown"),
    ("unit_conversion", "1 kg = 2.2 pounds", "unknown"),
    ("unit_conversion", "40 inches is about 3 feet", "unknown"),
    ("unit_conversion", "120 pennies / 3 nickels per penny = 40 nickels", "unknown"),
    ("unit_conversion", "1 hour = 60 miles", "unknown"),
    ("primality", "1 is not prime, and 2 is prime.", "verified"),
    ("primality", "15 is composite.", "verified"),
    ("primality", "If 91 is prime, then it has two divisors.", "unknown"),
    ("primality", "Is 91 prime? No.", "unknown"),
    ("primality", "Then 2 + 91 is prime.", "unknown"),
    ("primality", "7 is a prime factor of 21 and 3 is prime to 7.", "unknown"),
    ("primality", "Since 2^{31} - 1 is prime, we are done.", "unknown"),
    ("divisibility", "91 is divisible by 7, and 21 is a multiple of 7.", "verified"),
    ("divisibility", "Then 91 is divisible by 7 and 13.", "unknown"),
    ("divisibility", "Half of 12 is odd? No: 12 is even.", "verified"),
    ("divisibility", "Suppose 7 divides 92; then 92 = 7k.", "unknown"),
    ("divisibility", "The count 3.5 is odd.", "unknown"),
    ("factorization", "The prime factorization of 72 is $2^3 \\cdot 3^2$.", "verified"),
    ("factorization", "The prime factorization of 3328 is: $3328 = 2^8 \\times 13$.", "verified"),
    ("factorization", "So $72 = 8 \\cdot 9$, and 8 and 9 are coprime.", "verified"),
    ("factorization", "The prime factorization of 86400 starts with 2 * 2.", "unknown"),
    ("divisors", "The divisors of 12 are 1, 2, 3, 4, 6, and 12.", "verified"),
    ("divisors", "The proper divisors of 284 are 1, 2, 4, 71, and 142.", "verified"),
    ("divisors", "The prime factors of 12 are 2, 2, and 3.", "verified"),
    ("divisors", "The factors of 12 are 3 and 4.", "unknown"),
    ("divisors", "Two of the divisors of 12 are 3 and 4.", "unknown"),
    ("divisors", "The divisors of 12 greater than 2 are 3, 4, 6 and 12.", "unknown"),
    ("divisors", "The divisors of 100 are 1, 2, 4, 5, ..., 100.", "unknown"),
    ("divisors", "The divisors of 12 are 1, 2, 3, and so on.", "unknown"),
    ("simplification", "$\\frac{6}{8} = \\frac{3}{4}$, which is in lowest terms.", "verified"),
    ("simplification", "Is 6/8 in lowest terms? No, 6/8 = 3/4.", "verified"),
    ("base_conversion", "$1556_7 = 1\\cdot 7^3 + 5 \\cdot 7^2 + 5\\cdot 7 + 6 = 629$", "verified"),
    ("base_conversion", "$101_2 = 5$ and $3.5_{10} = 3.5$", "verified"),
    ("base_conversion", "$15_5 = 1 \\cdot 5 + 5$ has a digit too large.", "unknown"),
    ("base_conversion", "$x_2 = 5 + 1$ and $2_{x} = 4$", "unknown"),
    ("base_conversion", "$A3_{16} = 163$", "unknown"),
    ("inequality", "$2^{10} = 1024 > 1000$", "verified"),
    ("inequality", "The discriminant is $(-1)^2 - 4(1)(-1) = 5 > 0$.", "verified"),
    ("inequality", "Since $49 < 50 < 64$, the root is between 7 and 8.", "verified"),
    ("inequality", "$3.14 < \\pi$ and $\\sqrt{2} > 1.41$ and 5 <= 5", "verified"),
    ("inequality", "$3.1416 < \\pi$ to four places", "unknown"),
    ("inequality", "We need $n > 5$ and $1 \\le k \\le 9$.", "unknown"),
    ("inequality", "Check if 8 + 8 > 17.", "unknown"),
    ("inequality", "So x => 5 and 3 -> 2.", "unknown"),
    ("inequality", "Then 5 cm > 3 m, by length.", "unknown"),
    ("substitution", "That gives us 8x=60, so x=7.5.", "verified"),
    ("substitution", "$x^2 - 5x + 6 = 0$ gives $x = 2$ or $x = 3$.", "verified"),
    (
        "substitution",
        "Case 1: $x - 1 = 0$, so $x = 1$. Case 2: $x + 2 = 0$, so $x = -2$.",
        "verified",
    ),
    (
        "substitution",
        "$\\frac{x}{4} = 1$, so $x = 4$, and $2x = 4 \\Rightarrow x = 2$.",
        "verified",
    ),
    ("substitution", "$3x = 10$, so $x = 3.33$", "unknown"),
    ("substitution", "$3x = 10$, so $x = 3$ people", "unknown"),
    ("substitution", "$x^2 = 2$, so $x = 1.41$.", "unknown"),
    ("substitution", "$\\sqrt{x} = 3.2$, so $x = 10$.", "unknown"),
    ("substitution", "$\\sqrt{x + 2} = x$, so $x = -1$, which is extraneous.", "unknown"),
    ("substitution", "If $2x + 3 = 9$, then $x = 5$.", "unknown"),
    ("substitution", "$x + y = 5$, so $x = 2$.", "unknown"),
    ("substitution", "For $x = 3$: $2x = 6$; for $x = 4$: $2x = 8$.", "unknown"),
    ("substitution", "Suppose $2x = 5$; so $x = 3$ would be wrong.", "unknown"),
    (
        "count",
        "The multiples of 3 are 3, 6, 9, 12, ..., 99. There are 33 such numbers.",
        "verified",
    ),
    ("count", "The divisors are 1, 2, 4, 71, and 142. There are 5 of them.", "verified"),
    ("count", "The numbers are 1, 2, 3. There are 6 ways to arrange them.", "unknown"),
    ("count", "The primes are 2, 3, 5, 7, 11, 13, ..., 97. There are 25 such primes.", "unknown"),
    ("count", "The even numbers are 2, 4, ..., 100. There are 50 such numbers.", "unknown"),
    ("count", "The numbers are 1, 2, 2, 3. There are 4 numbers.", "unknown"),
    ("count", "For example: 1, 2, 3. There are 10 such numbers in all.", "unknown"),
    ("count", "Some of them are 1, 2, 4. There are 7 such numbers.", "unknown"),
    ("percentage", "80 increased by 25% is 100, and 20% of 50 is 10.", "verified"),
    ("percentage", "The price of $80 increased by 25% to $100.", "verified"),
    ("percentage", "From 3 to 4 is a 33.3% increase.", "verified"),
    ("percentage", "From 3 to 4 is a 33% increase.", "unknown"),
    ("percentage", "From 20% to 25% is a 5% increase.", "unknown"),
    ("percentage", "80 increased by 10% each year for 2 years is 96.8.", "unknown"),
    ("ratio", "The ratio of boys to girls is 12:18 = 2:3, and 6:4 simplifies to 3:2.", "verified"),
    ("ratio", "$1.5:2 = 3:4$ and 2:3 is in simplest form", "verified"),
    ("ratio", "The train leaves at 3:30 = 3:30 pm, not 3:15.", "unknown"),
    ("ratio", "At 3:05 = 3:50 the bell rings.", "unknown"),
    (
        "rewriting",
        "Divide by 100: $4(x - 3)^2 + 25(y - 5)^2 - 100 = 0$ becomes "
        "$\\frac{4(x - 3)^2}{100} + \\frac{25(y - 5)^2}{100} = 1$.",
        "verified",
    ),
    ("rewriting", "$x^2 - 5x + 6$ factors as $(x - 2)(x - 3)$.", "verified"),
    ("rewriting", "$2x = 4$ becomes $x = 2$", "verified"),
    ("rewriting", "Dividing by x, $x^2 = 3x$ becomes $x = 3$.", "unknown"),
    # clearing a denominator keeps the numerator: the same equation (equation_numerators.py)
    ("rewriting", "Multiplying by x, $x + 1/x = 2$ becomes $x^2 + 1 = 2x$.", "verified"),
    ("rewriting", "Substituting $u = x^2$, $x^2 + y$ becomes $u + y$.", "unknown"),
    ("rewriting", "$\\sqrt{x^2}$ simplifies to $x$ for positive x.", "unknown"),
    ("rewriting", "If $2x + 3x$ simplifies to $6x$, we are wrong.", "unknown"),
    (
        "rewriting",
        "Evaluating the expression $x^2 + 1$ at 2, the expression becomes $5$.",
        "unknown",
    ),
]


# (step before, step): the equation a root claim names is in the step before
# (ProcessBench olympiadbench-173, steps 7 and 8)
CUBIC = r"Rearranging the terms, we have: \(x^3 - 4x^2 + 3 = 0\)."


def test_root_claims_read_the_equation_of_the_step_before():
    refuted = [
        r"By inspection, we can see that \(x=3\) is a root of the equation.",
        r"So $(x + 1)$ is a factor of the polynomial.",
    ]
    for text in refuted:
        verdict = check_step(text, previous_steps=[CUBIC])
        assert verdict.verdict == "refuted", [c.as_dict() for c in verdict.claims]
        assert {c.kind for c in verdict.failed} == {"substitution"}
    for text in (
        r"By inspection, \(x=1\) is a root of the equation.",
        r"So $(x - 1)$ is a factor of the polynomial.",
    ):
        assert check_step(text, previous_steps=[CUBIC]).verdict == "verified"
    hedged = r"We check whether $x = 3$ is a root of the equation."
    assert check_step(hedged, previous_steps=[CUBIC]).verdict == "unknown"
    # only "P(x) = 0" in the step before is surely the equation named
    other = r"We have $2x + 1 = 7$."
    assert check_step(r"So $x = 5$ is a root of the equation.", previous_steps=[other]).verdict == (
        "unknown"
    )
    assert check_step(r"So $x = 5$ is a root of the equation.").verdict == "unknown"


@pytest.mark.parametrize(("kind", "text"), REFUTED)
def test_refutes(kind, text):
    verdict = check_step(text)
    assert verdict.verdict == "refuted", [c.as_dict() for c in verdict.claims]
    assert kind in {c.kind for c in verdict.failed}, [c.as_dict() for c in verdict.failed]


@pytest.mark.parametrize(("kind", "text", "expected"), NOT_REFUTED)
def test_does_not_refute(kind, text, expected):
    verdict = check_step(text)
    assert verdict.verdict == expected, [c.as_dict() for c in verdict.claims]


def test_every_kind_has_both_lists():
    kinds = {k for k, _ in REFUTED}
    assert kinds == {k for k, _, _ in NOT_REFUTED}


@pytest.mark.parametrize(
    "text",
    [
        " ".join(f"{i} is prime." for i in range(2000)),
        "The values are " + ", ".join(str(i) for i in range(3000)) + ". There are 5 such numbers.",
        "are 1, 2, 4, 5, 7, 8, ..., 99999998. There are 3 such numbers.",
        ":".join("1" for _ in range(3000)) + " = " + ":".join("2" for _ in range(3000)),
        " ".join(f"$x_{{{i}}}$ is" for i in range(3000)),
        "$x^{40} + 1$ becomes $(x+1)^{40}$, and $x^8 - 3x + 1 = 0$, so $x = 123456789$.",
        "$"
        + " \\equiv ".join(f"{9**9}^{{{10**6}}}" for _ in range(500))
        + " \\pmod{1000003}$"
        + " and $"
        + " \\equiv ".join(f"{9**9}^{{{10**6}}}" for _ in range(9))
        + " \\pmod{1000003}$ and "
        + "1 " * 20000
        + "\\equiv 3",
    ],
    ids=[
        "many-primes",
        "long-list",
        "long-cycle",
        "long-ratio",
        "many-segments",
        "big-powers",
        "long-congruence",
    ],
)
def test_long_inputs_stay_within_the_time_limit(text):
    start = time.monotonic()
    verdict = check_step(text, timeout_s=2.0)
    assert time.monotonic() - start < 4.0
    assert verdict.verdict in ("verified", "refuted", "unknown")
