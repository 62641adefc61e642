"""Helpers of the parser (parser.py) that need no parser: numerals with a base, a unit's
power, the rightmost leaf of a product (where a juxtaposed factor attaches)."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from autolabel.symbolic import ast
from autolabel.symbolic.tokens import CMD, Token


class ParseError(Exception):
    pass


class Ambiguous(ParseError):
    pass


def mixed(whole: ast.Node, fraction: ast.Node) -> ast.Node:
    """A mixed number: "3\\frac12" is 3 + 1/2; a percent sign after it is the whole
    number's ("33\\frac{1}{3}\\%" is 100/3 %, not 33 + 1/300: symbolic-1.14)."""
    if isinstance(fraction, ast.Percent) and not fraction.of:
        return ast.Percent(ast.Bin("+", whole, fraction.x))
    return ast.Bin("+", whole, fraction)


def rightmost(node: ast.Node) -> ast.Node:
    while True:
        if isinstance(node, ast.Bin):
            node = node.b
        elif isinstance(node, ast.Unit | ast.Percent | ast.Fact):
            return node
        elif isinstance(node, ast.Neg):
            node = node.x
        else:
            return node


def replace_rightmost(node: ast.Node, change: Callable[[ast.Node], ast.Node]) -> ast.Node:
    """``node`` with its rightmost leaf (as rightmost finds it) replaced by ``change(leaf)``."""
    if isinstance(node, ast.Bin):
        return ast.Bin(node.op, node.a, replace_rightmost(node.b, change), node.implicit)
    if isinstance(node, ast.Neg):
        return ast.Neg(replace_rightmost(node.x, change))
    return change(node)


def is_fraction_literal(node: ast.Node) -> bool:
    return (
        isinstance(node, ast.Bin)
        and node.op == "/"
        and isinstance(node.a, ast.Num)
        and isinstance(node.b, ast.Num)
    )


def base_numeral(tok: Token, subscript: str) -> ast.Num:
    """``101_2`` (5), ``3.5_{10}`` (3.5); a base from 2 to 10 with valid digits, else no parse."""
    base_text = subscript.strip()
    if not base_text.isdigit() or not 2 <= int(base_text) <= 10:
        raise ParseError(f"a number with the subscript {subscript!r}")
    base, digits = int(base_text), tok.value
    if base == 10:
        assert tok.number is not None
        return ast.Num(tok.number, tok.decimals, f"{tok.text}_{base}", base)
    if not digits.isdigit() or any(int(d) >= base for d in digits):
        raise ParseError(f"{digits} is not a numeral in base {base}")
    return ast.Num(Fraction(int(digits, base)), None, f"{tok.text}_{base}", base)


def unit_power(base: ast.Unit, exp: ast.Node) -> ast.Unit:
    """``16 \\text{ cm}^3``: the exponent squares or cubes the unit, not the number."""
    if not (isinstance(exp, ast.Num) and exp.value.denominator == 1 and 1 < exp.value <= 3):
        raise ParseError("a power of a unit")
    return ast.Unit(base.x, f"{base.unit}^{exp.value.numerator}")


def looks_like_unit(text: str) -> bool:
    words = text.replace("/", " ").split()
    return 0 < len(words) <= 3 and all(w.isalpha() for w in words if w != "per")


BAR_COMMANDS = {"lvert", "rvert", "vert"}
SIZE_COMMANDS = {"left", "right", "bigl", "bigr", "Bigl", "Bigr", "big", "Big", "bigg", "Bigg"}


def is_bar(tok: Token) -> bool:
    """``|`` (not the norm ``\\|``), ``\\vert``, ``\\lvert``, ``\\rvert``."""
    return (tok.kind == "OTHER" and tok.text == "|") or (
        tok.kind == CMD and tok.value in BAR_COMMANDS
    )


def absolute_bars(tokens: list[Token]) -> list[Token]:
    """Drop ``\\left``/``\\right`` before a bar; more than one pair of bars is ambiguous
    (``|a|b|c|``), and so is a lone bar (``3 | 12``: divides)."""
    out = [
        t
        for k, t in enumerate(tokens)
        if not (
            t.kind == CMD
            and t.value in SIZE_COMMANDS
            and k + 1 < len(tokens)
            and is_bar(tokens[k + 1])
        )
    ]
    bars = sum(is_bar(t) for t in out)
    if bars not in (0, 2):
        raise Ambiguous("bars: an absolute value we cannot delimit, or 'divides'")
    return out


def mean_reading(node: ast.Node, choose: Callable[[int, bool, str], int]) -> ast.Node:
    """ "80 + 90 + 100 / 3" with as many terms as the divisor: the usual reading, or the mean
    its writer meant, (80 + 90 + 100) / 3 (a second reading, readings.py: symbolic-1.14)."""
    terms: list[ast.Node] = []
    rest = node
    while isinstance(rest, ast.Bin) and rest.op == "+" and not rest.implicit:
        terms.insert(0, rest.b)
        rest = rest.a
    terms.insert(0, rest)
    last = terms[-1]
    if not (
        len(terms) >= 2
        and isinstance(last, ast.Bin)
        and last.op == "/"
        and isinstance(last.b, ast.Num)
        and last.b.decimals is None
        and last.b.value == len(terms)
    ):
        return node
    if choose(2, True, "") == 0:
        return node
    total = terms[0]
    for term in [*terms[1:-1], last.a]:
        total = ast.Bin("+", total, term)
    return ast.Bin("/", total, last.b)
