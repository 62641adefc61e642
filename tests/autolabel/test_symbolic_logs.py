# ruff: noqa: E501 -- exact copies of real step texts, one literal per text
"""Logarithms of numbers (symbolic-1.7, autolabel/symbolic/logs.py): exact values, so a claim
with one is decided like any claim in numbers (kind arithmetic or chain). Read only with a
written base ("\\log_2", "\\ln"), numbers for base and argument, and an argument that cannot
go on; identities in letters are never decided.

Texts with a ProcessBench id are exact copies of steps from the develop part of
shared/data/processbench_dev.jsonl (test_rows_are_develop checks the part): the false one is
a first error, the true ones correct steps.
"""

import pytest

from autolabel.symbolic import check_step
from autolabel.symbolic.verdicts import VERIFIED
from tests.autolabel.develop_rows import assert_develop, failed_kinds

# the exponent (6(4/3 L + 1) + 2)/4 is 2L + 2, not 2L + 3
MATH_134_1 = "Now, we have that \\begin{align*} \\left(\\sqrt[4]{11}\\right)^{6x+2} &= 11^{(6x+2)/4} \\\\ &= 11^{(6(\\frac{4}{3}\\log_{11}5^{-1} + 1) + 2)/4} \\\\ &= 11^{2\\log_{11}5^{-1} + 3} \\\\ &= 11^{2\\log_{11}5^{-1}} \\cdot 11^3 \\\\ &= (11^{\\log_{11}5^{-1}})^2 \\cdot 11^3 \\\\ &= (5^{-1})^2 \\cdot 11^3 \\\\ &= \\frac{11^3}{25} \\\\ &= \\boxed{\\frac{1331}{25}}. \\end{align*}"
OLYMPIADBENCH_808_1 = "Second, convert all logarithms to base 2. Since the bases of the logarithms in the original expression are 4 and 16, and we have a base 2 exponent, we'll convert all logs to base 2 for simplicity. For \\(\\log_{4}{T}\\), since \\(4 = 2^2\\), we have \\(\\log_4{T} = \\frac{\\log_2{T}}{\\log_2{4}} = \\frac{\\log_2{T}}{2}\\). For \\(\\log_{16}{64}\\), since \\(16 = 2^4\\) and \\(64 = 2^6\\), we have \\(\\log_{16}{64} = \\frac{\\log_2{64}}{\\log_2{16}} = \\frac{6}{4} = \\frac{3}{2}\\)."
OLYMPIADBENCH_14_0 = "To solve this problem, let's start by simplifying each of the logarithmic expressions using properties of logarithms and the change of base formula. First, recall that \\(\\log_{a}b = \\frac{\\log_{c}b}{\\log_{c}a}\\) for any positive \\(a\\), \\(b\\), and base \\(c\\). We'll use this to convert all logarithms to the same base for easier manipulation. Let's choose base 2 since it appears naturally in our logarithms (and remember that \\(\\log_{2}4 = 2\\) and \\(\\log_{2}8 = 3\\))."
OLYMPIADBENCH_797_6 = "Since \\(\\log_4 2 = \\frac{1}{2}\\), the equation simplifies to:\n\\[\\left\\lfloor8641\\log _{4}2\\right\\rfloor = \\left\\lfloor8641 \\times \\frac{1}{2}\\right\\rfloor = \\left\\lfloor\\frac{8641}{2}\\right\\rfloor = \\left\\lfloor4320.5\\right\\rfloor = 4320\\]"

REFUTED_CASES = [
    ("math-134", MATH_134_1, {"arithmetic"}),  # align rows are read one link at a time
    ("", r"\( \log_2 8 = 4 \)", {"arithmetic"}),
    ("", r"\( \log_{10}{2^{1990}} = 596.97 \)", {"arithmetic"}),
    ("", r"\( \log_3 81 + \log_3 3 = 4 + 1 = 6 \)", {"chain"}),
    ("", r"\( \ln 1 = 1 \)", {"arithmetic"}),
    ("", r"\( \log_2 3 = 1.5 \)", {"arithmetic"}),
]

NOT_REFUTED = [
    ("olympiadbench-808", OLYMPIADBENCH_808_1),
    ("olympiadbench-14", OLYMPIADBENCH_14_0),
    ("olympiadbench-797", OLYMPIADBENCH_797_6),
    # roundings of irrational values, and the same value written another way
    ("", r"\( \log_{10}{2^{1990}} = 599.05 \)"),
    ("", r"\( \log_{10} 2 = 0.301 \) and \( \ln(1.05) = 0.04879016416943231 \)"),
    ("", r"\( \log_2 3 = \frac{1}{\log_3 2} \) and \( 2^{\log_2 5} = 5 \)"),
    ("", r"\( \log_{\frac{1}{3}}(1) = 0 \)"),
    # no base written (10 or e?), a letter, an argument that may go on, a power, undefined
    ("", r"\( \log 100 = 1 \)"),
    ("", r"\( \log_2 x = 3 \)"),
    ("", r"\( \log_b(xy) = \log_b x - \log_b y \)"),
    ("", r"\( \log_2 8x = 3 \)"),
    ("", r"\( \log^2_2 8 = 3 \)"),
    ("", r"\( \log_2 0 = 1 \)"),
    ("", r"\( \log_1 5 = 2 \)"),
    # an approximation is not an equality
    ("", r"\( \log_{10}{2^{1990}} \approx 596.97 \)"),
]


@pytest.mark.parametrize(("row", "text", "kinds"), REFUTED_CASES)
def test_false_logarithm_is_refuted(row, text, kinds):
    assert failed_kinds(text) == kinds


@pytest.mark.parametrize(("row", "text"), NOT_REFUTED)
def test_true_or_unread_logarithm_is_not_refuted(row, text):
    assert failed_kinds(text) is None


def test_logarithm_values_are_exact():
    verdict = check_step(r"\( \log_2 1024 = 10 \)", timeout_s=5.0)
    assert verdict.verdict == VERIFIED
    assert verdict.claims[0].lhs_value == "10"


def test_rows_are_develop():
    assert_develop({row for row, *_ in REFUTED_CASES + NOT_REFUTED if row})
