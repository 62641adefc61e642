# ruff: noqa: E501 -- an exact copy of a real step text
"""A division written out as an equation in a modular step (symbolic-1.7,
remainders.written_out): "n = d q + r" with the dividend first and a remainder smaller than a
factor is an equality of whole numbers, decided even where the step is about congruences;
every other "=" in a modular step stays undecided ("=" may mean "congruent").

MATH_35_2 is an exact copy of a first error in the develop part of
shared/data/processbench_dev.jsonl (test_row_is_develop checks the part).
"""

import pytest

from autolabel.symbolic import check_step
from autolabel.symbolic.remainders import written_out
from autolabel.symbolic.verdicts import REFUTED

MATH_35_2 = "To find \\( x \\), we need to determine the value of \\( x \\) such that \\( 5050 - x \\) is a multiple of 77. We start by finding the remainder when 5050 is divided by 77: \\[ 5050 \\div 77 \\approx 64.837 \\] Thus, \\[ 5050 = 77 \\cdot 64 + r \\] where \\( r \\) is the remainder. Performing the division, \\[ 5050 = 77 \\cdot 64 + 28 \\] So, \\[ 5050 \\equiv 28 \\pmod{77} \\]"

REFUTED_CASES = [
    MATH_35_2,
    r"Modulo 9: \(100 = 9 \times 11 + 2\), so \(100 \equiv 1 \pmod 9\).",
    r"Working mod 7, \(50 = (7 \cdot 7) + 3\).",
]

NOT_REFUTED = [
    r"Performing the division, \[ 5050 = 77 \cdot 65 + 45 \] So, \[ 5050 \equiv 45 \pmod{77} \]",
    # the other "=" of a modular step: may mean "congruent"
    r"mod 7: \(10 = 7 \cdot 1 + 3 = 3\)",
    r"In mod 5, 3 x 4 + 1 = 3.",
    r"Modulo 7, \(2^3 = 1\), so \(2^{10} = 2\).",
    # a remainder not smaller than a factor: not a division written out
    r"mod 5: 3 = 2 x 4 + 5",
]


@pytest.mark.parametrize("text", REFUTED_CASES)
def test_false_division_written_out_is_refuted(text):
    verdict = check_step(text, timeout_s=5.0)
    assert verdict.verdict == REFUTED, [c.as_dict() for c in verdict.claims]
    assert "arithmetic" in {c.kind for c in verdict.failed}


@pytest.mark.parametrize("text", NOT_REFUTED)
def test_modular_equalities_stay_undecided(text):
    verdict = check_step(text, timeout_s=5.0)
    assert verdict.verdict != REFUTED, [c.as_dict() for c in verdict.failed]


@pytest.mark.parametrize(
    ("claim", "expected"),
    [
        ("5050 = 77 \\cdot 64 + 28", True),
        ("100 = (9 \\times 11) + 1", True),
        ("7 \\cdot 1 + 3 = 10", False),
        ("3 = 2 x 4 + 5", False),
        ("x = 7 \\cdot 2 + 1", False),
    ],
)
def test_written_out(claim, expected):
    assert written_out(claim) is expected


def test_row_is_develop():
    from autolabel.quality.data import DATA_DIR, read_labeled
    from autolabel.quality.dev_split import DEVELOP, part_of

    path = DATA_DIR / "processbench_dev.jsonl"
    if not path.exists():
        pytest.skip("shared/data/processbench_dev.jsonl is not here")
    rows = [s for s in read_labeled(path) if s.metadata["processbench"]["id"] == "math-35"]
    assert rows and {part_of(s.problem) for s in rows} == {DEVELOP}
    assert MATH_35_2 in {step for s in rows for step in s.steps}
