# ruff: noqa: E501 -- copies of real step texts, one literal per text
"""Issue 25 (precision hunt): "x × 100 = y%" rounded to one decimal or a whole number.

A bare % is read two ways (compare.py rule 4): divided by 100, or as a plain number ("0.2 ×
100 = 20%"). The rounding rules of a side that is one percentage compared the number written
with the other side × 100 under both readings, so where the other side was already in
percent ("(2/3) × 100 = 66.7%") the plain reading compared 66.7 with 6666.6... and the claim
was refuted. GSM8K-style solutions write the share this way (develop part of
shared/data/processbench_dev.jsonl: "(2/3) * 100 = 66.67%", two decimals, was read; one
decimal or a whole percent was not).
"""

import pytest

from autolabel.symbolic import check_step

# develop, a GSM8K row's step as written; then the same with the share rounded otherwise
HOLDS = [
    "Now, let's simplify the expression: (4x / 6x) * 100 = (4/6) * 100 = (2/3) * 100 = 66.67%. So, each adult gets approximately 66.67% of the watermelon.",
    "Now, let's simplify the expression: (4/6) * 100 = (2/3) * 100 = 66.7%. So, each adult gets 66.7% of the watermelon.",
    "So $\\frac{1}{3} \\times 100 = 33.3\\%$, a third.",
    "The share is 20/60 × 100 = 33.3%.",
    "The increase is $\\frac{5}{6} \\times 100 = 83.3\\%$.",
]
# a share rounded wrongly, or off by a factor of ten: still refuted
FAILS = [
    "Now, let's simplify the expression: (4/6) * 100 = (2/3) * 100 = 66.8%. So, each adult gets 66.8% of the watermelon.",
    "So $\\frac{1}{3} \\times 100 = 3.3\\%$, a third.",
    "The share is 20/60 × 100 = 33.4%.",
    "The increase is $\\frac{5}{6} \\times 100 = 8.3\\%$.",
]


@pytest.mark.parametrize("text", HOLDS)
def test_a_share_times_100_rounded_in_percent_is_not_refuted(text):
    verdict = check_step(text)
    assert verdict.verdict != "refuted", [c.as_dict() for c in verdict.failed]


@pytest.mark.parametrize("text", FAILS)
def test_a_share_times_100_rounded_wrongly_is_refuted(text):
    verdict = check_step(text)
    assert verdict.failed, [c.as_dict() for c in verdict.claims]
    assert {c.kind for c in verdict.failed} == {"percentage"}
