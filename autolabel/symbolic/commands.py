"""The LaTeX commands a side's parser reads (split out of parser.py, issue 25 round 10).

:func:`command` reads one command at the parser's position: fractions, roots (``\\sqrt``,
``\\sqrt[3]``, a typed "√169"), binomials, ``\\pi``, the commands other modules read
(floors and ceilings, sums, trigonometry, logarithms), sizing and transparent commands, and
``\\text``; anything else raises :class:`ParseError`, so that the side is skipped.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from autolabel.symbolic import ast, brackets, logs, sums, trig
from autolabel.symbolic.evaluate import MAX_PRIME_COUNT
from autolabel.symbolic.literals import SIZE_COMMANDS, ParseError
from autolabel.symbolic.tokens import CMD, LB, LP, NUM, OP, POW, RB, RP, Token


class Parser(Protocol):
    """What this module uses of parser.Parser (which imports this module)."""

    i: int
    toks: list[Token]

    def peek(self, k: int = 0) -> Token | None: ...

    def next(self) -> Token: ...

    def expect(self, kind: str) -> Token: ...

    def choose(self, options: int, usual: bool, why: str) -> int: ...

    def expr(self) -> ast.Node: ...

    def atom(self) -> ast.Node: ...

    def script_arg(self) -> ast.Node: ...

    def inner(self, tokens: list[Token]) -> ast.Node: ...


FRAC = {"frac", "dfrac", "tfrac", "cfrac"}
BINOM = {"binom", "dbinom", "tbinom"}
TEXT = {"text", "textrm", "mathrm", "textbf", "mbox", "textit", "mathit", "rm", "mathbf"}
TRANSPARENT = {"displaystyle", "textstyle", "boxed", "mathbf", "bf"}


def _pi(p: Parser) -> ast.Node:
    """π; or, right before a whole number in parentheses, π(n) the prime-counting function
    as a second reading ("there are \\pi(10) = 4 primes up to 10": 10π is no count), taken
    only where the product does not hold (readings.py). A power after the parentheses keeps
    π a factor ("\\pi(3)^2")."""
    opening, number, closing, after = (p.peek(k) for k in range(4))
    if not (
        opening is not None
        and opening.kind == LP
        and opening.value == "("
        and number is not None
        and number.kind == NUM
        and number.decimals is None
        and number.number is not None
        and number.number.denominator == 1
        and 0 <= number.number <= MAX_PRIME_COUNT
        and closing is not None
        and closing.kind == RP
        and closing.value == ")"
        and not (after is not None and after.kind in (POW, NUM, LP, CMD))
    ):
        return ast.Pi()
    if p.choose(2, True, "") == 0:
        return ast.Pi()
    p.i += 3
    return ast.PrimeCount(ast.Num(number.number, None, number.text))


def command(p: Parser, tok: Token) -> ast.Node:
    """The command ``tok`` (already consumed) and its arguments."""
    name = tok.value
    if name in FRAC:
        num = p.script_arg()
        den = p.script_arg()
        return ast.Bin("/", num, den)
    if name == "sqrt":
        index = None
        nxt = p.peek()
        if tok.text == "\u221a" and nxt is not None and (nxt.kind == NUM or nxt.value == "("):
            return _plain_root(p)
        if tok.text.lower() == "sqrt" and nxt is not None and nxt.value == "(":
            return ast.Root(p.atom())  # "sqrt(18)", typed: the parenthesized group
        if nxt is not None and nxt.kind == LP and nxt.value == "[":
            p.i += 1
            index = p.expr()
            close = p.expect(RP)
            if close.value != "]":
                raise ParseError("bad root index")
        return ast.Root(p.script_arg(), index)
    if name in BINOM:
        n = p.script_arg()
        k = p.script_arg()
        return ast.Binom(n, k)
    if name == "pi":
        return _pi(p)
    reader = _READERS.get(name)
    if reader is not None:
        read, not_read = reader
        try:
            return read(p, name)
        except not_read as exc:
            raise ParseError(f"unsupported \\{name}: {exc}") from exc
    nxt = p.peek()
    if name in SIZE_COMMANDS and nxt is not None and nxt.value in brackets.NAMES:
        return p.atom()  # "\\left\\lfloor"
    if name in TRANSPARENT:
        return p.script_arg() if name == "boxed" else p.atom()
    if name in TEXT:
        text = group_text(p)
        return ast.Sym("text:" + " ".join(text.split()))
    raise ParseError(f"unsupported \\{name}")


def _plain_root(p: Parser) -> ast.Node:
    """ "√169" (the whole number, not one digit) or "√(16 + 9)"; "√16 + 9" may draw
    the sign's bar over "16 + 9", so an operator after the number is not read."""
    start = p.i
    node = ast.Root(p.atom())
    after = p.peek()
    over_more = isinstance(node.x, ast.Num) and after is not None and after.kind in (OP, POW)
    if over_more and p.choose(2, False, "√a + b: does the root's bar cover b?") == 1:
        p.i = start  # the bar covers the rest of the side
        return ast.Root(p.expr())
    return node


# Commands read by their own module: name -> (reader, the module's NotRead).
_READERS: dict[str, tuple[Callable[[Any, str], ast.Node], type[Exception]]] = {
    **{n: (brackets.parse_bracket, brackets.NotRead) for n in brackets.NAMES},
    **{n: (sums.parse_sum, sums.NotRead) for n in sums.NAMES},
    **{n: (trig.parse_trig, trig.NotRead) for n in trig.NAMES},
    **{n: (logs.parse_log, logs.NotRead) for n in logs.NAMES},
}


def group_text(p: Parser) -> str:
    """Raw text of a {...} group (for \\text), from the tokens' source text."""
    p.expect(LB)
    depth, parts = 1, []
    while True:
        tok = p.next()
        if tok.kind == LB:
            depth += 1
        elif tok.kind == RB:
            depth -= 1
            if depth == 0:
                break
        parts.append((" " if tok.space_before else "") + tok.text)
    return "".join(parts).strip()


def script_text(p: Parser) -> str:
    tok = p.peek()
    if tok is not None and tok.kind == LB:
        return group_text(p)
    return p.next().text
