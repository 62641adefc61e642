# ruff: noqa: E501 -- exact copies of real step texts, one literal per text
"""Metamorphic stress (autolabel/quality/metamorphic.py): a correct step rewritten without
changing its meaning must not gain a refutation. The rewrites themselves, and the fragility
classes the stress found on the develop part and the public samples (symbolic-1.8), fixed in
general: thousands separators in a factorization's numbers ("2,013 = 3 × 11 × 61" read as
"2"), also a thin space ("2\\,013" read as 13), a trailing period that hid a factorization, a
factor 1 beside the primes, "$ ... $" with spaces inside read as money, and a boxed result
before the "or" of a case split. OLYMPIADBENCH_800_0 and OMNIMATH_397_1 are exact copies of
correct steps of the develop part of shared/data/processbench_dev.jsonl.
"""

import pytest

from autolabel.quality.metamorphic import REWRITES, CorrectStep, stress
from autolabel.symbolic import check_step
from autolabel.symbolic.verdicts import REFUTED
from tests.autolabel.develop_rows import assert_develop

OLYMPIADBENCH_800_0 = "To determine all pairs \\((a, b)\\) of positive integers for which \\(a^3 + 2ab = 2013\\), we start by analyzing the equation: \\[a^3 + 2ab = 2013.\\] First, we factor out \\(a\\) from the left-hand side: \\[a(a^2 + 2b) = 2013.\\] Since \\(a\\) is a positive integer, \\(a\\) must be a divisor of 2013. We first list the divisors of 2013. The prime factorization of 2013 is: \\[2013 = 3 \\times 11 \\times 61.\\] Thus, the divisors of 2013 are: \\[1, 3, 11, 33, 61, 183, 671, 2013.\\] We will test each divisor \\(a\\) to see if it can satisfy the equation \\(a(a^2 + 2b) = 2013\\)."
OMNIMATH_397_1 = "Let's start by listing the first few terms of the GEB sequence and their differences:\n- \\( a_1 = 1 \\)\n- \\( d_1 = 2 \\) (the smallest positive integer not in the GEB sequence yet), so \\( a_2 = a_1 + d_1 = 1 + 2 = 3 \\)\n- \\( d_2 = 4 \\) (the next smallest positive integer not in the GEB sequence yet), so \\( a_3 = a_2 + d_2 = 3 + 4 = 7 \\)\n- \\( d_3 = 5 \\) (the next smallest positive integer not in the GEB sequence yet), so \\( a_4 = a_3 + d_3 = 7 + 5 = 12 \\)"

CORRECT_STEPS = [
    OLYMPIADBENCH_800_0,
    OMNIMATH_397_1,
    "The prime factorization of 11 is 11 * 1.",  # PRMBench original, deception-prm_train_p1_181
    "She sells 1250 cups at $2 each, so she makes 1250 * 2 = 2500 dollars.",
    r"So $\frac{3}{4} \cdot 1200 = 900$, and $900 + 300 = 1200 = 4 \cdot 300$.",
    r"We get \(x = \frac{12 \cdot (5 + 1)}{4} = 18\), and \(-(3)^2 = -9\).",
    # a case split whose equations' results get boxed ("\\boxed{0}\\] or \\[")
    r"Setting each factor equal to zero gives us: \[x - 1 = 0\] or \[x^2 - 3x - 3 = 0\] From the first equation, we find: \[x = 1\]",
    r"The prime factorization of 1584 is: \[ 1584 = 2^4 \cdot 3^2 \cdot 11 \]",
]


def test_cited_rows_are_develop_rows():
    assert_develop({"olympiadbench-800", "omnimath-397"})


@pytest.mark.parametrize("text", CORRECT_STEPS)
def test_no_rewrite_of_a_correct_step_is_refuted(text):
    assert check_step(text, timeout_s=5.0).verdict != REFUTED
    for name, rewrite in REWRITES.items():
        rewritten = rewrite(text)
        verdict = check_step(rewritten, timeout_s=5.0)
        assert verdict.verdict != REFUTED, (name, rewritten, [c.as_dict() for c in verdict.failed])


def test_the_stress_counts_refutations_that_appear():
    # a rewrite that changes the meaning shows as a refutation that appeared (the count is
    # not blind): "2 + 2 = 4" with its thousands dropped is unchanged, with a digit swapped not
    wrong = {"swap": lambda t: t.replace("= 4", "= 5")}
    step = CorrectStep("hand", "1", 0, "", (), "So 2 + 2 = 4.")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("autolabel.quality.metamorphic.REWRITES", wrong)
        result = stress([step], workers=1)
    assert result.steps == 1 and result.appeared["swap"] == 1


@pytest.mark.parametrize(
    ("name", "before", "after"),
    [
        ("dfrac", r"$\frac{1}{2}$", r"$\dfrac{1}{2}$"),
        ("frac", r"$\tfrac{1}{2}$", r"$\frac{1}{2}$"),
        ("times", r"$2 \cdot 3$", r"$2 \times 3$"),
        ("star", r"$2 \times 3$", r"$2 * 3$"),
        ("left_right", r"$(1+2)$", r"$\left(1+2\right)$"),
        ("paren_delimiters", r"$x = 1$", r"\(x = 1\)"),
        ("dollar_delimiters", r"\(x = 1\)", r"$x = 1$"),
        ("thousands_added", "So 12345 + 1 = 12346", "So 12,345 + 1 = 12,346"),
        ("thousands_dropped", "So 12,345 + 1", "So 12345 + 1"),
        ("period", "So 2 + 2 = 4", "So 2 + 2 = 4."),
        ("split_chain", "$1 + 2 = 3 = 6/2$", "$1 + 2 = 3$. So $3 = 6/2$"),
        ("currency", "He has $5, and 3 * 5 = 15.", "He has $5, and 3 * 5 = $15."),
        ("no_left_right", r"$\left(1+2\right)$", "$(1+2)$"),
        ("thin_thousands", "$12345 + 1$", r"$12\,345 + 1$"),
        ("unicode_times", "So 3 * 4 = 12.", "So 3 \u00d7 4 = 12."),
        ("boxed", "$1 + 2 = 3$", r"$1 + 2 = \boxed{3}$"),
    ],
)
def test_rewrites_keep_the_meaning(name, before, after):
    assert REWRITES[name](before) == after
