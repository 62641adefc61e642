"""Floors and ceilings inside expressions (symbolic-1.7): "\\lfloor \\frac{100}{3} \\rfloor",
"\\left\\lceil 9.0909 \\right\\rceil", "\\left\\lfloor \\frac{4}{1} \\right\\rfloor +
\\left\\lfloor \\frac{3}{2} \\right\\rfloor = 4 + 1".

The parser reads a floor or a ceiling as one more operation on numbers, so every claim with
one is decided like any claim in numbers (kind arithmetic or chain), in a chain, a sum or a
product, not only "\\lfloor x \\rfloor = n" on its own (floors.py read that until 1.6, as kind
floor_ceiling).

The bracket's content is read by the same parser. Its decimals do not make the claim one
about decimals (the floor of 9.0909 is 10 whatever was rounded), unless the content is as
close to a whole number as a rounding of its decimals could be (within 0.001, or a unit in
the last digit written: "\\lfloor 2.9999 \\rfloor", "\\lceil 4.0 \\rceil"): then the value is
undefined and the claim stays undecided, as is a floor of an expression in letters.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Protocol

import sympy

from autolabel.symbolic import ast
from autolabel.symbolic.tokens import CMD, Token

NAMES = {"lfloor": "rfloor", "lceil": "rceil"}
_SIZES = {"right", "bigr", "Bigr", "biggr", "Biggr", "big", "Big", "bigg", "Bigg"}
ROUNDING = Fraction(1, 1000)
MAX_NESTING = 4  # brackets inside brackets: deeper is not read (and costs nothing to refuse)


class Parser(Protocol):
    """What parse_bracket uses of parser.Parser (which imports this module)."""

    i: int
    toks: list[Token]

    def inner(self, tokens: list[Token]) -> ast.Node: ...


class NotRead(Exception):
    """No closing bracket of the same kind."""


def parse_bracket(parser: Parser, name: str) -> ast.Floor:
    """After ``\\lfloor`` or ``\\lceil``: the content up to its closing bracket."""
    closer, depth, j = NAMES[name], 1, parser.i
    while j < len(parser.toks):
        tok = parser.toks[j]
        if tok.kind == CMD and tok.value == name:
            depth += 1
            if depth > MAX_NESTING:
                raise NotRead("brackets nested too deep")
        elif tok.kind == CMD and tok.value == closer:
            depth -= 1
            if depth == 0:
                break
        j += 1
    else:
        raise NotRead(f"no \\{closer}")
    end = j
    if end > parser.i and parser.toks[end - 1].kind == CMD and parser.toks[end - 1].value in _SIZES:
        end -= 1  # "\\right\\rfloor"
    node = parser.inner(parser.toks[parser.i : end])
    parser.i = j + 1
    return ast.Floor(node, ceiling=name == "lceil")


def value(node: ast.Floor, inner: sympy.Expr) -> sympy.Expr:
    """The floor or ceiling of ``inner`` (the content's exact value); ValueError where it is
    not a real number or a decimal inside may be a rounding of a whole number."""
    if not (inner.is_number and inner.is_real):
        raise ValueError("a floor of something other than a real number")
    decimals = [n.decimals for n in node.x.walk() if isinstance(n, ast.Num) and n.decimals]
    if decimals:
        # a decimal as close to a whole number as its rounding may be: "\\lceil 4.0 \\rceil"
        # (4.02 rounded), "\\lfloor 2.9999 \\rfloor"
        near = max(ROUNDING, Fraction(1, 10 ** max(decimals)))
        nearest = sympy.Integer(round(inner))
        if abs(inner - nearest) <= sympy.Rational(near.numerator, near.denominator):
            raise ValueError("a decimal next to a whole number may be a rounding")
    result = sympy.ceiling(inner) if node.ceiling else sympy.floor(inner)
    if not result.is_Integer:
        raise ValueError("could not take the floor")
    return result


__all__ = ["NAMES", "NotRead", "parse_bracket", "value"]
