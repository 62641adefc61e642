"""Logarithms of numbers (symbolic-1.7): "\\log_2 8 = 3", "\\log_{10}{2^{1990}} = 599.05",
"\\ln(1.05) = 0.0488", "11^{2\\log_{11}5^{-1} + 3}".

Read only where the reading is certain, else the side stays unparsed as before:

* the base is written: "\\log_{b}" with b a positive number other than 1, or "\\ln" (base e);
  "\\log 100" (base 10, or e?) is not read;
* the base and the argument are numbers only (no letter, so no identity about logarithms
  such as "\\log_b(xy) = \\log_b x + \\log_b y" is ever decided here; a sum's index stands for
  numbers), and the argument is positive;
* the argument ends where TeX's would: a group, a parenthesis, or one power-level term
  ("\\log_{11}5^{-1}" is the logarithm of 1/5); anything that would continue it by
  juxtaposition ("\\log_2 3 5", "\\log_2 8x") is not read;
* no power on the function ("\\log^2_2 8" is not read).

Values are exact (sympy), so a claim is decided like any other number (kind arithmetic or
chain); a decimal written for a logarithm is a rounding, as for any irrational value.
"""

from __future__ import annotations

from typing import Protocol

import sympy

from autolabel.symbolic import ast
from autolabel.symbolic.tokens import CMD, IDENT, LB, LP, NUM, POW, SUB, Token

NAMES = frozenset({"log", "ln"})


class Parser(Protocol):
    """What parse_log uses of parser.Parser (which imports this module)."""

    i: int
    bound: frozenset[str]

    def peek(self, k: int = 0) -> Token | None: ...

    def script_arg(self) -> ast.Node: ...

    def power(self) -> ast.Node: ...


class NotRead(Exception):
    """The logarithm's base or argument is not one this module reads with certainty."""


def parse_log(parser: Parser, name: str) -> ast.Log:
    """After the command ``\\log`` or ``\\ln``: its base and its argument."""
    base: ast.Node | None = None
    tok = parser.peek()
    if name == "log":
        if tok is None or tok.kind != SUB:
            raise NotRead("no base written (10 or e?)")
        parser.i += 1
        base = parser.script_arg()
    tok = parser.peek()
    if tok is None:
        raise NotRead("no argument")
    if tok.kind == POW:
        raise NotRead("a power of the logarithm")
    argument = parser.script_arg() if tok.kind == LB else parser.power()
    after = parser.peek()
    if after is not None and (
        after.kind in (NUM, IDENT, LP, LB) or (after.kind == CMD and after.value not in NAMES)
    ):
        raise NotRead("the argument may go on ('\\log_2 8x')")
    letters = [base, argument] if base is not None else [argument]
    for part in letters:
        if any(isinstance(n, ast.Sym) and n.name not in parser.bound for n in part.walk()):
            raise NotRead("a base or an argument with a letter")
    return ast.Log(argument, base)


def value(argument: sympy.Expr, base: sympy.Expr | None) -> sympy.Expr:
    """The exact logarithm; ValueError where it is undefined or not read."""
    if not (argument.is_number and argument.is_real and argument.is_positive):
        raise ValueError("a logarithm of a number that is not positive")
    if base is None:
        return sympy.log(argument)
    if not (base.is_number and base.is_real and base.is_positive) or base == 1:
        raise ValueError("a base that is not a positive number other than 1")
    return sympy.log(argument, base)


__all__ = ["NAMES", "NotRead", "parse_log", "value"]
