# ruff: noqa: E501 -- exact copies of real step texts, one literal per text
"""Roundings the text says (symbolic-1.7).

A round number in an approximate context (symbolic-1.7, decisions.round_number): where the
text says a claim is approximate ("about", "roughly", "approximately", also before a math
delimiter: "about \\(3 \\times 33 = 100\\)"), a whole number ending in zeros that the value
rounds to at its last nonzero digit is not refuted. Elsewhere, or when the value does not
round to it, the claim is decided as before.

A whole number for a root that is not whole (roundings.py): a rounding only where the text
says so (a word of rounding or of whole numbers, a count named after the value); else it is
the value the writer computed. OLYMPIADBENCH_181_3 and OLYMPIADBENCH_338_15 are exact
copies of first errors in the develop part of shared/data/processbench_dev.jsonl.
"""

import pytest

from autolabel.symbolic import check_step
from autolabel.symbolic.verdicts import REFUTED
from tests.autolabel.develop_rows import assert_develop

NOT_REFUTED = [
    r"The total is about \(3 \times 33 = 100\) people.",
    r"So roughly \(48 \times 21 = 1000\) tiles.",
    "About 12 x 12 = 140 square feet.",
    r"Approximately \(2^{10} = 1000\), so \(2^{20}\) is about a million.",
    r"That is around $19 \times 21 = 400$ dollars.",
    r"That is about \(\frac{1}{3} \times 100 = 30\) percent.",
]

REFUTED_CASES = [
    # not approximate: 99 is not 100
    r"The total is \(3 \times 33 = 100\) people.",
    # approximate, but the value does not round to it
    r"The total is about \(3 \times 33 = 90\) people.",
    r"So roughly \(48 \times 21 = 2000\) tiles.",
    # not a round number: an approximation does not excuse 7 x 7 = 48
    r"About \(7 \times 7 = 48\) squares.",
    r"Think about \(2 + 2 = 5\) first.",
]


@pytest.mark.parametrize("text", NOT_REFUTED)
def test_round_number_in_an_approximate_context_is_not_refuted(text):
    verdict = check_step(text, timeout_s=5.0)
    assert verdict.verdict != REFUTED, [c.as_dict() for c in verdict.failed]


@pytest.mark.parametrize("text", REFUTED_CASES)
def test_other_claims_are_still_decided(text):
    verdict = check_step(text, timeout_s=5.0)
    assert verdict.verdict == REFUTED, [c.as_dict() for c in verdict.claims]


OLYMPIADBENCH_181_3 = "Notice that if we reduce the number of helicopters, we increase the amount available for goats. Let's instead try a more direct approach by solving for \\(h\\) in terms of \\(g\\) or vice versa, and then finding integer solutions. Given: \\[19g + 17h = 201\\] Let's solve for \\(h\\): \\[h = \\frac{201 - 19g}{17}\\] For \\(h\\) to be an integer, \\(201 - 19g\\) must be divisible by \\(17\\). We can look for values of \\(g\\) that make this true: Trying \\(g = 10\\): \\[19(10) + 17h = 201\\] \\[190 + 17h = 201\\] \\[17h = 11\\] This does not yield an integer solution for \\(h\\). Trying \\(g = 11\\): \\[19(11) + 17h = 201\\] \\[209 + 17h = 201\\] This doesn't work either, as it results in a negative value for \\(h\\). Let's try \\(g = 6\\): \\[19(6) + 17h = 201\\] \\[114 + 17h = 201\\] \\[17h = 87\\] Dividing both sides by \\(17\\), we find \\(h = 5\\). Thus, Thurka bought 6 stuffed goats and 5 toy helicopters."
OLYMPIADBENCH_338_15 = (
    "Third, if \\( k = 3 \\), then \\( 3 + (n-1) \\cdot 9 = 306 \\) gives \\( n = 35 \\)."
)

WHOLE_NUMBER_COMPUTED = [
    ("olympiadbench-181", OLYMPIADBENCH_181_3),
    ("olympiadbench-338", OLYMPIADBENCH_338_15),
    ("", r"So \(3x = 10\), so \(x = 3\)."),
    ("", r"We get \(4n - 2 = 19\), hence \(n = 5\)."),
]

WHOLE_NUMBER_ROUNDED = [
    r"So \(3x = 10\), so \(x = 3\) since x must be a whole number.",
    r"So \(3x = 10\), rounding down, \(x = 3\).",
    r"So \(3x = 10\), and \(x = 4\) buses are needed.",
    r"We need \(12n = 100\), so at least \(n = 9\).",
    r"Then \(7k = 50\) gives \(k = 7\) full weeks.",
    r"So \(3x = 10\), so \(x \approx 3\).",
]


@pytest.mark.parametrize(("row", "text"), WHOLE_NUMBER_COMPUTED)
def test_whole_number_with_no_rounding_said_is_decided(row, text):
    verdict = check_step(text, timeout_s=5.0)
    assert verdict.verdict == REFUTED, [c.as_dict() for c in verdict.claims]
    assert {c.kind for c in verdict.failed} & {"substitution", "solving"}


@pytest.mark.parametrize("text", WHOLE_NUMBER_ROUNDED)
def test_whole_number_said_to_be_rounded_is_not_refuted(text):
    verdict = check_step(text, timeout_s=5.0)
    assert verdict.verdict != REFUTED, [c.as_dict() for c in verdict.failed]


def test_rows_are_develop():
    assert_develop({row for row, _ in WHOLE_NUMBER_COMPUTED if row})
