"""Issue 25, round 16: "instead" before a claim (autolabel/symbolic/hedges.py).

"Instead, we use a known result ...: \\[claim\\]" switches to another approach and asserts the
claim (develop math-228 step 6, its labelled first error: cos 10° cos 50° cos 70° is √3/8, not
1/8; tests/autolabel/test_symbolic_trig_factoring.py holds the exact step). "instead of" a
claim still rejects it, and "rather than" too.
"""

import pytest

from tests.autolabel.develop_rows import failed_kinds

REFUTED = [
    r"That does not simplify. Instead, we use a known result: \[ 3 \times 4 = 13 \]",
    r"Instead, we compute directly: \( 17 + 26 = 42 \).",
    r"We use 7 instead: \( 7 \times 3 = 22 \).",
]

NOT_REFUTED = [
    r"We should write \( 3 \times 4 = 12 \) instead of \( 3 \times 4 = 13 \).",
    r"Instead of \( 17 + 26 = 42 \), the sum is 43.",
    r"Use the product rather than \( 3 + 4 = 12 \).",
    r"Instead, we use a known result: \[ 3 \times 4 = 12 \]",
]


@pytest.mark.parametrize("text", REFUTED)
def test_a_claim_after_instead_is_asserted(text):
    assert failed_kinds(text) == {"arithmetic"}


@pytest.mark.parametrize("text", NOT_REFUTED)
def test_a_claim_instead_of_which_another_stands_is_not_refuted(text):
    assert failed_kinds(text) is None
