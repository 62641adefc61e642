"""Issue 25, round 16: a number right before a fraction with letters is a product
(autolabel/symbolic/parser.py, ``_fraction_has_letter``), never a mixed number: "2\\frac{y}{z}"
is 2y/z. A side so written had no usual reading (mixed number or product?), so every claim on
it was read twice and a rewrite that held under the mixed reading was left undecided, or the
side was not read at all.

Develop-part row: olympiadbench-291 step 4, its labelled first error ("2\\frac{y}{z} +
\\frac{z}{y} = 3. This can be rewritten as: 2\\frac{y^2 + z^2}{yz} = 3"; the numerator is
2y^2 + z^2). Mixed numbers of digits ("3\\frac{1}{2}", "3\\frac12") keep both readings.
"""

import pytest

from autolabel.symbolic import check_step
from autolabel.symbolic.parser import parse_side
from autolabel.symbolic.tokens import SPACE, tokenize
from autolabel.symbolic.verdicts import REFUTED
from tests.autolabel.develop_rows import assert_develop, failed_kinds

DEVELOP_ROWS = {"olympiadbench-291"}

OLYMPIADBENCH_291_STEP_4 = (
    r"To simplify further, apply the change of base formula "
    r"\(\log_a b = \frac{\log_c b}{\log_c a}\): "
    "\n"
    r"\[ 2\frac{\log(x+3)}{\log(5x+9)}+\frac{\log(5x+9)}{\log(x+3)} = 3. \]"
    "\n"
    r"Let \(y = \log(x+3)\) and \(z = \log(5x+9)\). Thus, we get:"
    "\n"
    r"\[ 2\frac{y}{z}+\frac{z}{y} = 3. \]"
    "\nThis can be rewritten as:\n"
    r"\[ 2\frac{y^2 + z^2}{yz} = 3. \]"
    "\nOr, equivalently:\n"
    r"\[ 2y^2 + 2z^2 = 3yz. \]"
)

# (true step, its false twin)
PAIRS = [
    (
        r"Thus \[ 2\frac{y}{z}+\frac{z}{y} = 3. \] This can be rewritten as: "
        r"\[ \frac{2y^2 + z^2}{yz} = 3. \]",
        r"Thus \[ 2\frac{y}{z}+\frac{z}{y} = 3. \] This can be rewritten as: "
        r"\[ 2\frac{y^2 + z^2}{yz} = 3. \]",
    ),
    (
        r"So $3\frac{x}{4} + y = 7$ becomes $3x + 4y = 28$.",
        r"So $3\frac{x}{4} + y = 7$ becomes $3x + y = 28$.",
    ),
]


def _values(text: str) -> list[str]:
    """The side's readings' trees, the usual one (None: no usual reading) first."""
    tokens = [t for t in tokenize(text, "math") if t.kind != SPACE]
    found = []
    for choices in (None, (0,), (1,)):
        try:
            found.append(repr(parse_side(tokens, "math", choices)[0]))
        except Exception as error:  # noqa: BLE001 - the kind of failure is what is compared
            found.append(type(error).__name__)
    return found


def test_the_cited_rows_are_in_the_develop_part():
    assert_develop(DEVELOP_ROWS)


def test_olympiadbench_291_step_4_is_refuted_by_rewriting():
    assert failed_kinds(OLYMPIADBENCH_291_STEP_4) == {"rewriting"}
    right = OLYMPIADBENCH_291_STEP_4.replace(r"2\frac{y^2 + z^2}{yz}", r"\frac{2y^2 + z^2}{yz}")
    right = right.replace("2y^2 + 2z^2 = 3yz", "2y^2 + z^2 = 3yz")
    verdict = check_step(right, timeout_s=5.0)
    assert verdict.verdict != REFUTED, [c.as_dict() for c in verdict.failed]


@pytest.mark.parametrize("true, false", PAIRS)
def test_a_number_before_a_fraction_with_letters_multiplies(true, false):
    verdict = check_step(true, timeout_s=5.0)
    assert verdict.verdict != REFUTED, [c.as_dict() for c in verdict.failed]
    assert any(c.kind == "rewriting" and c.holds for c in verdict.claims), verdict.claims
    assert failed_kinds(false) == {"rewriting"}


def test_a_fraction_with_letters_has_one_reading_and_digits_two():
    usual, *_ = _values(r"2\frac{y}{z}")
    assert usual.startswith("Bin(op='*'")
    assert _values(r"3\frac{1}{2}")[0] == "Ambiguous"
    assert _values(r"3\frac12")[0] == "Ambiguous"
    assert _values(r"3\frac{\pi}{2}")[0] == "Ambiguous"


@pytest.mark.parametrize(
    "text",
    [
        r"So $3\frac{1}{2} + 1 = 4.5$.",  # a mixed number: holds under that reading
        r"So $3\frac{1}{2} \times 2 = 7$.",
        r"The recipe uses $2\frac{1}{4}$ cups, so $2\frac{1}{4} \times 4 = 9$ cups.",
    ],
)
def test_mixed_numbers_of_digits_are_not_refuted(text):
    verdict = check_step(text, timeout_s=5.0)
    assert verdict.verdict != REFUTED, [c.as_dict() for c in verdict.failed]
