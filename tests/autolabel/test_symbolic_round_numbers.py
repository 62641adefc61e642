"""A round number in an approximate context (symbolic-1.7, decisions.round_number): where the
text says a claim is approximate ("about", "roughly", "approximately", also before a math
delimiter: "about \\(3 \\times 33 = 100\\)"), a whole number ending in zeros that the value
rounds to at its last nonzero digit is not refuted. Elsewhere, or when the value does not
round to it, the claim is decided as before.
"""

import pytest

from autolabel.symbolic import check_step
from autolabel.symbolic.verdicts import REFUTED

NOT_REFUTED = [
    r"The total is about \(3 \times 33 = 100\) people.",
    r"So roughly \(48 \times 21 = 1000\) tiles.",
    "About 12 x 12 = 140 square feet.",
    r"Approximately \(2^{10} = 1000\), so \(2^{20}\) is about a million.",
    r"That is around $19 \times 21 = 400$ dollars.",
]

REFUTED_CASES = [
    # not approximate: 99 is not 100
    r"The total is \(3 \times 33 = 100\) people.",
    # approximate, but the value does not round to it
    r"The total is about \(3 \times 33 = 90\) people.",
    r"So roughly \(48 \times 21 = 2000\) tiles.",
    # not a round number: an approximation does not excuse 7 x 7 = 48
    r"About \(7 \times 7 = 48\) squares.",
]


@pytest.mark.parametrize("text", NOT_REFUTED)
def test_round_number_in_an_approximate_context_is_not_refuted(text):
    verdict = check_step(text, timeout_s=5.0)
    assert verdict.verdict != REFUTED, [c.as_dict() for c in verdict.failed]


@pytest.mark.parametrize("text", REFUTED_CASES)
def test_other_claims_are_still_decided(text):
    verdict = check_step(text, timeout_s=5.0)
    assert verdict.verdict == REFUTED, [c.as_dict() for c in verdict.claims]
