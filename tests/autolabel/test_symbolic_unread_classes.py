"""Issue 25, round 11 (symbolic-1.14): classes of true statements found without the measure part.

Probing hand-written true statements (about 470, of the shapes the claims that failed on the
measure part take: arithmetic, chain, substitution) found these, each refuted by symbolic-1.13:

- π(n) with a whole number in parentheses may be the prime-counting function where nothing in
  the step names primes ("\\pi(10) = 4"): a second reading, taken only where the product fails;
- a whole number written equal to a bare percentage is a count and its share of a whole not
  written ("Out of 20, 5 = 25%"), not the number 0.25;
- "\\sin \\pi/6" is sin(pi/6) as it is meant, besides TeX's (sin pi)/6;
- a percent sign after a mixed number is the mixed number's ("33\\frac{1}{3}\\%");
- chains: a running total whose next side starts with the value rounded as written
  ("100 / 3 = 33.33 \\times 3 = 100"), pi written as 22/7 on the other side ("\\pi \\times 49 =
  \\frac{22}{7} \\times 49 = 154"), a number word after a number ("5000 = 5 \\text{ thousand}");
- a mean typed without its parentheses, as many terms as the divisor ("80 + 90 + 100 / 3 =
  90": a second reading), and a list before a chain ("The mean of 2, 4, 6 = 12/3 = 4" is no
  claim that 6 = 4);
- a claim quoted from earlier work to correct it ("the earlier 3 * 4 = 13 is a typo"), or
  from the problem with another product sign (the problem's "2 \\cdot 5 = 11", the step's
  "2 \\times 5 = 11");
- substitution: an equation rejected before the value ("x - 5 = 0, a contradiction, so x = 4")
  or holding under a hypothesis on the same letter ("If x = 5, then x - 5 = 0, so x = 4"), or
  another equation named between ("let me reconsider: the correct equation gives x = 4"); and
  the equation is read as the other claims are, failing only under each of its readings
  ("x + 20% = 60, so x = 50": x increased by 20%).

The false twins of each stay refuted, with the same kind.
"""

import pytest

from autolabel.symbolic import check_step, check_step_local
from autolabel.symbolic.verdicts import REFUTED
from tests.autolabel.develop_rows import failed_kinds

TRUE = [
    r"There are $\pi(10) = 4$ of them.",
    r"$\pi(100) = 25$",
    r"$\pi(20) - \pi(10) = 4$",
    "Out of 20, 5 = 25%",
    r"$\sin \pi/6 = 1/2$",
    r"$33\frac{1}{3}\% = 1/3$",
    r"Correction: the earlier $3 \times 4 = 13$ is a typo for 12.",
    r"Let me recompute: earlier I had $5 + 7 = 13$, but $5 + 7 = 12$.",
    r"If $x = 5$ then $x - 5 = 0$, a contradiction, so $x = 4$.",
    r"We try $x - 5 = 0$, but that is impossible here, so $x = 4$.",
    r"$x^2 - 5x + 6 = 0$. Hmm, let me reconsider: the correct equation gives $x = 4$.",
    r"$x + 20\% = 60$, so $x = 50$.",
    r"$100 / 3 = 33.33 \times 3 = 100$",
    r"$\pi \times 49 = \frac{22}{7} \times 49 = 154$",
    r"$5 \times 10^3 = 5000 = 5 \text{ thousand}$",
    "The average is 80 + 90 + 100 / 3 = 90.",
    "The mean of 2, 4, 6 = 12/3 = 4",
]

# (text, the kind that refutes it)
FALSE = [
    (r"$\pi(10) = 5$", "arithmetic"),  # neither 10 pi nor the 4 primes up to 10
    (r"$\pi(20) - \pi(10) = 5$", "arithmetic"),
    (r"$0.75 = 70\%$", "percentage"),  # a decimal is no count
    (r"$2.5 = 25\%$", "percentage"),
    (r"$\sin \pi/6 = 1/3$", "arithmetic"),
    (r"$33\frac{1}{3}\% = 1/4$", "percentage"),
    (r"As computed earlier, $3 \times 4 = 13$.", "arithmetic"),
    (r"We have $2x + 3 = 7$, so $x = 5$.", "substitution"),
    (r"If $k = 6$, then $6 + (n-1) \cdot 36 = 306$ gives $n = 9$.", "substitution"),
    (r"$x + 20\% = 60$, so $x = 40$.", "substitution"),  # neither 40.2 nor 48
    (r"$100 / 3 = 33.33 \times 3 = 101$", "chain"),
    (r"$100/3 = 33.4 \times 3 = 100$", "chain"),  # 33.4 is no rounding of 33.33...
    (r"$\pi \times 49 = \frac{22}{7} \times 50 = 154$", "chain"),
    (r"$5 \times 10^3 = 5001$", "arithmetic"),
    ("The average is 80 + 90 + 100 / 3 = 91.", "arithmetic"),
    ("The mean of 2, 4, 6 = 12/3 = 5", "arithmetic"),
    ("We have 3, 4, and 3 + 4 = 8.", "arithmetic"),
]

# True statements symbolic-1.13 already read rightly, kept so: the new readings come second.
STILL_VERIFIED = [
    r"$\pi(3)^2 = 9\pi$",
    r"$\pi(10) = 31.4$",
    r"$5/20 = 25\%$",
    r"$\sin 30^\circ/2 = 1/4$",
]


@pytest.mark.parametrize("text", TRUE)
def test_true_statements_are_not_refuted(text):
    verdict = check_step(text, timeout_s=5.0)
    assert verdict.verdict != REFUTED, [c.as_dict() for c in verdict.failed]


@pytest.mark.parametrize(("text", "kind"), FALSE)
def test_false_twins_stay_refuted(text, kind):
    assert failed_kinds(text) == {kind}


STRANGE = r"Suppose that $2 \cdot 5 = 11$ holds in some strange arithmetic. Find $3 \cdot 4$."


@pytest.mark.parametrize("text", [r"We are told $2 \times 5 = 11$.", "We know 2 × 5 = 11 here."])
def test_the_problems_statement_with_another_product_sign_is_a_quotation(text):
    assert check_step_local(text, (), STRANGE).verdict != REFUTED
    assert check_step_local(r"So $2 \times 6 = 11$.", (), STRANGE).verdict == REFUTED


@pytest.mark.parametrize("text", STILL_VERIFIED)
def test_the_usual_reading_still_decides_first(text):
    assert check_step(text, timeout_s=5.0).verdict == "verified"
