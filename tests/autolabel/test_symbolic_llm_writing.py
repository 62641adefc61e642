"""Issue 25, round 13: true statements written as LLM solutions write plain-text math, refuted
by symbolic-1.15, and their false twins, which must stay refuted with the same kind.

- "**" between numbers, spaced alike on both sides, is Python's power ("2 ** 3 * 3 = 24" was
  read as Markdown bold before "3 * 3 = 24"); bold around words or a number stays bold.
"""

import pytest

from autolabel.symbolic import check_step
from autolabel.symbolic.verdicts import REFUTED
from tests.autolabel.develop_rows import failed_kinds

TRUE = [
    "2 ** 3 * 3 = 24",
    "2 ** 2 + 1 = 5",
    "So 3 ** 2 = 9 and 2 ** 3 * 5 = 40.",
    "The area is 5 ** 2 * 3.14 = 78.5.",
    "2**3*3 = 24",
    "(1 + 1) ** 3 = 8",
]

# (text, the kind that refutes it)
FALSE = [
    ("2 ** 3 * 3 = 25", "arithmetic"),
    ("2 ** 10 = 1000", "arithmetic"),
    ("The area is 5 ** 2 * 3.14 = 80.", "arithmetic"),
    ("2**3*3 = 23", "arithmetic"),
    ("**Total**: 3 * 4 = 13", "arithmetic"),  # bold around a word
    ("So the answer is **15** (3 * 5 = 16).", "arithmetic"),  # bold around a number
]


@pytest.mark.parametrize("text", TRUE)
def test_true_statements_are_not_refuted(text):
    verdict = check_step(text, timeout_s=5.0)
    assert verdict.verdict != REFUTED, [c.as_dict() for c in verdict.failed]


@pytest.mark.parametrize(("text", "kind"), FALSE)
def test_false_twins_stay_refuted(text, kind):
    assert failed_kinds(text) == {kind}
