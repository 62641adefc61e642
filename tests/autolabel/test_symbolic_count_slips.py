# ruff: noqa: E501 -- exact copies of real step texts, one literal per text
"""Issue 25, round 9 (symbolic-1.12): a chain that starts with a count the parser does not read.

"there are C(9, 7) = (9·8·7·6·5·4)/(7·6·5·4·3·2·1) = 36 ways": the written quotient is false
(12), but the count C(9, 7) = 36 and the result agree, so the step's result stands and the
false link is a slip (evidence), as "5!/2! = (5·4·3)/(2·1) = 60" already was. symbolic-1.11
gave these links kind arithmetic, an earned kind: a −1 on two steps ProcessBench labels
correct (math-106 steps 10 and 11, adjudicated as false computations; a raw false −1 each).
C(n, k), P(n, k), 9C7, _9C_7 and C_9^7 are read only as a chain's first end, never as a claim
of their own (a point may be named C: "C(16, 2) = 16" stays unread). The same chains with
the wrong value carried to the end stay refuted as arithmetic or chain.
"""

import pytest

from autolabel.symbolic import check_step
from autolabel.symbolic.verdicts import REFUTED
from tests.autolabel.develop_rows import assert_develop, failed_kinds

MATH_106_10 = "For 7 members-at-large: We need to choose 7 out of the 9 remaining candidates, so there are C(9, 7) = (9 * 8 * 7 * 6 * 5 * 4) / (7 * 6 * 5 * 4 * 3 * 2 * 1) = 36 ways."
MATH_106_11 = "For 8 members-at-large: We need to choose 8 out of the 9 remaining candidates, so there are C(9, 8) = (9 * 8 * 7 * 6 * 5 * 4) / (8 * 7 * 6 * 5 * 4 * 3 * 2 * 1) = 9 ways."

# (ProcessBench id or "", text): the failed links are slips
SLIPS = [
    ("math-106", MATH_106_10),
    ("math-106", MATH_106_11),
    ("", "So there are C(9, 7) = (9 * 8) / (3 * 1) = 36 ways."),
    ("", r"$C(9, 7) = \frac{9 \times 8}{3 \times 1} = 36$"),
    ("", r"The count is $_9C_7 = \frac{9 \times 8}{3} = 36$."),
    ("", r"There are $^{9}C_{7} = \frac{9 \times 8}{3} = 36$ committees."),
    ("", "9C7 = (9 * 8) / 3 = 36"),
    ("", r"$C_9^7 = \frac{9 \cdot 8}{3} = 36$"),
    ("", r"$P(5,3) = 5 \times 4 = 60$ orders."),
    ("", r"So \(P(6, 2) = \frac{6!}{4!} = 6 \times 4 = 30\)."),
]

# The same shapes, the wrong value carried to the end: still refuted as computed.
CARRIED = [
    ("", "So there are C(9, 7) = (9 * 8) / (2 * 1) = 35 ways.", {"arithmetic"}),
    ("", r"$C(9, 7) = \frac{9 \times 8}{3 \times 1} = 36 = 35 + 2$", {"chain"}),
    ("", r"So \(P(6, 2) = \frac{6!}{4!} = 6 \times 4 = 24\).", {"chain"}),
    ("", r"$P(5,3) = 5 \times 4 \times 3 = 50$", {"chain"}),
]


@pytest.mark.parametrize(("row", "text"), SLIPS)
def test_a_false_link_between_a_count_and_its_value_is_a_slip(row, text):
    assert failed_kinds(text) == {"slip"}


@pytest.mark.parametrize(("row", "text", "kinds_"), CARRIED)
def test_a_wrong_value_carried_to_the_end_is_refuted(row, text, kinds_):
    assert failed_kinds(text) == kinds_


@pytest.mark.parametrize(
    "text",
    [
        # the counts are read as a first end only, never as claims of their own
        r"The point is $C(16, 2)$, so $C(16, 2) = 16$ is its first coordinate.",
        r"Setting $z = 1$ and $t = 0$ gives $P(1, 0) = 0$.",
        "There are C(9, 7) = 35 ways.",
        # a C(n, k) with k > n is no count
        r"$C(2, 7) = \frac{2}{1} = 2$",
    ],
)
def test_counts_are_not_claims(text):
    verdict = check_step(text, timeout_s=5.0)
    assert verdict.verdict != REFUTED, [c.as_dict() for c in verdict.failed]


def test_rows_are_develop():
    assert_develop({row for row, _ in SLIPS if row})
