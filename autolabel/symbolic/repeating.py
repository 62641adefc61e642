"""Repeating decimals as steps write them (issue 25 round 10).

``0.\\overline{3}``, ``0.1\\overline{6}``, ``0.\\dot{3}``, ``0.(3)`` and ``0.1(6)`` are
1/3, 1/6, 1/3, 1/3 and 1/6: the digits under the bar, the dot or in the parentheses repeat
forever. Where the notation has no other reading (a bar or a dot over digits right after a
decimal point or a decimal's digits, parentheses right after a bare point) it is read as the
repeating decimal; ``0.1(6)`` is also a product (0.1 times 6, as "1.5(4) = 6" is written), so
it is a choice point: the product is the usual reading, the repeating decimal the other one
(readings.py), and a claim fails only if false under both.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Protocol

from autolabel.symbolic import ast
from autolabel.symbolic.tokens import CMD, LB, LP, NUM, PUNCT, RB, RP, Token

MARKS = {"overline", "dot", "bar", "overbrace"}


class Parser(Protocol):
    """What :func:`read` uses of parser.Parser (which imports this module)."""

    i: int

    def peek(self, k: int = 0) -> Token | None: ...

    def choose(self, options: int, usual: bool, why: str) -> int: ...


def value(whole: str, fixed: str, repeated: str) -> Fraction:
    """``whole.fixed(repeated)``: 0, "1", "6" -> 1/6."""
    shift = 10 ** len(fixed)
    head = Fraction(int(whole or "0")) + Fraction(int(fixed or "0"), shift)
    return head + Fraction(int(repeated), (10 ** len(repeated) - 1) * shift)


def _digits(tok: Token | None) -> bool:
    return tok is not None and tok.kind == NUM and tok.decimals is None and tok.text.isdigit()


def _adjacent(tok: Token | None) -> bool:
    return tok is not None and not tok.space_before


def _marked(p: Parser, k: int) -> int:
    """Tokens of a bar or dot over digits at ``p.peek(k)`` (``\\overline{3}``), else 0."""
    mark, open_, digits, close = (p.peek(k + j) for j in range(4))
    if not (mark is not None and mark.kind == CMD and mark.value in MARKS and _adjacent(mark)):
        return 0
    if open_ is None or open_.kind != LB or not _digits(digits) or close is None:
        return 0
    return 4 if close.kind == RB else 0


def _bracketed(p: Parser, k: int) -> int:
    """Tokens of ``(digits)`` written right at ``p.peek(k)``, else 0."""
    open_, digits, close = (p.peek(k + j) for j in range(3))
    if not (open_ is not None and open_.kind == LP and open_.value == "(" and _adjacent(open_)):
        return 0
    if not (_digits(digits) and _adjacent(digits)) or close is None:
        return 0
    return 3 if close.kind == RP and close.value == ")" else 0


def read(p: Parser, tok: Token) -> ast.Node | None:
    """The repeating decimal that starts with the number ``tok`` (already consumed), its
    tokens consumed, as the fraction it is (an exact value, not a decimal that may be
    rounded); None where there is none (or the product is the reading taken)."""
    if not tok.text.replace(".", "", 1).isdigit():
        return None
    whole, _, fixed = tok.text.partition(".")
    if tok.decimals is None:  # "0" then ".": only a repeating part can follow the point
        point = p.peek()
        if not (point is not None and point.kind == PUNCT and point.value == "."):
            return None
        if not _adjacent(point):
            return None
        size = _marked(p, 1) or _bracketed(p, 1)
        start = 1
    else:
        size = _marked(p, 0)
        start = 0
        if not size and _bracketed(p, 0):
            if p.choose(2, True, "") != 1:
                return None  # 0.1(6) as a product
            size = 3
    if not size:
        return None
    digits = p.peek(start + (2 if size == 4 else 1))
    assert digits is not None
    p.i += start + size
    exact = value(whole, fixed, digits.text)
    numerator, denominator = exact.numerator, exact.denominator
    return ast.Bin(
        "/",
        ast.Num(Fraction(numerator), None, str(numerator)),
        ast.Num(Fraction(denominator), None, str(denominator)),
    )
