"""Finite sums and products with bounds in numbers: "\\sum_{k=1}^{44} \\cos (8k^\\circ) = -1",
"\\sum_{k=1}^{49} k^2 = \\frac{49 \\cdot 50 \\cdot 99}{6}", "\\prod_{k=1}^{5} k = 120".

Read only where the reading is certain, else the side stays unparsed as before:

* the index is one plain letter, both bounds are whole numbers written in numbers
  (``_{k=1}^{44}`` or ``^{44}_{k=1}``), and there are at most MAX_TERMS terms; an empty
  range ("\\sum_{k=5}^{4}") is not read;
* the summand is what TeX's convention gives it: the term that follows, up to the next
  ``+`` or ``-`` at its level; a term after it is read only when it holds a sum of its own
  ("\\sum_{k=1}^{44} 1 - \\sum_{k=1}^{44} \\cos(8k^\\circ)"): after "\\sum_{i=1}^{10} i + 1"
  the writer may mean i + 1 inside the sum, and the side is not read;
* the summand has no letter but the index ("\\sum_{i=1}^4 x_i", "\\sum_{k=1}^{n}" and
  "\\sum_{k=1}^{20} f(k)" are not read: no identity about sums is decided here);
* an angle in the summand needs its unit as for any trigonometric value (trig.py:
  "\\cos (8k^\\circ)" is read, "\\cos 4x" with degrees only implied is not).

The value is exact: each term is evaluated with the index replaced by its number, so a claim
with a sum is decided like any other claim in numbers (kind arithmetic or chain).
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Protocol

from autolabel.symbolic import ast
from autolabel.symbolic.tokens import (
    CMD,
    IDENT,
    LB,
    LP,
    NUM,
    OP,
    POW,
    RB,
    REL,
    RP,
    SPACE,
    SUB,
    Token,
)

NAMES = frozenset({"sum", "prod"})
MAX_TERMS = 2_000


class Parser(Protocol):
    """What parse_sum uses of parser.Parser (which imports this module)."""

    i: int
    toks: list[Token]
    bound: frozenset[str]

    def peek(self, k: int = 0) -> Token | None: ...

    def term(self) -> ast.Node: ...


class NotRead(Exception):
    """The sum's index, bounds or summand are not ones this module reads with certainty."""


def parse_sum(parser: Parser, name: str) -> ast.Sum:
    """After the command ``\\sum`` or ``\\prod``: its limits and its summand."""
    index, low, high = None, None, None
    for _ in range(2):
        tok = parser.peek()
        if tok is not None and tok.kind == SUB and index is None:
            parser.i += 1
            index, low = _lower_limit(_script(parser))
        elif tok is not None and tok.kind == POW and high is None:
            parser.i += 1
            high = _whole(_script(parser))
    if index is None or low is None or high is None:
        raise NotRead("limits not both written in numbers")
    if not 0 < high - low + 1 <= MAX_TERMS:
        raise NotRead("an empty range or too many terms")
    outer = parser.bound
    parser.bound = outer | {index}
    try:
        body = parser.term()
    finally:
        parser.bound = outer
    free = {n.name for n in body.walk() if isinstance(n, ast.Sym)} - {index}
    if free:
        raise NotRead("a summand with another letter than the index")
    if _summand_may_go_on(parser):
        raise NotRead("a term after the summand: is it inside the sum?")
    return ast.Sum(name, index, low, high, body)


def _script(parser: Parser) -> list[Token]:
    """The tokens of a script: a {group}, or one token."""
    tok = parser.peek()
    if tok is None:
        raise NotRead("missing limit")
    if tok.kind != LB:
        parser.i += 1
        return [tok]
    depth, start = 0, parser.i + 1
    while (tok := parser.peek()) is not None:
        parser.i += 1
        if tok.kind == LB:
            depth += 1
        elif tok.kind == RB:
            depth -= 1
            if depth == 0:
                return parser.toks[start : parser.i - 1]
    raise NotRead("unclosed limit")


def _lower_limit(tokens: list[Token]) -> tuple[str, int]:
    """``k=1`` (or ``k = -2``): the index and its first value."""
    tokens = [t for t in tokens if t.kind != SPACE]
    if len(tokens) < 3 or tokens[0].kind != IDENT or tokens[1].kind != REL:
        raise NotRead("a lower limit other than 'letter = number'")
    if tokens[1].value != "=" or len(tokens[0].value) != 1:
        raise NotRead("a lower limit other than 'letter = number'")
    return tokens[0].value, _whole(tokens[2:])


def _whole(tokens: list[Token]) -> int:
    tokens = [t for t in tokens if t.kind != SPACE]
    sign = 1
    if len(tokens) == 2 and tokens[0].kind == OP and tokens[0].value == "-":
        sign, tokens = -1, tokens[1:]
    if len(tokens) != 1 or tokens[0].kind != NUM or tokens[0].decimals is not None:
        raise NotRead("a limit that is not a whole number")
    number = tokens[0].number
    if number is None or number.denominator != 1:
        raise NotRead("a limit that is not a whole number")
    return sign * number.numerator


def _summand_may_go_on(parser: Parser) -> bool:
    """A ``+`` or ``-`` after the summand, and the term after it holds no sum of its own:
    "\\sum_{i=1}^{10} i + 1" may mean the sum of i + 1. "\\sum_{k=1}^{44} 1 - \\sum_{k=1}^{44}
    \\cos(8k^\\circ)" is two sums."""
    tok = parser.peek()
    if tok is None or tok.kind != OP or tok.value not in "+-":
        return False
    depth, j = 0, parser.i + 1
    while j < len(parser.toks):
        tok = parser.toks[j]
        if tok.kind in (LB, LP):
            depth += 1
        elif tok.kind in (RB, RP):
            depth -= 1
            if depth < 0:
                return True
        elif tok.kind == CMD and tok.value in NAMES:
            return False
        elif depth == 0 and tok.kind == OP and tok.value in "+-" and j > parser.i + 1:
            return True
        j += 1
    return True


def terms(node: ast.Sum) -> list[ast.Node]:
    """The summand with the index replaced by each of its values, in order."""
    return [_substitute(node.body, node.index, k) for k in range(node.low, node.high + 1)]


def _substitute(node: ast.Node, name: str, value: int) -> ast.Node:
    if isinstance(node, ast.Sym):
        return ast.Num(Fraction(value), None, str(value)) if node.name == name else node
    if isinstance(node, ast.Sum) and node.index == name:
        return node  # an inner sum over the same letter binds its own
    changes = {
        f.name: _substitute(getattr(node, f.name), name, value)
        for f in dataclasses.fields(node)  # type: ignore[arg-type]
        if isinstance(getattr(node, f.name), ast.Node)
    }
    return dataclasses.replace(node, **changes) if changes else node  # type: ignore[type-var]


__all__ = ["MAX_TERMS", "NAMES", "NotRead", "parse_sum", "terms"]
