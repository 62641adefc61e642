# ruff: noqa: E501 -- step texts as people write them, one literal per text
"""How people write steps, read the same way (symbolic-1.11, issue 25 round 8).

The round-8 rewrites of the metamorphic stress (autolabel/quality/written_rewrites.py: sides
swapped, "Step 3:", numbered lines, Markdown bold, "equals", a unit or ``\\text{}`` word, a
parenthetical remark, "about" / "(approximately)", ``\\$``, "%", mixed numbers, a unit after
each number of a sum, "x" for "*", a period inside inline math, a bold heading, a negative
result in parentheses, prose arithmetic with its result first or after a label) found classes
of misreadings on correct steps nobody had tuned on, each fixed in general. For each: a tricky
TRUE statement that must not be refuted, and a false one that still must be.
"""

import pytest

from autolabel.quality.metamorphic import REWRITES
from autolabel.symbolic import check_step
from autolabel.symbolic.verdicts import REFUTED


def refuted(text: str) -> bool:
    return check_step(text, timeout_s=5.0).verdict == REFUTED


# (true statement that must not be refuted, false statement that still must be)
CLASSES = {
    # a number after an ellipsis ends a product or a sum: it is no claim's subject (PRM800K
    # mrmath-72 with its sides swapped: "2 = 2^{24}" was read as a factorization of 2)
    "an ellipsis before a factorization's number": (
        r"Its prime factorization is $2 \cdot 2 \cdot 2 \cdots 2 = 2^{24}$ (repeated 24 times).",
        r"Its prime factorization is $30 = 2 \cdot 3 \cdot 7$.",
    ),
    "an ellipsis before a parity claim's number": (
        r"The product $2 \cdot 3 \cdots 7$ is even.",
        r"So $7$ is even.",
    ),
    "three dots before a divisibility claim's number": (
        "The product 2 x 3 x ... 9 is divisible by 4.",
        "So 9 is divisible by 4.",
    ),
    "a prose times before a divisibility claim's number": (
        "The product 2 x 9 is divisible by 6.",
        "The number 9 is divisible by 6.",
    ),
    # a letter x typed for "times" is the product's sign: the product was read as its first
    # factor (PRM800K mrmath-89 step 12 with "x" for "\\cdot"; PRMBench's original process
    # deception-prm_train_p1_181 step 2)
    "a typed x inside a factorization": (
        "Therefore, the prime factorization of 6432 is 2^5 x 3 x 67.",
        "The prime factorization of 22 is 11 x 3.",
    ),
    "a typed x after a greatest common divisor": (
        "The GCD of 12 and 18 is 2 x 3.",
        "The GCD of 12 and 18 is 4.",
    ),
    # ... and so is a word that goes on with the value ("times", "squared", "and 3^2") or a
    # superscript power: the value was cut before it (siblings of the typed x, by probing)
    "a worded product after a factorization": (
        "The prime factorization of 12 is 2 squared times 3.",
        "The prime factorization of 22 is 2 * 13.",
    ),
    "factors listed with and": (
        "The prime factorization of 36 is 2^2 and 3^2.",
        "The prime factorization of 36 is 2^2 * 3^3.",
    ),
    "superscript powers in a factorization": (
        "The prime factorization of 360 is 2\u00b3 \u00d7 3\u00b2 \u00d7 5.",
        "The prime factorization of 360 is 2^3 \u00d7 3^2 \u00d7 7.",
    ),
    "a worded product after a least common multiple": (
        "The LCM of 4 and 6 is 2 squared times 3.",
        "The LCM of 4 and 6 is 24.",
    ),
    "a worded product after a remainder": (
        "The remainder when 17 is divided by 5 is 1 plus 1.",
        "The remainder when 17 is divided by 5 is 3.",
    ),
    # a word before the number ties it to an operation ("6 choose 2", "2 to the power 3"):
    # the number is not the claim's subject
    "a binomial before a parity claim": (
        "So 6 choose 2 is odd.",
        "So 2 is odd.",
    ),
    "a power before a parity claim": (
        "So 2 to the power 3 is even.",
        "So 3 is even.",
    ),
    # a subscript typed in prose names a term: its number is no side of an equation (the
    # chain "a_3 = 2 * 3 + 1 = 7" was read from "3 = 2 * 3 + 1"; kind chain, which earns −1)
    "a subscript in prose": (
        "Then a_3 = 2 * 3 + 1 = 7 and a_4 = 2 * 7 + 1 = 15.",
        "Then a_3 = 2 * 3 + 1 = 8.",
    ),
    "a braced subscript in prose": (
        "So T_{2} = 4 + 1 = 5.",
        "So T_{2} = 4 + 1 = 6.",
    ),
    # a negation spelled out hedges the claim after it as its contraction did ("isn't",
    # "doesn't"): the statement is denied, not asserted
    "a spelled-out negation before a claim": (
        "It is not true that 3 + 4 = 8, since 3 + 4 = 7.",
        "It is true that 3 + 4 = 8.",
    ),
    "a negated conclusion before a claim": (
        r"This does not mean that $2 \cdot 6 = 13$; it means $2 \cdot 6 = 12$.",
        r"This means that $2 \cdot 6 = 13$.",
    ),
    "a statement said to be false": (
        "It is false that 9 * 9 = 80.",
        "It follows that 9 * 9 = 80.",
    ),
    "what we do not have": (
        "We do not have 5 + 5 = 11 here.",
        "We have 5 + 5 = 11 here.",
    ),
}


@pytest.mark.parametrize("name", list(CLASSES))
def test_true_statement_is_not_refuted(name):
    true, _ = CLASSES[name]
    assert not refuted(true)


@pytest.mark.parametrize("name", list(CLASSES))
def test_false_statement_is_still_refuted(name):
    _, false = CLASSES[name]
    assert refuted(false)


@pytest.mark.parametrize(
    ("name", "before", "after"),
    [
        ("swapped_sides", "so $2 + 3 = 5$.", "so $5 = 2 + 3$."),
        ("swapped_sides", r"so $x \le 2 = y$.", r"so $x \le 2 = y$."),
        ("step_prefix", "So 2 + 3 = 5.", "Step 3: So 2 + 3 = 5."),
        ("numbered_lines", "a = 1\nb = 2", "1. a = 1\n2. b = 2"),
        ("numbered_lines", "a = 1\n\\[b = 2\\]", "a = 1\n\\[b = 2\\]"),
        ("bold_results", "So 2 + 3 = 5.", "So 2 + 3 = **5**."),
        ("equals_word", "So 2 + 3 = 5.", "So 2 + 3 equals 5."),
        ("unit_word", "So 2 + 3 = 5.", "So 2 + 3 = 5 units."),
        ("text_word", "so $2 + 3 = 5$.", r"so $2 + 3 = 5 \text{ apples}$."),
        ("parenthetical", "So 2 + 3 = 5.", "So 2 + 3 = 5 (see step 2)."),
        ("about", "So 22 / 7 = 3.142857.", "So 22 / 7 = about 3.14."),
        ("approximately", "So 22 / 7 = 3.142857.", "So 22 / 7 = 3.14 (approximately)."),
        ("escaped_dollar", "She pays $12 for 3.", r"She pays \$12 for 3."),
        ("percent_sign", "That is 25 percent of 8.", "That is 25% of 8."),
        ("mixed_numbers", r"so $x = \frac{5}{2}$.", r"so $x = 2\frac{1}{2}$."),
        ("mixed_numbers", "so 10 / 4 = 5/2.", "so 10 / 4 = 2 1/2."),
        ("unit_inside", "So 3 + 4 = 7.", "So 3 kg + 4 kg = 7 kg."),
        ("x_times", "So 3 * 4 = 12.", "So 3 x 4 = 12."),
        ("inline_period", "so $1 + 2 = 3$. Then", "so $1 + 2 = 3.$ Then"),
        ("heading", "So 2 + 3 = 5.", "**Step 3: Compute the total**\nSo 2 + 3 = 5."),
        ("negative_parens", "so $3 - 5 = -2$.", "so $3 - 5 = (-2)$."),
        ("negative_parens", "so 3 - 5 = -2 + 0.", "so 3 - 5 = -2 + 0."),
        ("prose_swapped", "So 3 * 5 = 15 apples.", "So 15 = 3 * 5 apples."),
        ("prose_swapped", "So (1)*6 + 18 = 24.", "So (1)*6 + 18 = 24."),
        ("labelled", "So 3 * 5 = 15.", "So Total: 3 * 5 = 15."),
    ],
)
def test_round_8_rewrites_keep_the_meaning(name, before, after):
    assert REWRITES[name](before) == after
