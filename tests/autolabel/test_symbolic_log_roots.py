"""Issue 25, round 16: an exponential equation solved by a logarithm
(autolabel/symbolic/log_roots.py, kind solving).

Develop-part row: omnimath-50 step 1, its labelled first error ("Since $2^x = 3$, then
$3x = \\log_2{3}$": the root is log_2 3, not a third of it). True solutions of the same
shapes hold (either order, a coefficient, a shifted exponent, logs of another base, ln);
two exponentials, a power of e, a letter outside the exponent, "\\log 3" (10 or e?),
a rounded decimal and an equation with no real root read nothing.
"""

import pytest
import sympy

from autolabel.symbolic import check_step
from autolabel.symbolic.log_roots import compare_roots, exponential_root, linear_root
from autolabel.symbolic.verdicts import REFUTED
from tests.autolabel.develop_rows import assert_develop, failed_kinds

DEVELOP_ROWS = {"omnimath-50"}

OMNIMATH_50_STEP_1 = (
    r"Now, recall that $2^x = 3$. We need to express $6x + 4$ in terms of $x$ so we can use "
    r"this information. Notice that: \[6x = 2 \cdot 3x\] Since $2^x = 3$, then "
    r"$3x = \log_2{3}$ (by definition of logarithms). Therefore: \[6x = 2 \cdot \log_2{3}\]"
)

# (true step, its false twin)
PAIRS = [
    (
        r"Since $2^x = 3$, then $x = \log_2{3}$ by definition.",
        r"Since $2^x = 3$, then $3x = \log_2{3}$ by definition.",
    ),
    (
        r"We have $5^{2x} = 7$, so $2x = \log_5 7$.",
        r"We have $5^{2x} = 7$, so $2x = \log_7 5$.",
    ),
    (
        r"We have $3 \cdot 2^{x+1} = 12$, so $x + 1 = \log_2 4$.",
        r"We have $3 \cdot 2^{x+1} = 12$, so $x + 1 = \log_2 12$.",
    ),
    (
        r"We have $2^x = 3$, so $x \ln 2 = \ln 3$.",
        r"We have $2^x = 3$, so $x \ln 3 = \ln 2$.",
    ),
    (
        r"We have $10^{x} - 4 = 3$, then $x = \log_{10} 7$.",
        r"We have $10^{x} - 4 = 3$, then $x = \log_{10} 3$.",
    ),
    (
        r"We have $\left(\frac{1}{2}\right)^{x} = 5$, then $-x = \log_2 5$.",
        r"We have $\left(\frac{1}{2}\right)^{x} = 5$, then $x = \log_2 5$.",
    ),
]

NOT_DECIDED = [
    r"We have $2^x = 3^{x+1}$, so $x \ln 2 = (x + 1) \ln 3$.",  # two powers
    r"We have $e^x = 3$, so $2x = \ln 3$.",  # a power of e
    r"We have $x 2^x = 3$, so $x = \log_2 3$.",  # a letter outside the exponent
    r"We have $2^x = 3$, so $x = \log 3$.",  # base 10 or e?
    r"We have $2^x = 3$, so $x = 1.6$.",  # a rounded root
    r"We have $2^x = 3$, so $3x \approx 4.75$.",
    r"We have $2^x = -3$, then $2x = \log_2 3$.",  # no real root
    r"If $2^x = 3$, then $3x = \log_2 3$ would be wrong.",
]


def test_the_cited_rows_are_in_the_develop_part():
    assert_develop(DEVELOP_ROWS)


def test_omnimath_50_step_1_is_refuted_by_solving():
    assert failed_kinds(OMNIMATH_50_STEP_1) == {"solving"}
    right = OMNIMATH_50_STEP_1.replace("then $3x = ", "then $x = ").replace(
        r"\[6x = 2 \cdot \log_2{3}\]", r"\[6x = 6 \cdot \log_2{3}\]"
    )
    verdict = check_step(right, timeout_s=5.0)
    assert verdict.verdict != REFUTED, [c.as_dict() for c in verdict.failed]


@pytest.mark.parametrize("true, false", PAIRS)
def test_a_log_solving_an_exponential_is_decided(true, false):
    verdict = check_step(true, timeout_s=5.0)
    assert verdict.verdict != REFUTED, [c.as_dict() for c in verdict.failed]
    assert any(c.kind == "solving" and c.holds for c in verdict.claims), verdict.claims
    assert "solving" in (failed_kinds(false) or set())


@pytest.mark.parametrize("text", NOT_DECIDED)
def test_other_shapes_are_not_refuted(text):
    verdict = check_step(text, timeout_s=5.0)
    assert verdict.verdict != REFUTED, [c.as_dict() for c in verdict.failed]


def test_the_roots_themselves():
    x = sympy.Symbol("x")
    assert exponential_root(2**x - 3, x) == sympy.log(3, 2)
    assert exponential_root(3 * 2 ** (2 * x + 1) - 6, x) == 0
    assert exponential_root(2**x + 3, x) is None  # no real root
    assert exponential_root(x * 2**x - 3, x) is None
    assert exponential_root(sympy.E**x - 3, x) is None
    assert linear_root(3 * x - sympy.log(3, 2), x) == sympy.log(3, 2) / 3
    assert linear_root(x**2 - 2, x) is None
    assert compare_roots(2**x - 3, x * sympy.log(2) - sympy.log(3), x)[0] is True
    assert compare_roots(x * sympy.log(2) - sympy.log(3), 2**x - 3, x)[0] is True
    assert compare_roots(2**x - 3, 3 * x - sympy.log(3, 2), x)[0] is False
    assert compare_roots(2**x - 3, 3**x - 2, x) is None
