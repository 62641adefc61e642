# ruff: noqa: E501 -- exact copies of real step texts, one literal per text
"""Issue 25, round 2: equations that are items of a list are not derived from each other.

"The corresponding quadratic polynomials are: - $P_1 = 0$ - $P_2 = 0$" lists cases; reading
the second item as solved from the first (the solving kind) refuted correct steps
(olympiadbench-866, steps 2 and 6, from the develop part of
shared/data/processbench_dev.jsonl, after the first error and correct given it). A derivation
written inside one item, or across lines that are not list items, is still read.
"""

import pytest

from autolabel.symbolic import check_step
from autolabel.symbolic.segments import list_markers, prepare

LISTED = [
    # olympiadbench-866, step 2 (exact text)
    "The corresponding quadratic polynomials are:\n- \\(x^2 + x + 2 = 0\\)\n- \\(x^2 + 2x + 1 = 0\\)",
    # olympiadbench-866, step 6 (exact text)
    "The corresponding quadratic polynomials are:\n- \\(x^2 + x + 3 = 0\\)\n- \\(x^2 + 2x + 2 = 0\\)\n- \\(x^2 + 3x + 1 = 0\\)\n- \\(2x^2 + x + 2 = 0\\)",
    # other list markers, and a GSM8K annotation before the list (stripped before reading)
    "The two cases:\n* $3x + 4 = 25$\n* $3x = 22$",
    "The two cases:\n\u2022 $3x + 4 = 25$\n\u2022 $3x = 22$",
    "We get <<2+3=5>>5 equations, among them:\n- $3x + 4 = 25$\n- $3x = 22$",
]

# The same shapes with a false derivation that is asserted: still refuted by "solving".
DERIVED = [
    # a derivation inside one list item
    "The corresponding equations are:\n- $3x + 4 = 25$, so $3x = 22$\n- $x^2 + x + 2 = 0$",
    "Solving:\n* $2x + 1 = 5$ gives $2x = 3$",
    # consecutive displays that are not list items
    "Subtracting 4 from both sides:\n$$3x + 4 = 25$$\n$$3x = 22$$",
    "The corresponding quadratic polynomial is:\n\\(x^2 - 5x + 6 = 0\\), so \\((x - 1)(x - 6) = 0\\)",
]


@pytest.mark.parametrize("text", LISTED)
def test_list_items_are_not_derived_from_each_other(text):
    verdict = check_step(text)
    assert verdict.verdict != "refuted", [c.as_dict() for c in verdict.failed]
    assert "solving" not in {c.kind for c in verdict.claims}


@pytest.mark.parametrize("text", DERIVED)
def test_a_false_derivation_in_or_outside_a_list_is_still_refuted(text):
    verdict = check_step(text)
    assert verdict.verdict == "refuted", [c.as_dict() for c in verdict.claims]
    assert "solving" in {c.kind for c in verdict.failed}


def test_list_markers_stand_where_prepare_blanks_them():
    text = "Cases:\n- $x = 1$\n  * $y = 2$\n-3 = x - 4"
    markers = list_markers(text)
    assert sorted(text[i] for i in markers) == ["*", "-"]
    prepared = prepare(text)
    assert len(prepared) == len(text)
    assert all(prepared[i] == " " for i in markers)
