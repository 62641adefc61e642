# ruff: noqa: E501 -- exact copies of real step texts, one literal per text
"""Issue 25, round 2: classes of true statements the checker misread, each with the same
shape made false, which must still be refuted.

Lists: "The corresponding quadratic polynomials are: - $P_1 = 0$ - $P_2 = 0$" lists cases; reading
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


# (true statement: not refuted, false statement of the same shape: refuted with this kind)
PAIRS = [
    # pi computed with a school approximation (3.14 .. 22/7) is not an error
    (
        r"Using $\pi = 3.14$, the area is $\pi \times 3^2 = 28.26$.",
        r"Using $\pi = 3.14$, the area is $\pi \times 3^2 = 28.36$.",
        "arithmetic",
    ),
    (
        r"The area is $\pi r^2 = \pi (3)^2 = 28.26$ square units.",
        r"The area is $\pi r^2 = \pi (3)^2 = 27.26$ square units.",
        "chain",
    ),
    (r"The volume is $\frac{4}{3}\pi (3)^3 = 113.04$.", r"$9\pi = 28.2$.", "arithmetic"),
    # numerals in a base the step or the problem names, subscripts dropped
    ("In base 8, 7 + 1 = 10.", "In base 8, 7 + 1 = 11.", "arithmetic"),
    (
        r"In base 5, we have $4 + 1 = 10$ and $4 \times 4 = 31$.",
        r"In base 5, we have $4 + 1 = 10$ and $4 \times 4 = 32$.",
        "arithmetic",
    ),
    # a digit too large for the base: the literal is decimal, the claim decided as written
    (
        r"Converting $62_8$: $6 \times 8 + 2 = 50$.",
        r"Converting $62_8$: $6 \times 8 + 2 = 51$.",
        "arithmetic",
    ),
    # a percentage rounded to the places written
    ("The answer is 1/3 = 33.3%.", "The answer is 1/3 = 33.4%.", "percentage"),
    ("So 2/3 = 66.67%.", "So 2/3 = 66.76%.", "percentage"),
    # durations added with colons are not ratios
    ("The times add up: 2:30 + 1:45 = 4:15.", "So the ratio 12:18 = 2:4.", "ratio"),
    # a slash fraction after a division sign is one number to most writers
    ("So 4 \u00f7 1/2 = 8.", "So 4 \u00f7 1/2 = 5.", "arithmetic"),
    ("So 12 / 4 / 3 = 1.", "So 12 / 4 / 3 = 2.", "arithmetic"),
    # a percentage or fraction that is a share of something named after the formula
    (
        r"$200 \cdot 0.15 = 30 = 15\%$ of $200$.",
        r"$200 \cdot 0.15 = 40 = 15\%$ of $200$.",
        "arithmetic",
    ),
    (
        r"So $3 + 6 = 9 = \frac{1}{3}$ of the class.",
        r"So $3 + 6 = 10 = \frac{1}{3}$ of the class.",
        "arithmetic",
    ),
    (
        "So $3 + 4 = 7$ of the apples are red.",
        "So $3 + 4 = 8$ of the apples are red.",
        "arithmetic",
    ),
    # "=" for "has the same last digits" where the step speaks of them
    (
        r"Taking the last two digits, $24 \times 24 = 576 = 76$.",
        r"Taking the last two digits, $24 \times 24 = 576 = 77$.",
        "chain",
    ),
    (
        r"The units digit: $7^3 = 343$, and $3 \times 7 = 21 = 1$.",
        r"The units digit: $7^3 = 343$, and $3 \times 7 = 21 = 2$.",
        "chain",
    ),
    # two full numbers are compared as written (olympiadbench-528, step 9, develop part)
    (
        r"Taking the last two digits, $24 \times 24 = 576 = 5676 - 5100$.",
        r"Let's calculate \( f(26) \): \( f(26) = 2^{26} + 26^2 = 67108864 + 676 = 67108940 \). Now, we need to check if \( f(26) \) and \( f(10) \) have the same units digit.",
        "chain",
    ),
    (
        r"Taking the last two digits, $24 \times 24 = 576$.",
        r"Taking the last two digits, $24 \times 24 = 586$.",
        "arithmetic",
    ),
    # a number and the sum of its digits in order (a digit sum), and radians against degrees
    (
        "The digital root: $28 = 2 + 8 = 10 = 1 + 0 = 1$.",
        "The digital root: $28 = 2 + 8 = 11$.",
        "chain",
    ),
    ("So $28 = 2 + 8$.", "So $28 = 2 + 9$.", "arithmetic"),
    (r"$\frac{\pi}{3} = 60^\circ$.", r"$\frac{\pi}{3} = 45^\circ$.", "arithmetic"),
    (r"$90^\circ = \frac{\pi}{2}$.", r"$90^\circ = \frac{\pi}{3}$.", "arithmetic"),
    # square brackets around a non-integer: the greatest integer function (Legendre's formula)
    (
        r"$[\frac{100}{7}] + [\frac{100}{49}] = 14 + 2 = 16$.",
        r"$[\frac{100}{5}] + [\frac{100}{25}] = 20 + 4 = 25$.",
        "chain",
    ),
    ("$[7.5] + [2.6] = 9$.", "$2[3 + 4] = 15$.", "arithmetic"),
    # a value tried and rejected right after it is not asserted
    ("At $x = 1$: $1 + 1 = 3$ fails.", "At $x = 1$: $1 + 1 = 3$ holds.", "arithmetic"),
    ("For $(3,4)$: $3 + 4 = 10$ \u2717", "For $(3,4)$: $3 + 4 = 10$ \u2713", "arithmetic"),
    ("$3 + 4 = 10$ (invalid)", "$3 + 4 = 10$ (valid)", "arithmetic"),
    (
        "The student wrote $2 + 2 = 5$ by mistake.",
        "The student wrote $2 + 2 = 5$ at the end.",
        "arithmetic",
    ),
    (
        "For this to work we would need $3 + 4 = 8$.",
        "For this to work we use $3 + 4 = 8$.",
        "arithmetic",
    ),
    # hours on a clock count modulo 12
    ("On a 12-hour clock, 10 + 5 = 3.", "At 10 plus 5 hours, 10 + 5 = 16.", "arithmetic"),
]


@pytest.mark.parametrize(("true", "false", "kind"), PAIRS)
def test_true_statement_kept_and_false_one_of_its_shape_refuted(true, false, kind):
    kept = check_step(true)
    assert kept.verdict != "refuted", [c.as_dict() for c in kept.failed]
    refuted = check_step(false)
    assert refuted.verdict == "refuted", [c.as_dict() for c in refuted.claims]
    assert kind in {c.kind for c in refuted.failed}, [c.as_dict() for c in refuted.failed]


def test_a_base_named_only_by_the_problem_counts():
    problem = "Compute $7_8 + 1_8$. Express your answer in base 8."
    assert check_step("So 7 + 1 = 10.", problem=problem).verdict != "refuted"
    assert check_step("So 7 + 1 = 11.", problem=problem).verdict == "refuted"
    assert check_step("So 7 + 1 = 10.").verdict == "refuted"


def test_stated_bases():
    from autolabel.symbolic.bases import stated_bases

    assert stated_bases("In base-5, ...", "Write $101_2$ in base ten.", None) == {5, 2}
    assert stated_bases("base eight") == {8}
    assert stated_bases("base 10 and 123_{16}") == frozenset()


def test_unicode_superscript_digits_do_not_break_the_reader():
    from autolabel.symbolic.check import check_step_local

    verdict = check_step_local("So 2\u00b2 = 4 and 3\u00b3 = 27 and 10\u2076 = 1000000.")
    assert verdict.verdict != "refuted"


def test_digit_moduli():
    from autolabel.symbolic.last_digits import digit_moduli

    assert digit_moduli("the units digit", None) == {10}
    assert digit_moduli("Find the last three digits of $3^{100}$.") == {1000}
    assert digit_moduli("the tens digit and the last 2 digits") == {100}
    assert digit_moduli("the sum of the digits is 9") == frozenset()
