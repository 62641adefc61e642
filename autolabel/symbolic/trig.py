"""Trigonometric functions of angles written in numbers: "\\cos 60^\\circ = \\frac{1}{2}",
"\\sin^2 45^\\circ", "\\tan\\left(\\frac{\\pi}{3}\\right)", "\\cos 10^\\circ \\cos 50^\\circ".

Read only where the reading is certain, else the side stays unparsed as before:

* the argument is numbers only (no letter: "\\sin x", "\\sin 2\\theta" are not read, so no
  trigonometric identity is ever decided here), but for the index of a sum around it, which
  stands for numbers (sums.py: "\\sum_{k=1}^{44} \\cos (8k^\\circ)");
* its unit is explicit: degrees ("30^\\circ"), or radians as a multiple of pi, or 0; a bare
  "\\sin 30" (degrees or radians?) is not read;
* the argument ends where TeX's would: a group, a parenthesis, or one power-level term;
  anything that would continue it by juxtaposition ("\\sin 2\\pi", "\\sin 30 x") is not
  read, except another function ("\\cos 10^\\circ \\cos 50^\\circ" is a product);
* "\\sin \\pi/6" is read both as TeX reads it, (sin pi)/6, and as it is meant, sin(pi/6)
  (readings.py: a claim fails only under both; symbolic-1.14);
* a power is a whole number 1 to 4 ("\\sin^2"); "\\tan^{-1}" (the inverse) is not read.

Values are exact (sympy), so a claim is decided like any other number.
"""

from __future__ import annotations

from typing import Protocol

import sympy

from autolabel.symbolic import ast
from autolabel.symbolic.tokens import CMD, IDENT, LB, LP, NUM, OP, POW, Token

NAMES = frozenset({"sin", "cos", "tan", "cot", "sec", "csc"})
MAX_POWER = 4
_FUNCTIONS = {
    "sin": sympy.sin,
    "cos": sympy.cos,
    "tan": sympy.tan,
    "cot": sympy.cot,
    "sec": sympy.sec,
    "csc": sympy.csc,
}


class Parser(Protocol):
    """What parse_trig uses of parser.Parser (which imports this module)."""

    i: int
    bound: frozenset[str]  # the indices of sums around (sums.py): numbers, not letters

    def peek(self, k: int = 0) -> Token | None: ...

    def script_arg(self) -> ast.Node: ...

    def power(self) -> ast.Node: ...

    def choose(self, options: int, usual: bool, why: str) -> int: ...


class NotRead(Exception):
    """The function's argument or power is not one this module reads with certainty."""


def parse_trig(parser: Parser, name: str) -> ast.Trig:
    """After the command ``\\name``: its optional power and its argument."""
    power = 1
    tok = parser.peek()
    if tok is not None and tok.kind == POW:
        parser.i += 1
        exponent = parser.script_arg()
        if not (
            isinstance(exponent, ast.Num)
            and exponent.decimals is None
            and exponent.value.denominator == 1
            and 1 <= exponent.value <= MAX_POWER
        ):
            raise NotRead("a power other than a small whole number (an inverse?)")
        power = int(exponent.value)
    tok = parser.peek()
    if tok is None:
        raise NotRead("no argument")
    argument = parser.script_arg() if tok.kind == LB else parser.power()
    after, divisor = parser.peek(), parser.peek(1)
    if (
        tok.kind != LB
        and after is not None
        and after.kind == OP
        and after.value == "/"
        and divisor is not None
        and divisor.kind == NUM
        and parser.choose(2, True, "") == 1
    ):
        # "\\sin \\pi/6": TeX's (sin pi)/6, or sin(pi/6) as it is meant (a reading: 1.14)
        parser.i += 1
        argument = ast.Bin("/", argument, parser.power())
    after = parser.peek()
    if after is not None and (
        after.kind in (NUM, IDENT, LP, LB) or (after.kind == CMD and after.value not in NAMES)
    ):
        raise NotRead("the argument may go on ('\\sin 2\\pi', '\\sin 30 x')")
    if any(isinstance(n, ast.Sym) and n.name not in parser.bound for n in argument.walk()):
        raise NotRead("an argument with a letter")
    return ast.Trig(name, argument, power)


def radians(node: ast.Trig, value: sympy.Expr) -> sympy.Expr:
    """The argument's angle in radians, from its value with units dropped."""
    units = {n.unit for n in node.x.walk() if isinstance(n, ast.Unit)}
    has_pi = any(isinstance(n, ast.Pi) for n in node.x.walk())
    if units == {"deg"} and not has_pi:
        return value * sympy.pi / 180
    if not units and (has_pi or value.is_zero):
        return value
    raise NotRead("an angle neither in degrees nor a multiple of pi")


def trig_value(node: ast.Trig, argument: sympy.Expr) -> sympy.Expr:
    """The exact value; NotRead where it is undefined (\\tan 90^\\circ) or not read."""
    if not argument.is_real:
        raise NotRead("not a real angle")
    value = _FUNCTIONS[node.name](radians(node, argument))
    if value.has(sympy.zoo, sympy.nan, sympy.oo, -sympy.oo):
        raise NotRead(f"\\{node.name} is undefined there")
    return value**node.power
