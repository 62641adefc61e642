"""An exponential equation solved by a logarithm (issue 25, round 16; kind solving):
"$2^x = 3$, then $3x = \\log_2 3$" fails (the root is log_2 3, the next has (log_2 3)/3).

solving.py pairs two equations in one letter and compares their numerators as polynomials
with rational coefficients; these pairs are not polynomial. Read here, and only here, a pair
where one equation is exponential in one power and the other is linear:

* exponential: ``c b^{m x + n} + d = 0`` after moving terms, with one power of the letter,
  ``b`` a positive rational number other than 1, ``c``, ``d``, ``m``, ``n`` rational, ``c`` and
  ``m`` not 0 and ``-d/c`` positive: its one real root is ``(log_b(-d/c) - n) / m``; its other
  roots are not real (``+ 2πik / (m ln b)``);
* linear: ``α x + β = 0`` with real numbers ``α ≠ 0`` and ``β`` (logarithms of numbers, roots,
  fractions), so its one root is real and the only root of the exponential it can share.

The pair fails when the two roots differ (evaluated to 30 digits, a gap above 10^-15), holds
when sympy finds their difference 0, and reads nothing otherwise. Two exponentials (their
complex roots), a letter outside the exponent ("x 2^x = 3"), a power of e or of a letter, and
a base log that logs.py does not read ("\\log 3": 10 or e?) read nothing; written decimals
(a rounded root) are left to solving.py's caller, which reads nothing then.
"""

from __future__ import annotations

import sympy

DIGITS = 30
GAP = sympy.Rational(1, 10**15)


def _rational(value: sympy.Expr) -> bool:
    return bool(value.is_Rational)


def exponential_root(f: sympy.Expr, x: sympy.Symbol) -> sympy.Expr | None:
    """The one real root of ``f = 0`` read as ``c b^{m x + n} + d = 0`` (see the docstring)."""
    powers = [p for p in f.atoms(sympy.Pow) if x in p.exp.free_symbols]
    if len(powers) != 1 or x in powers[0].base.free_symbols:
        return None
    power = powers[0]
    base, exponent = power.base, sympy.expand(power.exp)
    if not (_rational(base) and base > 0 and base != 1):
        return None
    m, n = exponent.coeff(x, 1), exponent.coeff(x, 0)
    if not (_rational(m) and _rational(n) and m != 0 and sympy.expand(exponent - m * x - n) == 0):
        return None
    u = sympy.Dummy("u")
    g = sympy.expand(f.xreplace({power: u}))
    if x in g.free_symbols or g.free_symbols != {u}:
        return None
    c, d = g.coeff(u, 1), g.coeff(u, 0)
    if not (_rational(c) and _rational(d) and c != 0 and sympy.expand(g - c * u - d) == 0):
        return None
    value = -d / c
    if value <= 0:
        return None
    return (sympy.log(value, base) - n) / m


def linear_root(f: sympy.Expr, x: sympy.Symbol) -> sympy.Expr | None:
    """The root of ``f = 0`` when ``f`` is ``α x + β`` with real numbers ``α ≠ 0`` and ``β``."""
    f = sympy.expand(f)
    if f.free_symbols != {x}:
        return None
    alpha = f.coeff(x, 1)
    beta = sympy.expand(f - alpha * x)
    if alpha.free_symbols or beta.free_symbols:
        return None
    if not (alpha.is_real and beta.is_real and alpha.is_number and beta.is_number):
        return None
    if alpha.evalf(DIGITS) == 0:
        return None
    return -beta / alpha


def compare_roots(
    f: sympy.Expr, g: sympy.Expr, x: sympy.Symbol
) -> tuple[bool | None, str, str] | None:
    """Whether ``f = 0``, then ``g = 0`` keeps the root, for an exponential and a linear
    equation (either order): (holds, root of f, root of g); None where the pair is not one."""
    first = exponential_root(f, x)
    second = linear_root(g, x) if first is not None else None
    if first is None or second is None:
        second = exponential_root(g, x)
        first = linear_root(f, x) if second is not None else None
    if first is None or second is None:
        return None
    shown = (f"root {sympy.sstr(first)}", f"root {sympy.sstr(second)}")
    gap = abs(sympy.N(first - second, DIGITS))
    if not gap.is_number or not gap.is_real:
        return None
    if gap > GAP:
        return False, *shown
    if sympy.simplify(first - second) == 0:
        return True, *shown
    return None


__all__ = ["compare_roots", "exponential_root", "linear_root"]
