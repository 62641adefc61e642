"""Recursive-descent parser: tokens of one side of a claim -> expression tree.

It accepts the arithmetic that steps actually write (``+ - * / \\times \\cdot \\div ^ !``,
``\\frac \\dfrac \\sqrt \\binom``, ``%``, ``\\pi``, groups, units, ``$``, numerals in bases 2
to 10 such as ``101_2``, one absolute value ``|x|`` per side) and raises :class:`ParseError`
on everything else (functions, sets, nested or several absolute values, ``\\pm``, other
subscripts on numbers, digits too large for their base, matrices), so that an unreadable
side is skipped rather than misread. :class:`Ambiguous` is raised where two readings exist
and they can differ: a mixed number ``3\\frac12`` (3.5 or 1.5?) and juxtaposed numbers
``2 3``.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from autolabel.symbolic import ast, brackets, logs, sums, trig
from autolabel.symbolic.tokens import (
    CMD,
    CUR,
    FACT,
    IDENT,
    LB,
    LP,
    NUM,
    OP,
    PCT,
    POW,
    RB,
    RP,
    SUB,
    UNIT,
    Token,
)
from autolabel.symbolic.units import normalize_unit


class ParseError(Exception):
    pass


class Ambiguous(ParseError):
    pass


_FRAC = {"frac", "dfrac", "tfrac", "cfrac"}
_BINOM = {"binom", "dbinom", "tbinom"}
_TEXT = {"text", "textrm", "mathrm", "textbf", "mbox", "textit", "mathit", "rm", "mathbf"}
_TRANSPARENT = {"displaystyle", "textstyle", "boxed", "mathbf", "bf"}
_ATOM_START = {NUM, IDENT, LP, LB, CMD}


class Parser:
    def __init__(self, tokens: list[Token], mode: str) -> None:
        self.toks = list(tokens)
        self.i = 0
        self.mode = mode
        self.call_like = False
        self.in_abs = False  # inside |...|: a bar closes it
        self.bound: frozenset[str] = frozenset()  # indices of the sums around (sums.py)

    # -- helpers --------------------------------------------------------------------------
    def peek(self, k: int = 0) -> Token | None:
        j = self.i + k
        return self.toks[j] if j < len(self.toks) else None

    def next(self) -> Token:
        tok = self.peek()
        if tok is None:
            raise ParseError("unexpected end")
        self.i += 1
        return tok

    def expect(self, kind: str) -> Token:
        tok = self.next()
        if tok.kind != kind:
            raise ParseError(f"expected {kind}, got {tok.text!r}")
        return tok

    # -- grammar -----------------------------------------------------------------------
    def parse(self) -> ast.Node:
        if not self.toks:
            raise ParseError("empty side")
        node = self.expr()
        if self.peek() is not None:
            raise ParseError(f"unexpected {self.peek()!r}")
        return node

    def expr(self) -> ast.Node:
        node = self.term()
        while (tok := self.peek()) is not None and tok.kind == OP and tok.value in "+-":
            self.i += 1
            node = ast.Bin(tok.value, node, self.term())
        return node

    def term(self) -> ast.Node:
        node = self.unary()
        after_slash = False
        while True:
            tok = self.peek()
            if tok is None:
                return node
            if tok.kind == OP and tok.value in ("*", "/", "of"):
                self.i += 1
                op = "/" if tok.value == "/" else "*"
                if tok.value == "of":
                    if isinstance(node, ast.Percent):
                        node.of = True
                    elif not _is_fraction_literal(node):
                        raise ParseError("'of' after something other than a % or a fraction")
                node = ast.Bin(op, node, self.unary())
                after_slash = op == "/"
            elif tok.kind in _ATOM_START or tok.kind == CUR or (_is_bar(tok) and not self.in_abs):
                if after_slash:
                    raise Ambiguous("a/bc: is it a/(bc) or (a/b)c?")
                self._check_implicit(node, tok)
                node = ast.Bin("*", node, self.unary_no_sign(), implicit=True)
            else:
                return node

    def _check_implicit(self, left: ast.Node, tok: Token) -> None:
        left_end = _rightmost(left)
        if tok.kind == NUM and not self._factorials_side_by_side(left_end):
            raise Ambiguous("a number right after an expression (2 3, (3)2, x2)")
        if tok.kind == CMD and tok.value in _FRAC and isinstance(left_end, ast.Num):
            raise Ambiguous("mixed number or product")
        if tok.kind == CUR:
            raise Ambiguous("a price after an expression")
        if tok.kind == LP and isinstance(left_end, ast.Sym):
            self.call_like = True  # f(x) or x(x+1)?

    def _factorials_side_by_side(self, left_end: ast.Node) -> bool:
        """ "3!5!" (as in "\\frac{8!}{3!5!}"): a factorial right after a factorial is a
        product; no other reading writes a number and "!" after a "!"."""
        after = self.peek(1)
        return (
            isinstance(left_end, ast.Fact)
            and isinstance(left_end.x, ast.Num)
            and after is not None
            and after.kind == FACT
        )

    def unary(self) -> ast.Node:
        tok = self.peek()
        if tok is not None and tok.kind == OP and tok.value in "+-":
            self.i += 1
            inner = self.unary()
            return ast.Neg(inner) if tok.value == "-" else inner
        return self.power()

    def unary_no_sign(self) -> ast.Node:
        return self.power()

    def power(self) -> ast.Node:
        base = self.postfix(self.atom())
        tok = self.peek()
        if tok is not None and tok.kind == POW:
            self.i += 1
            if self._degree_mark():
                return self.postfix(ast.Unit(base, "deg"))
            exp = self.script_arg() if self.mode == "math" else self.prose_exponent()
            if isinstance(base, ast.Unit):
                return self.postfix(_unit_power(base, exp))
            return self.postfix(ast.Pow(base, exp))
        return base

    def _degree_mark(self) -> bool:
        tok = self.peek()
        if tok is not None and tok.kind == CMD and tok.value == "circ":
            self.i += 1
            return True
        nxt = self.peek(1)
        end = self.peek(2)
        if (
            tok is not None
            and tok.kind == LB
            and nxt is not None
            and nxt.kind == CMD
            and nxt.value == "circ"
            and end is not None
            and end.kind == RB
        ):
            self.i += 3
            return True
        return False

    def prose_exponent(self) -> ast.Node:
        tok = self.peek()
        if tok is not None and tok.kind == OP and tok.value in "+-":
            self.i += 1
            inner = self.prose_exponent()
            return ast.Neg(inner) if tok.value == "-" else inner
        return self.power()

    def script_arg(self) -> ast.Node:
        """A TeX argument: {group}, one digit, one letter, or one command."""
        tok = self.peek()
        if tok is None:
            raise ParseError("missing argument")
        if tok.kind == OP and tok.value == "-":  # 2^-1: not TeX, but written
            self.i += 1
            return ast.Neg(self.script_arg())
        if tok.kind == LB:
            return self.group()
        if tok.kind == NUM:
            self.i += 1
            if tok.number is not None and tok.decimals is None and len(tok.value) > 1:
                # \frac12: TeX takes one digit; push the rest back
                rest = tok.value[1:]
                self.toks.insert(
                    self.i,
                    Token(NUM, rest, tok.start + 1, tok.end, rest, Fraction(rest), None),
                )
                return ast.Num(Fraction(tok.value[0]), None, tok.value[0])
            return self.number(tok)
        if tok.kind == IDENT:
            self.i += 1
            return ast.Sym(tok.value)
        if tok.kind == CMD:
            return self.atom()
        raise ParseError(f"bad argument {tok.text!r}")

    def group(self) -> ast.Node:
        self.expect(LB)
        depth, j = 1, self.i
        choose_at = None
        while j < len(self.toks):
            t = self.toks[j]
            if t.kind == LB:
                depth += 1
            elif t.kind == RB:
                depth -= 1
                if depth == 0:
                    break
            elif t.kind == CMD and t.value == "choose" and depth == 1:
                choose_at = j
            j += 1
        else:
            raise ParseError("unclosed group")
        if choose_at is not None:
            n = self._inner(self.toks[self.i : choose_at]).parse()
            k = self._inner(self.toks[choose_at + 1 : j]).parse()
            self.i = j + 1
            return ast.Binom(n, k)
        inner = self._inner(self.toks[self.i : j])
        node = inner.parse()
        self.call_like = self.call_like or inner.call_like
        self.i = j + 1
        return node

    def _inner(self, tokens: list[Token]) -> Parser:
        inner = Parser(tokens, self.mode)
        inner.bound = self.bound
        return inner

    def inner(self, tokens: list[Token]) -> ast.Node:
        """``tokens`` (a bracket's content) parsed as a whole expression."""
        inner = self._inner(tokens)
        node = inner.parse()
        self.call_like = self.call_like or inner.call_like
        return node

    def number(self, tok: Token) -> ast.Num:
        assert tok.number is not None
        nxt = self.peek()
        if nxt is not None and nxt.kind == SUB:
            self.i += 1
            return _base_numeral(tok, _script_text(self))
        return ast.Num(tok.number, tok.decimals, tok.text)

    def atom(self) -> ast.Node:
        tok = self.next()
        if tok.kind == NUM:
            return self.number(tok)
        if tok.kind == CUR:
            return ast.Unit(self.power(), "dollar")
        if tok.kind == IDENT:
            name = tok.value
            if (sub := self.peek()) is not None and sub.kind == SUB:
                self.i += 1
                name += "_" + _script_text(self)
            return ast.Sym(name)
        if tok.kind == LP:
            node = self.expr()
            close = self.expect(RP)
            if (tok.value, close.value) not in (("(", ")"), ("[", "]")):
                raise ParseError("mismatched brackets (an interval?)")
            return node
        if tok.kind == LB:
            self.i -= 1
            return self.group()
        if tok.kind == CMD:
            return self.command(tok)
        if _is_bar(tok) and not self.in_abs:
            self.in_abs = True
            node = self.expr()
            self.in_abs = False
            close = self.next()
            if not _is_bar(close):
                raise ParseError("unclosed absolute value")
            return ast.Abs(node)
        raise ParseError(f"unexpected {tok.text!r}")

    def command(self, tok: Token) -> ast.Node:
        name = tok.value
        if name in _FRAC:
            num = self.script_arg()
            den = self.script_arg()
            return ast.Bin("/", num, den)
        if name == "sqrt":
            index = None
            nxt = self.peek()
            if tok.text == "\u221a" and nxt is not None and (nxt.kind == NUM or nxt.value == "("):
                return self._plain_root()
            if nxt is not None and nxt.kind == LP and nxt.value == "[":
                self.i += 1
                index = self.expr()
                close = self.expect(RP)
                if close.value != "]":
                    raise ParseError("bad root index")
            return ast.Root(self.script_arg(), index)
        if name in _BINOM:
            n = self.script_arg()
            k = self.script_arg()
            return ast.Binom(n, k)
        if name == "pi":
            return ast.Pi()
        reader = _READERS.get(name)
        if reader is not None:
            read, not_read = reader
            try:
                return read(self, name)
            except not_read as exc:
                raise ParseError(f"unsupported \\{name}: {exc}") from exc
        nxt = self.peek()
        if name in _SIZE_COMMANDS and nxt is not None and nxt.value in brackets.NAMES:
            return self.atom()  # "\\left\\lfloor"
        if name in _TRANSPARENT:
            return self.script_arg() if name == "boxed" else self.atom()
        if name in _TEXT:
            text = _group_text(self)
            return ast.Sym("text:" + " ".join(text.split()))
        raise ParseError(f"unsupported \\{name}")

    def _plain_root(self) -> ast.Node:
        """ "√169" (the whole number, not one digit) or "√(16 + 9)"; "√16 + 9" may draw
        the sign's bar over "16 + 9", so an operator after the number is not read."""
        node = ast.Root(self.atom())
        after = self.peek()
        if isinstance(node.x, ast.Num) and after is not None and after.kind in (OP, POW):
            raise Ambiguous("√a + b: does the root's bar cover b?")
        return node

    def postfix(self, node: ast.Node) -> ast.Node:
        while (tok := self.peek()) is not None:
            if tok.kind == FACT:
                nxt = self.peek(1)
                if nxt is not None and nxt.kind == FACT:
                    raise ParseError("double factorial")
                self.i += 1
                node = ast.Fact(node)
            elif tok.kind == PCT:
                self.i += 1
                node = ast.Percent(node)
            elif tok.kind == UNIT:
                self.i += 1
                node = ast.Unit(node, tok.value)
            elif tok.kind == CMD and tok.value == "circ":
                self.i += 1
                node = ast.Unit(node, "deg")
            elif tok.kind == CMD and tok.value in _TEXT:
                self.i += 1
                text = _group_text(self)
                if not _looks_like_unit(text):
                    raise ParseError(f"text after a number: {text!r}")
                node = ast.Unit(node, normalize_unit(text))
            else:
                return node
        return node


# Commands read by their own module: name -> (reader, the module's NotRead).
_READERS: dict[str, tuple[Callable[[Parser, str], ast.Node], type[Exception]]] = {
    **{n: (brackets.parse_bracket, brackets.NotRead) for n in brackets.NAMES},
    **{n: (sums.parse_sum, sums.NotRead) for n in sums.NAMES},
    **{n: (trig.parse_trig, trig.NotRead) for n in trig.NAMES},
    **{n: (logs.parse_log, logs.NotRead) for n in logs.NAMES},
}
_BAR_COMMANDS = {"lvert", "rvert", "vert"}
_SIZE_COMMANDS = {"left", "right", "bigl", "bigr", "Bigl", "Bigr", "big", "Big", "bigg", "Bigg"}


def _is_bar(tok: Token) -> bool:
    """``|`` (not the norm ``\\|``), ``\\vert``, ``\\lvert``, ``\\rvert``."""
    return (tok.kind == "OTHER" and tok.text == "|") or (
        tok.kind == CMD and tok.value in _BAR_COMMANDS
    )


def _absolute_bars(tokens: list[Token]) -> list[Token]:
    """Drop ``\\left``/``\\right`` before a bar; more than one pair of bars is ambiguous
    (``|a|b|c|``), and so is a lone bar (``3 | 12``: divides)."""
    out = [
        t
        for k, t in enumerate(tokens)
        if not (
            t.kind == CMD
            and t.value in _SIZE_COMMANDS
            and k + 1 < len(tokens)
            and _is_bar(tokens[k + 1])
        )
    ]
    bars = sum(_is_bar(t) for t in out)
    if bars not in (0, 2):
        raise Ambiguous("bars: an absolute value we cannot delimit, or 'divides'")
    return out


def _rightmost(node: ast.Node) -> ast.Node:
    while True:
        if isinstance(node, ast.Bin):
            node = node.b
        elif isinstance(node, ast.Unit | ast.Percent | ast.Fact):
            return node
        elif isinstance(node, ast.Neg):
            node = node.x
        else:
            return node


def _is_fraction_literal(node: ast.Node) -> bool:
    return (
        isinstance(node, ast.Bin)
        and node.op == "/"
        and isinstance(node.a, ast.Num)
        and isinstance(node.b, ast.Num)
    )


def _group_text(p: Parser) -> str:
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


def _script_text(p: Parser) -> str:
    tok = p.peek()
    if tok is not None and tok.kind == LB:
        return _group_text(p)
    return p.next().text


def _base_numeral(tok: Token, subscript: str) -> ast.Num:
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


def _unit_power(base: ast.Unit, exp: ast.Node) -> ast.Unit:
    """``16 \\text{ cm}^3``: the exponent squares or cubes the unit, not the number."""
    if not (isinstance(exp, ast.Num) and exp.value.denominator == 1 and 1 < exp.value <= 3):
        raise ParseError("a power of a unit")
    return ast.Unit(base.x, f"{base.unit}^{exp.value.numerator}")


def _looks_like_unit(text: str) -> bool:
    words = text.replace("/", " ").split()
    return 0 < len(words) <= 3 and all(w.isalpha() for w in words if w != "per")


def parse_side(tokens: list[Token], mode: str) -> tuple[ast.Node, bool]:
    """Parse one side; returns the tree and whether it has an ``x(...)`` ambiguity."""
    parser = Parser(_absolute_bars(tokens), mode)
    node = parser.parse()
    return node, parser.call_like
