"""Issue 25, round 9 (symbolic-1.12): claims nobody asserts, found by probing true statements.

A claim attributed to someone else or written counterfactually is not the writer's result:
symbolic-1.11 refuted each statement in ATTRIBUTED (arithmetic, an earned kind). The same
claim asserted is still refuted (ASSERTED).
"""

import pytest

from autolabel.symbolic import check_step
from autolabel.symbolic.verdicts import REFUTED
from tests.autolabel.develop_rows import failed_kinds

ATTRIBUTED = [
    "For example, say 2 + 2 = 5; this is clearly absurd.",
    "Some might think that 1/2 + 1/3 = 2/5, but that is wrong.",
    "One might naively compute 1/2 + 1/3 = 2/5.",
    "The naive approach gives 10 + 10 = 30, which overcounts.",
    "The problem claims that 3 + 4 = 8, which we must disprove.",
    "If it were true that 2 + 2 = 5, then every count would be off.",
    "Had we used 3 apples, we'd have 3 * 2 = 7 pieces.",
    "We might be tempted to say 3 * 4 = 13.",
    "It is tempting to conclude 5 + 5 = 11.",
    "This does not give 3 * 3 = 10.",
    "Previously I wrote 3 * 3 = 10, let me fix that: 3 * 3 = 9.",
    "Above, 5 * 5 = 30 should be 25.",
]


@pytest.mark.parametrize("text", ATTRIBUTED)
def test_an_attributed_or_counterfactual_claim_is_not_refuted(text):
    verdict = check_step(text, timeout_s=5.0)
    assert verdict.verdict != REFUTED, [c.as_dict() for c in verdict.failed]


ASSERTED = [
    "So 1/2 + 1/3 = 2/5.",
    "The total is 10 + 10 = 30 apples.",
    "We have 3 * 2 = 7 pieces.",
    "Then 3 * 4 = 13, so the answer is 13.",
    "This gives 3 * 3 = 10.",
    "Thus 5 + 5 = 11 and the sum is odd.",
]


@pytest.mark.parametrize("text", ASSERTED)
def test_the_same_claim_asserted_is_refuted(text):
    assert failed_kinds(text) == {"arithmetic"}
