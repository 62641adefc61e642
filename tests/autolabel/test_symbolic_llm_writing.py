"""Issue 25, round 13: true statements written as LLM solutions write plain-text math, refuted
by symbolic-1.15, and their false twins, which must stay refuted with the same kind.

- "**" between numbers, spaced alike on both sides, is Python's power ("2 ** 3 * 3 = 24" was
  read as Markdown bold before "3 * 3 = 24"); bold around words or a number stays bold.
- A capitalized label opening its clause, a whole number and a spaced dash ("Step 2 - 7 × 2 =
  14", "Week 2 – 10 + 5 = 15"): the number is the label's, not a term ("2 - 7 × 2 = 14" was
  refuted); after "So", a verb or a colon the same dash is a minus.

Found by the round's rewrites (``autolabel/quality/llm_rewrites.py``) on correct steps:
- a prime factorization with factors in parentheses ("2013 = 3(11)(61)", MATH's "2009 =
  7(7)\\cdot 41") was read as "2013 = 3": the product goes on past a parenthesized number;
- "sqrt(18)" typed as plain text was the word "sqrt" (a unit) times 18: it is the root of
  the parenthesized group, in prose and in math ("2sqrt(18) = 6sqrt(2)");
- "**" after ``\\right)`` is a power too;
- thousands after a stray space ("90^3=729, 000", a MATH reference) or set off by a space
  ("98 765 is not a multiple of 9") are not a list's item or a statement's subject.
"""

import pytest

from autolabel.symbolic import check_step, check_step_local
from autolabel.symbolic.verdicts import REFUTED
from tests.autolabel.develop_rows import failed_kinds

TRUE = [
    "2 ** 3 * 3 = 24",
    "2 ** 2 + 1 = 5",
    "So 3 ** 2 = 9 and 2 ** 3 * 5 = 40.",
    "The area is 5 ** 2 * 3.14 = 78.5.",
    "2**3*3 = 24",
    "(1 + 1) ** 3 = 8",
    "Step 2 - 7 × 2 = 14",
    "Part 1 - 3 + 4 = 7",
    "Week 2 \u2013 10 + 5 = 15",
    "Method 1 - 3 × 4 = 12",
    "Scenario 2 - 100 - 20 = 80",
    "Floor 3 - 2 × 5 = 10 rooms",
    "Pages 1 - 10 = 10 pages",
    r"The prime factorization of 2013 is: \[2013 = 3(11) \times 61.\]",
    r"The prime factorization of $2009$ is $2009 = 7(7)\cdot 41$.",
    r"Note that the prime factorization of $210$ is $2(3)\cdot 5(7)$.",
    r"- The prime factorization of \(14\) is \(2(7)\).",
    r"Prime factorization of 2004: $2004 = 2^2 \cdot 3(167)$.",
    "I can simplify: 2sqrt(12) = 4sqrt(3) and 2sqrt(18) = 6sqrt(2).",
    "we find that 15sqrt(24)=30sqrt(6)=k.",
    "$2sqrt(18) = 6sqrt(2)$",
    r"So \left(\frac{\sqrt{2}}{4}\right) ** 2 = \frac{1}{8}.",
    "Since 90^3=729, 000, AB is greater than 90.",
    "$90^3 = 729, 000$",
    "Since 35 is not divisible by 9, 98 765 is not a multiple of 9.",
]

# (text, the kind that refutes it)
FALSE = [
    ("2 ** 3 * 3 = 25", "arithmetic"),
    ("2 ** 10 = 1000", "arithmetic"),
    ("The area is 5 ** 2 * 3.14 = 80.", "arithmetic"),
    ("2**3*3 = 23", "arithmetic"),
    ("**Total**: 3 * 4 = 13", "arithmetic"),  # bold around a word
    ("So the answer is **15** (3 * 5 = 16).", "arithmetic"),  # bold around a number
    ("So 10 - 3 = 8", "arithmetic"),  # a clause word, not a label
    ("He has 10 - 3 = 8 left.", "arithmetic"),
    ("Step 2: 10 - 3 = 8", "arithmetic"),  # the label ends at the colon
    ("Step 2 - 7 × 2 = 14, and 14 + 1 = 16.", "arithmetic"),  # the rest is still read
    (r"The prime factorization of 2013 is $2013 = 3 \cdot 11 \cdot 62$.", "factorization"),
    (r"$2013 = 3(11)(62)$", "arithmetic"),
    ("2sqrt(18) = 5sqrt(2)", "arithmetic"),
    ("sqrt(2) * sqrt(8) = 5", "arithmetic"),
    ("$2sqrt(18) = 5sqrt(2)$", "arithmetic"),
    (r"\left(\frac{\sqrt{2}}{4}\right) ** 2 = \frac{1}{4}", "arithmetic"),
    ("$2 \\times 3 = 6, 7 \\times 3 = 22$", "arithmetic"),  # a list's next item is read
    ("The sum is 12, 765 is not a multiple of 9.", "divisibility"),
]


@pytest.mark.parametrize("text", TRUE)
def test_true_statements_are_not_refuted(text):
    verdict = check_step(text, timeout_s=5.0)
    assert verdict.verdict != REFUTED, [c.as_dict() for c in verdict.failed]


def test_a_thousands_group_after_a_piece_with_no_relation_is_read():
    # "$1, 000$": no "=" before the group (the first draft of the rule crashed here)
    assert check_step_local("$1, 000$ and $1, 000 + 1$", (), "").verdict != REFUTED


@pytest.mark.parametrize(("text", "kind"), FALSE)
def test_false_twins_stay_refuted(text, kind):
    kinds = failed_kinds(text)
    assert kinds is not None and kind in kinds  # a factorization is also false arithmetic
