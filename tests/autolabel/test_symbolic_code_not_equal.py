"""Issue 25 (precision hunt): " != " written between spaces is code's not-equal.

"3 + 4 = 7 != 8" was read with "7 !" a factorial: the chain 3 + 4 = 7! = 8 failed twice
(7 ≠ 5040, 5040 ≠ 8), kind chain. Found by probing true statements; solutions that write like
code ("==" was already read as code's equality, tokens.py) write "!=" too. A "!" written
against its number stays a factorial, as ProcessBench writes it ("$3!=6$", "$0!=1$",
"$a ! \\cdot b ! \\cdot c !=d !$" on the develop part of shared/data/processbench_dev.jsonl).
A chain with a not-equal is read like one with "≠" (its equalities are not claims).
"""

import pytest

from autolabel.symbolic import check_step
from autolabel.symbolic.tokens import REL, tokenize

HOLDS = [
    "3 + 4 = 7 != 8.",
    "So $3 + 4 = 7 != 8$, and 8 is not the sum.",
    "Check: 12 / 4 = 3 != 4, so the boxes do not split evenly into fours.",
]
# factorials written against their number, false: still refuted
FAILS = [
    "We first arrange the three parties in $3!=7$ ways around the circular table.",
    "The $1$ Independent in $0!=2$ ways among itself.",
    "So 5! = 100.",
]


@pytest.mark.parametrize("text", HOLDS)
def test_spaced_not_equal_is_not_a_factorial(text):
    verdict = check_step(text)
    assert verdict.verdict != "refuted", [c.as_dict() for c in verdict.failed]


@pytest.mark.parametrize("text", FAILS)
def test_a_factorial_against_its_number_is_still_read(text):
    verdict = check_step(text)
    assert verdict.verdict == "refuted", [c.as_dict() for c in verdict.claims]


def test_only_a_spaced_bang_equals_is_a_relation():
    assert [t.text for t in tokenize("7 != 8") if t.kind == REL] == ["!="]
    for text in ("3!=6", "c !=d !", "x!= 3"):
        assert "!=" not in [t.text for t in tokenize(text) if t.kind == REL], text
