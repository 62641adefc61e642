# ruff: noqa: E501 -- an exact copy of a real step text
"""A tested value that the writer affirms is asserted (symbolic-1.7, affirmations.py): the
hedge of "we test", "checking", "verify" is lifted when the words right after the claim say
it is correct, and only then; a hypothesis, an error, a negation, a question or a modular
setting keep the claim hedged.

OMNIMATH_767_5 is an exact copy of a first error in the develop part of
shared/data/processbench_dev.jsonl (test_row_is_develop checks the part).
"""

import pytest

from autolabel.symbolic import check_step
from autolabel.symbolic.verdicts import REFUTED

OMNIMATH_767_5 = r"We test some integer values of \(c\): For \(c = 12\): \[ 12^3 + 3 \cdot 12^2 + 1 = 1728 + 432 + 1 = 2017 \] This is correct, so \(c = 12\)."

AFFIRMED_FALSE = [
    OMNIMATH_767_5,
    r"We test \(x = 3\): \(3^2 + 4 = 14\), which is true.",
    r"Let us verify: \(2 \cdot 5 = 11\) \(\checkmark\)",
    r"Checking \(n = 4\): \(4! = 20\). This works, so n = 4.",
    r"Trying \(k = 2\): \(2^5 - 1 = 30\), which is indeed correct.",
]

STILL_HEDGED = [
    # the test fails or is not affirmed
    r"We test \(x = 3\): \(3^2 + 4 = 14\), which is not correct.",
    r"We test \(x = 3\): \(3^2 + 4 = 14\). This is wrong.",
    r"We test \(x = 3\): \(3^2 + 4 = 14\)? No.",
    r"We test \(x = 3\): \(3^2 + 4 = 14\), which is true only if we miscounted.",
    r"Checking \(n = 4\): \(4! = 20\) fails.",
    # a hypothesis, an error or a correction in the sentence: no affirmation lifts those
    r"If we test \(x = 3\), then \(3^2 + 4 = 14\), which is true.",
    r"We test the wrong value: \(3^2 + 4 = 14\). This is correct.",
    r"Let us verify whether \(3^2 + 4 = 14\). This is correct.",
    r"Checking it instead: \(3^2 + 4 = 14\), which is true.",
    r"We would test \(3^2 + 4 = 14\), which is true.",
    # a modular setting: "=" may mean "congruent"
    r"Checking modulo 7: \(2^3 = 1\), which is true.",
    # true claims stay verified whatever follows
    r"We test \(x = 3\): \(3^2 + 4 = 13\), which is true.",
]


@pytest.mark.parametrize("text", AFFIRMED_FALSE)
def test_affirmed_false_claim_is_refuted(text):
    verdict = check_step(text, timeout_s=5.0)
    assert verdict.verdict == REFUTED, [c.as_dict() for c in verdict.claims]


@pytest.mark.parametrize("text", STILL_HEDGED)
def test_unaffirmed_or_qualified_claim_is_not_refuted(text):
    verdict = check_step(text, timeout_s=5.0)
    assert verdict.verdict != REFUTED, [c.as_dict() for c in verdict.failed]


def test_row_is_develop():
    from autolabel.quality.data import DATA_DIR, read_labeled
    from autolabel.quality.dev_split import DEVELOP, part_of

    path = DATA_DIR / "processbench_dev.jsonl"
    if not path.exists():
        pytest.skip("shared/data/processbench_dev.jsonl is not here")
    rows = [s for s in read_labeled(path) if s.metadata["processbench"]["id"] == "omnimath-767"]
    assert rows and {part_of(s.problem) for s in rows} == {DEVELOP}
    assert OMNIMATH_767_5 in {step for s in rows for step in s.steps}
