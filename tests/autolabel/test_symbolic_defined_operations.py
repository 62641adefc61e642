"""Issue 25 (precision hunt): an operation the problem defines with the product's sign.

Competition problems define operations of their own: "Define $a * b = a + b + ab$. Find
$3 * 4$." The checker read "*" (and "\\ast") as a product, so "3 * 4 = 19" was refuted as
12 ≠ 19 (arithmetic), and "3 * 4 = 3 + 4 + 3 \\cdot 4 = 19" as a chain. Found by probing true
statements (operations written with symbols the parser does not know, "\\star", "\\nabla",
"\\oplus", were already left unread). Where the problem, an earlier step or the step defines
"*" (task_words.defines_star: a right side that uses the letters and is not their product),
a claim with "*" on one of its sides is not read; the other links are.
"""

import pytest

from autolabel.symbolic import check_step
from autolabel.symbolic.task_words import defines_star

DEFINED = "Define $a * b = a + b + ab$. Find $3 * 4$."

HOLDS = [
    (DEFINED, (), "$3 * 4 = 3 + 4 + 3 \\cdot 4 = 19$."),
    (DEFINED, (), "So $3 * 4 = 19$."),
    ("Let $x \\ast y = 2x - y$. Compute $5 \\ast 3$.", (), "$5 \\ast 3 = 2(5) - 3 = 7$."),
    ("Find $2 * (1 * 3)$.", ("Here $a * b = \\frac{a + b}{2}$.",), "$1 * 3 = 2$, so $2 * 2 = 2$."),
    ("Compute $4 * 5$.", (), "Since $a * b = 2a + 3b$, we get $4 * 5 = 8 + 15 = 23$."),
]
# A false link without "*" in the same chain, or "*" where nothing defines it (or where "a *
# b" is only the product written again): still refuted.
FAILS = [
    (DEFINED, (), "$3 * 4 = 3 + 4 + 3 \\cdot 4 = 20$."),
    (DEFINED, (), "$3 * 4 = 3 + 4 + 12$, and $3 + 4 + 12 = 20$."),
    ("Find $3 * 4$.", (), "So $3 * 4 = 19$."),
    ("We know $a * b = ab$ for all $a, b$.", (), "So $4 * 6 = 25$."),
    ("A rectangle has $l * w = 24$.", (), "So $4 * 6 = 25$."),
]


@pytest.mark.parametrize(("problem", "previous", "text"), HOLDS)
def test_a_defined_star_operation_is_not_read_as_a_product(problem, previous, text):
    verdict = check_step(text, previous_steps=list(previous), problem=problem)
    assert verdict.verdict != "refuted", [c.as_dict() for c in verdict.failed]


@pytest.mark.parametrize(("problem", "previous", "text"), FAILS)
def test_other_links_and_undefined_stars_are_still_refuted(problem, previous, text):
    verdict = check_step(text, previous_steps=list(previous), problem=problem)
    assert verdict.verdict == "refuted", [c.as_dict() for c in verdict.claims]


@pytest.mark.parametrize(
    ("text", "defines"),
    [
        ("Define $a * b = a + b + ab$.", True),
        ("$x \\ast y = 2x - y$ for all reals", True),
        ("Second term = a * r = (136 / 4913) * (17 / 2)", False),
        ("Area = length * width = 4 * 4 = 16", False),
        ("so a * b = ab", False),
        ("x * y = x \\cdot y", False),
        ("l * w = 24", False),
    ],
)
def test_defines_star(text, defines):
    assert defines_star(text) is defines
