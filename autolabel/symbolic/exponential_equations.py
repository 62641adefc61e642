"""Equations with letters in exponents (``2^{x+1} + 2^x = 24``), rewritten: the same equation
or not (issue 25, round 15; kinds rearranging and rewriting, rewriting.same_equation).

A power of a number to a letter is written over primes and one letter at a time:
``12^{2x + 1} = 12 (2^x)^4 (3^x)^2``. Each ``p^x`` is a new letter (positive, and independent
of the others as polynomials go), so an equation in such powers only (no letter outside an
exponent) becomes a polynomial equation in them and is compared by its numerator
(equation_numerators.py): ``3^{x+2} + 2^x(2^2 + 1) = 3^x(3^2) + 2^{x+5}`` is
``9u + 5v = 9u + 32v``, not the equation ``9u + 5v = u + 32v`` it rewrites. Read nothing where
a letter stands outside an exponent (``x + 1 = 3`` after taking a log changes the letters:
undecided), where an exponent is not a whole multiple of one letter plus a number, or where a
base is not a positive rational number.
"""

from __future__ import annotations

import sympy

MAX_POWER = 24  # of one letter p^x in a term: a larger exponent is read as nothing (slow)


def exponential(f: sympy.Expr) -> bool:
    """``f`` holds a power whose exponent has a letter."""
    return any(p.exp.free_symbols for p in f.atoms(sympy.Pow))


def _power(base: sympy.Expr, exponent: sympy.Expr) -> sympy.Expr | None:
    """``base^exponent`` over the letters ``p^x`` (None where it cannot be written so)."""
    if not (base.is_Rational and base > 0 and base != 1):
        return None
    exponent = sympy.expand(exponent)
    constant, rest = exponent.as_independent(*exponent.free_symbols, as_Add=True)
    value = base**constant
    for term in sympy.Add.make_args(rest):
        coefficient, letter = term.as_independent(*term.free_symbols, as_Add=False)
        if not (letter.is_Symbol and coefficient.is_Integer):
            return None
        for prime, multiplicity in sympy.factorrat(base).items():
            power = multiplicity * coefficient
            if abs(power) > MAX_POWER:
                return None
            value *= sympy.Symbol(f"{prime}^{letter}", positive=True) ** power
    return value


def over_prime_powers(f: sympy.Expr) -> tuple[sympy.Expr, set[sympy.Symbol]] | None:
    """``f`` with each power to a letter written over the letters ``p^x``, and those letters;
    None where a letter is left outside an exponent or a power cannot be written so."""
    replaced: dict[sympy.Expr, sympy.Expr] = {}
    for power in f.atoms(sympy.Pow):
        if power.exp.free_symbols:
            value = _power(power.base, power.exp)
            if value is None:
                return None
            replaced[power] = value
    g = f.xreplace(replaced)
    letters = {s for s in g.free_symbols if "^" in s.name}
    if not letters or g.free_symbols != letters:
        return None
    return g, letters
