# ruff: noqa: E501 -- exact copies of real step texts, one literal per text
"""Finite sums and products with bounds in numbers (symbolic-1.7, autolabel/symbolic/sums.py):
each term evaluated exactly with the index replaced by its number, so a claim with a sum is
decided like any claim in numbers (kind arithmetic or chain). Not read: bounds or summands
with other letters, a term after the summand that may belong to it, an angle whose unit is
only implied.

Texts with a ProcessBench id are exact copies of steps from the develop part of
shared/data/processbench_dev.jsonl (test_rows_are_develop checks the part): the false ones
are first errors, the true ones correct steps.
"""

import pytest

from autolabel.symbolic import check_step
from autolabel.symbolic.verdicts import VERIFIED
from tests.autolabel.develop_rows import assert_develop, failed_kinds

# a first error: the 44 angles miss 0 degrees, so the sum is -1
OLYMPIADBENCH_303_5 = r"Next, we need to evaluate the sum of cosines. The angles \(8^\circ, 16^\circ, 24^\circ, \ldots, 352^\circ\) are evenly spaced around the unit circle, forming a complete set of 44th roots of unity (excluding 0 and 360 degrees). The sum of the real parts of these roots of unity is zero. Therefore: \[ \sum_{k=1}^{44} \cos (8k^\circ) = 0. \]"
# correct steps
OLYMPIADBENCH_764_3 = r"For the second sum, we need to evaluate \(\sum_{k=1}^{44} \cos (8k^\circ)\). The terms \(\cos 8^\circ, \cos 16^\circ, \cos 24^\circ, \ldots, \cos 352^\circ\) are the real parts of the 45th roots of unity (excluding 1), because \(e^{i \cdot 8k^\circ}\) for \(k=1, 2, \ldots, 44\) are the non-1 roots of the equation \(z^{45} = 1\). The sum of all 45th roots of unity is zero, so the sum of the non-1 roots is \(-1\). Therefore, the sum of the cosines is: \[ \sum_{k=1}^{44} \cos (8k^\circ) = -1. \]"
OLYMPIADBENCH_303_3 = r"The first sum is simply the sum of 44 ones: \[ \sum_{k=1}^{44} 1 = 44. \]"
OLYMPIADBENCH_566_4 = "Fifth, find the sum inside the parentheses. The sum of the squares of the first \\(n\\) natural numbers is given by:\n\\[ \\sum_{k=1}^n k^2 = \\frac{n(n+1)(2n+1)}{6} \\]\nHere, \\(n = 49\\):\n\\[ \\sum_{k=1}^{49} k^2 = \\frac{49 \\cdot 50 \\cdot 99}{6} \\]"
OLYMPIADBENCH_337_9 = "The sum of \\(\\cos 2x\\) over a complete period is zero. Since \\(2x\\) ranges from \\(2^\\circ\\) to \\(178^\\circ\\), which is half a period of \\(360^\\circ\\), the sum is zero:\n\\[\n\\sum_{x=1}^{89} \\cos 2x = 0.\n\\]"
MATH_456_9 = "From the polynomial \\(x^4 - 4x^3 + 8x^2 - 8x - 5 = 0\\):\n- The sum of the roots \\(\\sum_{i=1}^4 x_i = 4\\)\n- The sum of the squares of the roots \\(\\sum_{i=1}^4 x_i^2\\) can be found using:\n\\[ \\sum_{i=1}^4 x_i^2 = (\\sum_{i=1}^4 x_i)^2 - 2 \\sum_{1 \\leq i < j \\leq 4} x_i x_j \\]"

# (ProcessBench id or "", text, the kinds of the failed claims)
REFUTED_CASES = [
    ("olympiadbench-303", OLYMPIADBENCH_303_5, {"arithmetic"}),
    ("", r"\[ \sum_{k=1}^{10} k = 50 \]", {"arithmetic"}),
    ("", r"\[ \sum_{k=1}^{49} k^2 = \frac{49 \cdot 50 \cdot 99}{6} = 40400 \]", {"chain"}),
    ("", r"\[ \prod_{k=1}^{5} k = 100 \]", {"arithmetic"}),
    ("", r"\( \sum_{n=0}^{3} 2^n = 16 \)", {"arithmetic"}),
    ("", r"\[ \sum_{k=1}^{44} 1 - \sum_{k=1}^{44} \cos (8k^\circ) = 44 \]", {"arithmetic"}),
    ("", r"\[ \sum^{4}_{j=1} \frac{1}{j} = \frac{24}{25} \]", {"arithmetic"}),
]

NOT_REFUTED = [
    ("olympiadbench-764", OLYMPIADBENCH_764_3),
    ("olympiadbench-303", OLYMPIADBENCH_303_3),
    ("olympiadbench-566", OLYMPIADBENCH_566_4),
    # degrees only implied ("\cos 2x" with x in degrees): not read
    ("olympiadbench-337", OLYMPIADBENCH_337_9),
    # sums of letters other than the index, and an inner sum over pairs: not read
    ("math-456", MATH_456_9),
    # the same values written other ways, and rounded decimals
    ("", r"\[ \sum_{k=1}^{44} 1 - \sum_{k=1}^{44} \cos (8k^\circ) = 45 \]"),
    (
        "",
        r"\[ \frac{1}{2}\left(\sum_{k=1}^{44} 1 - \sum_{k=1}^{44} \cos (8k^\circ)\right) = 22.5 \]",
    ),
    ("", r"\[ \sum_{k=1}^{40} \frac{1}{k^2} \approx 1.6 \]"),
    ("", r"\[ \sum_{k=1}^{3} \frac{1}{k} = 1.83 \]"),
    ("", r"\[ 2 + \sum_{i=1}^{10} i = 57 \]"),
    ("", r"\[ \prod_{k=1}^{6} \cos \frac{k\pi}{7} = -\frac{1}{64} \]"),
    # a term after the summand that may be inside the sum: not read (sum of i + 1 is 65)
    ("", r"\[ \sum_{i=1}^{10} i + 1 = 65 \]"),
    ("", r"\[ \sum_{i=1}^{10} i + i^2 = 440 \]"),
    # bounds or summands in letters, a function, an empty range: not read
    ("", r"\[ \sum_{k=1}^{n} k = \frac{n(n+1)}{2} \]"),
    ("", r"\[ \sum_{k=1}^{20} f(k) = 30 \]"),
    ("", r"\[ \sum_{k=1}^{3} a k = 5 \]"),
    ("", r"\[ \sum_{k=5}^{4} k = 7 \]"),
    ("", r"\[ \sum_{k=1}^{\infty} \frac{1}{2^k} = 1 \]"),
]


@pytest.mark.parametrize(("row", "text", "kinds"), REFUTED_CASES)
def test_false_sum_is_refuted(row, text, kinds):
    assert failed_kinds(text) == kinds


@pytest.mark.parametrize(("row", "text"), NOT_REFUTED)
def test_true_or_unread_sum_is_not_refuted(row, text):
    assert failed_kinds(text) is None


def test_sum_values_are_exact():
    verdict = check_step(r"\[ \sum_{k=1}^{44} \cos (8k^\circ) = -1 \]", timeout_s=5.0)
    assert verdict.verdict == VERIFIED
    verdict = check_step(r"\[ \sum_{k=1}^{10} k^3 = 3025 \]", timeout_s=5.0)
    assert verdict.verdict == VERIFIED
    assert verdict.claims[0].lhs_value == "3025"


def test_rows_are_develop():
    assert_develop({row for row, *_ in REFUTED_CASES + NOT_REFUTED if row})
