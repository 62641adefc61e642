"""A square root of an expression in letters, kept whole through a rewrite, is one more letter
(issue 25, round 16; kinds rewriting and rearranging, rewriting.same_equation).

"$12x^2 - 32x - 7 + 2\\sqrt{Q} = 9$. Rearrange terms to isolate the radical: $2\\sqrt{Q} =
16 - 12x^2 + 32x + 7$" (Q a polynomial in x) moves terms around a root that stays as it is;
written with a letter ``u`` for the root, the two equations are compared as polynomial
equations are (``12x^2 - 32x - 16 + 2u = 0`` against ``2u + 12x^2 - 32x - 23 = 0``: no
constant factor relates them).

Read only where the root cannot be worked on: the same roots of letters stand in both
equations, each to the first power with a constant coefficient (``2\\sqrt{Q}``, not
``x\\sqrt{Q}`` nor ``\\sqrt{Q}^2``: multiplying by the root or squaring it uses ``u^2 = Q``,
which the letter does not know), and no other power with a fractional exponent of a letter
is left. Else nothing is read, as before.
"""

from __future__ import annotations

import sympy


def _radicals(f: sympy.Expr) -> set[sympy.Expr]:
    return {p for p in f.atoms(sympy.Pow) if p.exp == sympy.Rational(1, 2) and p.base.free_symbols}


def _fractional_powers(f: sympy.Expr) -> bool:
    return any(
        p.exp.is_Rational and not p.exp.is_Integer and p.base.free_symbols
        for p in f.atoms(sympy.Pow)
    )


def _linear_in(f: sympy.Expr, letter: sympy.Symbol) -> bool:
    """``f`` is ``A + c letter`` with ``c`` a nonzero number and ``A`` free of the letter."""
    expanded = sympy.expand(f)
    coefficient = expanded.coeff(letter, 1)
    rest = sympy.expand(expanded - coefficient * letter)
    return bool(coefficient.is_number and coefficient != 0 and letter not in rest.free_symbols)


def radicals_as_letters(f: sympy.Expr, g: sympy.Expr) -> tuple[sympy.Expr, sympy.Expr] | None:
    """``f`` and ``g`` with each square root of letters written as a new letter, where the two
    hold the same roots, each linearly with a constant coefficient; None otherwise."""
    roots = _radicals(f)
    if not roots or roots != _radicals(g):
        return None
    letters = {root: sympy.Dummy(f"sqrt{n}") for n, root in enumerate(sorted(roots, key=str))}
    f_read, g_read = f.xreplace(letters), g.xreplace(letters)
    if _fractional_powers(f_read) or _fractional_powers(g_read):
        return None
    if not all(_linear_in(h, u) for h in (f_read, g_read) for u in letters.values()):
        return None
    return f_read, g_read


__all__ = ["radicals_as_letters"]
