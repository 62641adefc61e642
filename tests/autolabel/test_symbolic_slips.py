# ruff: noqa: E501 -- exact copies of real step texts, one literal per text
"""Issue 25, round 4 (symbolic-1.6): slips, the pooled "solutions" family, and tricky true
statements that must not be refuted.

A slip is a false link whose wrong value never leaves the step: a chain of three or more
sides whose two ends are equal ("5!/2! = (5·4·3)/(2·1) = 60"), or a failed link from a to b
followed by a failed link from b back to a across displays. Its failed claims are kind
``slip``: evidence on the step, a −1 only if that kind earns one. On the develop part of
shared/data/processbench_dev.jsonl ProcessBench labels 2 of the 3 judged slips correct
(olympiadbench-529 step 0, math-164 step 4: both adjudicated as false computations) and 1 the
first error (math-132 step 1, an identity misused: tan(180° − x) = cot x); a false link whose
wrong value is carried on is still kind arithmetic/chain.

Texts with a ProcessBench id are exact copies of develop-part steps (test_rows_are_develop).
"""

import pytest

from autolabel.calibration import kinds
from autolabel.quality.refutations import FailedStep, SolutionRun, measured_gate
from autolabel.symbolic import CHECKER_VERSION, check_step
from autolabel.symbolic.verdicts import REFUTED
from tests.autolabel.develop_rows import assert_develop, failed_kinds

OLYMPIADBENCH_529_0 = "To solve this problem, let's break it down into steps: First, we need to calculate the total number of ways the medals can be distributed among the five finalists. Since there are three medals (gold, silver, bronze) and five finalists, we use permutations for this calculation. The formula for permutations when selecting \\(r\\) items from \\(n\\) items is given by: \\[ P(n, r) = \\frac{n!}{(n-r)!} \\] For our scenario, we're choosing 3 winners out of 5 finalists, so: \\[ P(5, 3) = \\frac{5!}{(5-3)!} = \\frac{5!}{2!} = \\frac{5 \\times 4 \\times 3}{2 \\times 1} = 60 \\] So, there are 60 possible outcomes for who wins the medals."
MATH_164_4 = "**Step 3:** Calculate the total ways to choose any 4 students from 28.\n\\[ \\binom{28}{4} = \\frac{28!}{4!(28-4)!} = \\frac{28 \\times 27 \\times 26 \\times 25}{4 \\times 3 \\times 2 \\times 1} = \\frac{28 \\times 27 \\times 13 \\times 25}{4} \\]\n\\[ = 28 \\times 27 \\times 13 \\times 25 / 4 = 7 \\times 27 \\times 13 \\times 25 = 21 \\times 39 \\times 25 = 819 \\times 25 = 20475 \\]"
MATH_132_1 = "We know that $\\tan 45^\\circ=1$, so it remains to find $\\tan 105^\\circ$. We can do this by using the fact that $\\tan(180^\\circ-x)=\\cot x$. Since $105^\\circ=180^\\circ-75^\\circ$, we have: $$\\tan 105^\\circ=\\cot 75^\\circ=-\\tan 75^\\circ.$$"

# (ProcessBench id or "", text, the kinds of the failed claims)
SLIPS = [
    ("olympiadbench-529", OLYMPIADBENCH_529_0, {"slip"}),
    ("math-164", MATH_164_4, {"slip"}),
    ("math-132", MATH_132_1, {"slip"}),
    ("", r"So $\frac{6!}{4!} = \frac{6 \times 5 \times 4}{2} = 30$ ways.", {"slip"}),
    ("", r"The total is $3 \times 4 + 2 = 3 \times 6 = 14$.", {"slip"}),
    # the ends of a chain whose first side has no value: from the first side with one
    ("", r"\[ P(5, 3) = \frac{5!}{2!} = \frac{5 \times 4}{2} = 60 \]", {"slip"}),
]

# The same shapes with the wrong value carried to the end: not slips.
CARRIED = [
    ("", r"\[ P(5, 3) = \frac{5!}{2!} = \frac{5 \times 4 \times 3}{2 \times 1} = 30 \]", {"chain"}),
    ("", r"So $\frac{6!}{4!} = \frac{6 \times 5 \times 4}{2} = 60$ ways.", {"chain"}),
    (
        "",
        "\\[ \\binom{28}{4} = \\frac{28 \\times 27 \\times 26 \\times 25}{24} = \\frac{28 \\times 27 \\times 13 \\times 25}{4} \\]\n\\[ = 7 \\times 27 \\times 13 \\times 25 = 61425 \\]",
        {"chain"},
    ),
    # a wrong value that comes back to another wrong value is no slip
    ("", r"$2 + 3 = 6$, and later $6 = 2 + 5$.", {"arithmetic"}),
]


@pytest.mark.parametrize(("row", "text", "kinds_"), SLIPS + CARRIED)
def test_slips_and_carried_errors_get_their_kind(row, text, kinds_):
    assert failed_kinds(text) == kinds_


def test_a_slip_says_why():
    verdict = check_step(r"So $\frac{6!}{4!} = \frac{6 \times 5 \times 4}{2} = 30$ ways.")
    assert all("a slip" in c.reason for c in verdict.failed)


# --- the "solutions" family: solving and substitution earn together --------------------


def _run(ref: str, failed: dict[int, tuple[str, ...]], truth: tuple) -> SolutionRun:
    return SolutionRun(
        ref, "develop", truth, tuple(FailedStep(i, -1, k, ()) for i, k in failed.items())
    )


def test_a_family_earns_on_its_pooled_cases_each_step_once():
    runs = [_run(f"s{n}", {0: ("solving",)}, (-1,)) for n in range(12)]
    runs += [_run(f"t{n}", {0: ("substitution",)}, (-1,)) for n in range(5)]
    runs += [_run("both", {0: ("solving", "substitution")}, (-1,))]
    gate = measured_gate(runs, {}, CHECKER_VERSION)
    cell = gate.kinds["substitution"]
    assert (cell["family_right"], cell["family_refutations"]) == (18, 18)  # "both" counted once
    assert cell["refutations"] == 6 and not kinds.earns(6, 6)
    assert gate.earned("substitution") and gate.earned("solving")


def test_a_family_member_below_95_percent_on_its_own_does_not_earn():
    runs = [_run(f"s{n}", {0: ("solving",)}, (-1,)) for n in range(40)]
    runs += [_run(f"t{n}", {0: ("substitution",)}, (-1,)) for n in range(3)]
    runs += [_run("w", {0: ("substitution",)}, (1,))]
    gate = measured_gate(runs, {}, CHECKER_VERSION)
    assert kinds.earns(43, 44)  # the family passes
    assert gate.earned("solving") and not gate.earned("substitution")  # 3 of 4 alone


def test_kinds_outside_a_family_earn_alone():
    runs = [_run(f"a{n}", {0: ("arithmetic",)}, (-1,)) for n in range(10)]
    runs += [_run(f"c{n}", {0: ("chain",)}, (-1,)) for n in range(10)]
    gate = measured_gate(runs, {}, CHECKER_VERSION)
    assert "family" not in gate.kinds["arithmetic"]
    assert not gate.earned("arithmetic") and not gate.earned("chain")


# --- tricky true statements: none is refuted --------------------------------------------

TRUE_STATEMENTS = [
    # case splits and the branch chosen
    r"Since $a^2 = 25$, $a = 5$ or $a = -5$. Since $a$ is positive, $a = 5$.",
    r"$x^2 - 5x + 6 = 0 \implies x = 2$ or $x = 3$.",
    r"So either $a - 5 = 0$ or $a + 5 = 0$, i.e. $a = 5$ or $a = -5$.",
    r"Case 1: $x = 1$, then $y = 2$. Case 2: $x = 2$, then $y = 1$.",
    r"When $x = 1$, $y = 3 \cdot 1 + 2 = 5$; when $x = 2$, $y = 3 \cdot 2 + 2 = 8$.",
    r"The roots are $x = \frac{5 + 1}{2} = 3$ and $x = \frac{5 - 1}{2} = 2$.",
    r"$x^2 = 16 \Rightarrow x = \pm 4$.",
    # hypotheses, goals, checks
    r"If $x = 3$, then $2x = 6$.",
    r"We want $2x + 3 = 11$.",
    r"Suppose the answer were $10$; then $10 \times 3 = 30$.",
    r"Checking: $3(4) + 2 = 14$ ✓",
    # variables reused with another meaning
    r"So $x = 5$. Now let $x$ be the width: $x = 3$.",
    r"Let $a = 3$. Then $a^2 = 9$. Now let $a = 4$: $a^2 = 16$.",
    # approximations and rounding to the precision written
    r"$\sqrt{50} = 5\sqrt{2} \approx 7.07$.",
    r"$100 \div 3 = 33.33$, $2/3 = 0.667$, $1/7 = 0.142857...$",
    r"$\frac{2}{3} \approx 0.667 = 66.7\%$",
    r"$\pi r^2 = 3.14 \times 25 = 78.5$",
    r"$1000(1 + 0.05)^3 = 1157.63$",
    r"$0.333 \times 3 = 0.999 \approx 1$",
    r"$\frac{1}{2} + \frac{1}{3} = \frac{5}{6} \approx 0.83$.",
    # percentages, decimals, units, money
    r"The probability is $\frac{3}{6} = \frac{1}{2} = 0.5 = 50\%$.",
    "A 25% discount on $80 is $80 × 0.25 = $20, so the price is $60.",
    "He saves 20% of $500 = $100.",
    "The price after a 10% discount is 90% of $50 = $45.",
    "The percent change is (60 - 50)/50 × 100% = 20%.",
    "He needs 3 × 2 = 6 cups of flour for 2 batches, that is 6 cups = 1.5 quarts.",
    "The total number of legs is 4 legs/dog × 3 dogs = 12 legs.",
    "Convert 2 hours 30 minutes to 2.5 hours: 2 + 30/60 = 2.5.",
    r"$1,200 + 300 = 1,500$ dollars.",
    r"$\$12.50 \times 3 = \$37.50$.",
    # prose around formulas, restated quantities, lists
    "The answer is 8 (since 5 + 3 = 8).",
    "Total = 5 + 3 + 2 = 10 (apples) + 4 (oranges) = 14 fruits",
    "- Monday: 5 + 3 = 8\n- Tuesday: 8 + 2 = 10",
    r"The sum $S = 1 + 2 + 4 + 8 = 15$, and $2S = 30$.",
    r"Then $a_1 = 3$, $a_2 = 3 \cdot 2 = 6$, $a_3 = 6 \cdot 2 = 12$.",
    r"The last two digits of $7^4 = 2401$ are 01.",
    r"$17 \div 5 = 3$ remainder $2$.",
    # mixed numbers, counting, number theory
    r"The total is $2 \frac{1}{2} + 1 \frac{3}{4} = 4 \frac{1}{4}$.",
    r"There are $4! = 24$ ways, and $\frac{4!}{2!} = 12$ distinct arrangements.",
    r"$6!/(2!2!) = 180$",
    r"$\gcd(12, 18) = 6$ and $\text{lcm}(4, 6) = 12$.",
    r"$23 = 4 \cdot 5 + 3$, so $23 \equiv 3 \pmod 5$.",
    # a function or point named C or P is not a count (C(16, 2) = 16 in a correct step)
    r"The point is $C(16, 2)$, so $C(16, 2) = 16$ is its first coordinate.",
]


@pytest.mark.parametrize("text", TRUE_STATEMENTS)
def test_tricky_true_statement_is_not_refuted(text):
    verdict = check_step(text, timeout_s=5.0)
    assert verdict.verdict != REFUTED, [c.as_dict() for c in verdict.failed]


def test_rows_are_develop():
    assert_develop({row for row, *_ in SLIPS + CARRIED if row})
