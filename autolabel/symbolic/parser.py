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

import functools
from fractions import Fraction

from autolabel.symbolic import ast, commands, repeating
from autolabel.symbolic.commands import FRAC, TEXT, group_text, script_text
from autolabel.symbolic.literals import (
    Ambiguous,
    ParseError,
    absolute_bars,
    base_numeral,
    is_bar,
    is_fraction_literal,
    looks_like_unit,
    mean_reading,
    mixed,
    replace_rightmost,
    rightmost,
    unit_power,
)
from autolabel.symbolic.tokens import (
    CMD,
    CUR,
    EXCLAIMED,
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

__all__ = ["Ambiguous", "NeedChoice", "ParseError", "Parser", "parse_side"]


class NeedChoice(Exception):
    """Raised by a parser that explores readings (``choices`` given) at a choice point past
    its prefix of choices: ``options`` readings there (readings.py enumerates them)."""

    def __init__(self, options: int) -> None:
        super().__init__(options)
        self.options = options


_ATOM_START = {NUM, IDENT, LP, LB, CMD}


class Parser:
    """``choices`` None: one reading, the usual one (an ambiguity with no usual reading raises
    :class:`Ambiguous`). A tuple: the reading that takes option ``choices[k]`` at the k-th
    choice point met (the side's text admits several readings there); past the tuple it raises
    :class:`NeedChoice`. Option 0 is the usual reading where there is one."""

    def __init__(
        self, tokens: list[Token], mode: str, choices: tuple[int, ...] | None = None
    ) -> None:
        self.toks = list(tokens)
        self.i = 0
        self.mode = mode
        self.call_like = False
        self.in_abs = False  # inside |...|: a bar closes it
        self.bound: frozenset[str] = frozenset()  # indices of the sums around (sums.py)
        self.choices = choices
        self.shared = [0]  # choice points met so far, shared with inner parsers

    def choose(self, options: int, usual: bool, why: str) -> int:
        """The option taken at a choice point of ``options`` readings. Without ``choices``:
        option 0 where ``usual`` (a usual reading), else :class:`Ambiguous` (``why``)."""
        if self.choices is None:
            if usual:
                return 0
            raise Ambiguous(why)
        k = self.shared[0]
        self.shared[0] += 1
        if k >= len(self.choices):
            raise NeedChoice(options)
        return self.choices[k]

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
            right = self.term()
            relative = isinstance(right, ast.Percent) and not isinstance(node, ast.Percent)
            if relative and self.choose(2, True, "") == 1:
                # "$50 + 20%": 20% of the 50 added (50 * 1.2), as price tags write it
                node = ast.Bin(
                    "*", node, ast.Bin(tok.value, ast.Num(Fraction(1), None, "1"), right)
                )
            else:
                node = ast.Bin(tok.value, node, right)
        return mean_reading(node, self.choose)

    def term(self) -> ast.Node:
        node = self.unary()
        after_slash = False
        in_denominator: bool | None = None  # "a/bc": c in the denominator (a reading)
        while True:
            tok = self.peek()
            if tok is None:
                return node
            if tok.kind == OP and tok.value in ("*", "/", "of"):
                self.i += 1
                in_denominator = None
                op = "/" if tok.value == "/" else "*"
                if tok.value == "of":
                    if isinstance(node, ast.Percent):
                        node.of = True
                    elif not is_fraction_literal(node):
                        raise ParseError("'of' after something other than a % or a fraction")
                node = ast.Bin(op, node, self.unary())
                after_slash = op == "/"
            elif tok.kind in _ATOM_START or tok.kind == CUR or (is_bar(tok) and not self.in_abs):
                if after_slash and in_denominator is None:
                    why = "a/bc: is it a/(bc) or (a/b)c?"
                    in_denominator = self.choose(2, False, why) == 1
                as_mixed = self._check_implicit(node, tok)
                factor = self.unary_no_sign()
                if as_mixed:  # "3\\frac12": 3 + 1/2
                    node = replace_rightmost(node, functools.partial(mixed, fraction=factor))
                elif in_denominator and isinstance(node, ast.Bin) and node.op == "/":
                    node = ast.Bin("/", node.a, ast.Bin("*", node.b, factor, implicit=True))
                else:
                    node = ast.Bin("*", node, factor, implicit=True)
            else:
                return node

    def _check_implicit(self, left: ast.Node, tok: Token) -> bool:
        """Raises where a juxtaposition has no reading we can evaluate; True where it is read
        as a mixed number (a choice point: "3\\frac12" is 3 + 1/2 or 3 * 1/2)."""
        left_end = rightmost(left)
        if tok.kind == NUM and not self._factorials_side_by_side(left_end):
            raise Ambiguous("a number right after an expression (2 3, (3)2, x2)")
        if tok.kind == CMD and tok.value in FRAC and isinstance(left_end, ast.Num):
            if left_end.decimals is None:
                if self._fraction_has_letter():
                    return False  # "2\frac{y}{z}" is 2y/z: no mixed number has letters
                return self.choose(2, False, "mixed number or product") == 1
            raise Ambiguous("a decimal before a fraction")
        if tok.kind == CUR:
            raise Ambiguous("a price after an expression")
        if tok.kind == LP and isinstance(left_end, ast.Sym):
            self.call_like = True  # f(x) or x(x+1)?
        return False

    def _fraction_has_letter(self) -> bool:
        """The ``\\frac`` at the cursor has a letter in its two groups (symbolic round 16)."""
        j, groups, depth = self.i + 1, 0, 0
        while j < len(self.toks) and groups < 2:
            tok = self.toks[j]
            if tok.kind == LB:
                depth += 1
            elif tok.kind == RB:
                depth -= 1
                groups += depth == 0
            elif depth == 0:
                return False  # "\\frac12": digits, no groups
            elif tok.kind == IDENT:
                return True
            j += 1
        return False

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
            if tok.value == "+":
                return inner
            # "-3^2": -(3^2) by convention, (-3)^2 as many write it
            pow_of_number = isinstance(inner, ast.Pow) and isinstance(inner.base, ast.Num)
            if pow_of_number and self.choose(2, True, "") == 1:
                assert isinstance(inner, ast.Pow)
                return ast.Pow(ast.Neg(inner.base), inner.exp)
            return ast.Neg(inner)
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
                return self.postfix(unit_power(base, exp))
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
        inner = Parser(tokens, self.mode, self.choices)
        inner.bound = self.bound
        inner.shared = self.shared
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
            return base_numeral(tok, script_text(self))
        repeated = repeating.read(self, tok)  # 0.\overline{3}, 0.1(6)
        if repeated is not None:
            return repeated
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
                name += "_" + script_text(self)
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
        if is_bar(tok) and not self.in_abs:
            self.in_abs = True
            node = self.expr()
            self.in_abs = False
            close = self.next()
            if not is_bar(close):
                raise ParseError("unclosed absolute value")
            return ast.Abs(node)
        raise ParseError(f"unexpected {tok.text!r}")

    def command(self, tok: Token) -> ast.Node:
        return commands.command(self, tok)

    def postfix(self, node: ast.Node) -> ast.Node:
        while (tok := self.peek()) is not None:
            if tok.kind == FACT:
                nxt = self.peek(1)
                if nxt is not None and nxt.kind == FACT:
                    raise ParseError("double factorial")
                self.i += 1
                exclaimed = tok.value == EXCLAIMED and isinstance(node, ast.Num)
                if exclaimed and self.choose(2, True, "") == 1:
                    continue  # "So 3 + 4 = 7!": an exclamation mark
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
            elif tok.kind == CMD and tok.value in TEXT:
                self.i += 1
                text = group_text(self)
                if not looks_like_unit(text):
                    raise ParseError(f"text after a number: {text!r}")
                node = ast.Unit(node, normalize_unit(text))
            else:
                return node
        return node


def parse_side(
    tokens: list[Token], mode: str, choices: tuple[int, ...] | None = None
) -> tuple[ast.Node, bool]:
    """Parse one side; returns the tree and whether it has an ``x(...)`` ambiguity.
    ``choices``: the reading to take at each choice point (see :class:`Parser`)."""
    parser = Parser(absolute_bars(tokens), mode, choices)
    node = parser.parse()
    return node, parser.call_like
