"""Two equations of different degrees, or with letters in a denominator: the same equation or
not, by their numerators (issue 25, "more recall, still precise": equation rewrites in
several letters).

``rewriting.same_equation`` decides two polynomial equations of one degree (the same equation
up to a constant factor). Rewrites that clear a denominator ("$\\frac{4}{a^2} -
\\frac{144}{b^2} = 1$, we can rewrite this equation as $4b^2 - 144a^2 = a^2b^2$") or that
cancel the highest terms ("combine like terms" after expanding a cube) change the degree or
leave the polynomials. Write each equation as ``f = 0`` with ``f`` a fraction in lowest terms
``N / D`` (sympy.cancel); both numerators must be polynomials with rational coefficients in
the equations' letters (a root, a power with a letter in its exponent, a logarithm or an
irrational coefficient reads nothing). Then:

- ``N_f / N_g`` a nonzero constant: the same equation (clearing a denominator keeps the
  numerator: "$x + \\frac{1}{x} = 2$ becomes $x^2 + 1 = 2x$");
- one numerator a multiple of the other: a factor multiplied or divided on both sides
  ("dividing both sides by $x$", "squaring", "taking the square root"), undecided;
- either numerator 0 (an identity) or both constant: undecided;
- else the rewrite fails: no operation on both sides by one expression relates them, and a
  nonconstant numerator against a nonzero constant one turns an equation with solutions
  into one without ("$33 + 14b + b^2 = 25 + 10b + b^2$. Simplifying, $8 = 4b - 4b$").
"""

from __future__ import annotations

import sympy

from autolabel.symbolic.compare import Decision


def numerator(f: sympy.Expr, symbols: list[sympy.Symbol]) -> sympy.Poly | None:
    """The numerator of ``f`` in lowest terms as a polynomial over QQ, or None."""
    try:
        top, bottom = sympy.fraction(sympy.cancel(sympy.together(f)))
        sympy.Poly(bottom, *symbols, domain=sympy.QQ)
        return sympy.Poly(top, *symbols, domain=sympy.QQ)
    except (sympy.PolynomialError, sympy.CoercionFailed, sympy.GeneratorsNeeded):
        return None


def numerators_compared(
    f: sympy.Expr, g: sympy.Expr, symbols: list[sympy.Symbol], shown: tuple[str, str], kind: str
) -> Decision:
    """``f = 0`` against ``g = 0`` by their numerators (see the module's docstring)."""
    if not symbols:
        return Decision(None, "no letters", *shown, kind)
    nf, ng = numerator(f, symbols), numerator(g, symbols)
    if nf is None or ng is None:
        return Decision(None, "not two rational equations with rational coefficients", *shown, kind)
    if nf.is_zero or ng.is_zero:
        return Decision(None, "an identity", *shown, kind)
    constant_f, constant_g = nf.is_ground, ng.is_ground
    if constant_f and constant_g:
        return Decision(None, "no letter left in either numerator", *shown, kind)
    if constant_f or constant_g:
        return Decision(
            False, "not the same equation: one has solutions, the other none", *shown, kind
        )
    quotient, remainder = nf.div(ng)
    if remainder.is_zero and quotient.is_ground:
        return Decision(True, f"the same equation (factor {quotient.as_expr()})", *shown, kind)
    if remainder.is_zero or ng.div(nf)[1].is_zero:
        return Decision(None, "a factor multiplied or divided on both sides", *shown, kind)
    return Decision(
        False, "not the same equation: no factor on both sides relates them", *shown, kind
    )
