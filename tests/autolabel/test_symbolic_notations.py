"""Issue 25, round 9 (symbolic-1.12): notations found by probing true statements.

Residue symbols: in number theory ``\\left(\\frac{a}{p}\\right)`` is the Legendre (Jacobi,
Kronecker) symbol, 1, -1 or 0. symbolic-1.11 refuted every statement below as arithmetic or
chain (3/7 ≠ -1), both earned kinds. Where the step or the problem speaks of such symbols the
chain says nothing the checker reads; elsewhere the same writing is still arithmetic.
"""

import pytest

from autolabel.symbolic import check_step, check_step_local
from autolabel.symbolic.verdicts import REFUTED
from tests.autolabel.develop_rows import failed_kinds

RESIDUE_SYMBOLS = [
    r"By quadratic reciprocity, $\left(\frac{3}{7}\right) = -\left(\frac{7}{3}\right) = -\left(\frac{1}{3}\right) = -1$.",  # noqa: E501
    r"The Legendre symbol $\left( \frac{3}{11} \right) = 1$ and $\left(\frac{2}{11}\right) = -1$.",
    r"Using the Jacobi symbol, $\left(\frac{2}{15}\right) = \left(\frac{2}{3}\right)\left(\frac{2}{5}\right) = (-1)(-1) = 1$.",  # noqa: E501
    r"$(\frac{3}{7}) = -1$, so 3 is a quadratic non-residue.",
    r"Since 7 is a quadratic residue of 3, $(7/3) = 1$.",
    r"$\left(\dfrac{5}{7}\right) = -1$ by the Kronecker symbol's rule.",
]


@pytest.mark.parametrize("text", RESIDUE_SYMBOLS)
def test_a_residue_symbol_is_no_fraction(text):
    verdict = check_step(text, timeout_s=5.0)
    assert verdict.verdict != REFUTED, [c.as_dict() for c in verdict.failed]


def test_the_problem_may_set_the_residue_setting():
    problem = "Compute the Legendre symbol of 3 over the prime 7."
    verdict = check_step_local(r"$\left(\frac{3}{7}\right) = -1$", (), problem)
    assert verdict.verdict != REFUTED


@pytest.mark.parametrize(
    ("text", "kinds_"),
    [
        # no residue setting: a parenthesized fraction is a fraction
        (r"$\left(\frac{3}{7}\right) = -1$", {"arithmetic"}),
        (r"$\left(\frac{3}{6}\right) = \frac{1}{3}$", {"arithmetic"}),
        (r"$\left(\frac{1}{2}\right)^2 = \frac{1}{8}$", {"arithmetic"}),
        # in the setting, a chain without such a symbol is still read
        (r"By quadratic reciprocity, $\frac{7 - 1}{2} \cdot \frac{3 - 1}{2} = 4$.", {"arithmetic"}),
    ],
)
def test_fractions_outside_the_setting_are_still_read(text, kinds_):
    assert failed_kinds(text) == kinds_
