"""Expression trees for one side of a claim, and facts read off them."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from fractions import Fraction


class Node:
    def children(self) -> tuple[Node, ...]:
        return ()

    def walk(self) -> Iterator[Node]:
        yield self
        for child in self.children():
            yield from child.walk()


@dataclass(eq=False)
class Num(Node):
    value: Fraction
    decimals: int | None  # digits written after the point; None for an integer literal
    text: str
    base: int | None = None  # a numeral written with a base subscript: 101_2, 3.5_{10}


@dataclass(eq=False)
class Sym(Node):
    name: str


@dataclass(eq=False)
class Pi(Node):
    pass


@dataclass(eq=False)
class Neg(Node):
    x: Node

    def children(self) -> tuple[Node, ...]:
        return (self.x,)


@dataclass(eq=False)
class Bin(Node):
    op: str  # + - * /
    a: Node
    b: Node
    implicit: bool = False

    def children(self) -> tuple[Node, ...]:
        return (self.a, self.b)


@dataclass(eq=False)
class Pow(Node):
    base: Node
    exp: Node

    def children(self) -> tuple[Node, ...]:
        return (self.base, self.exp)


@dataclass(eq=False)
class Fact(Node):
    x: Node

    def children(self) -> tuple[Node, ...]:
        return (self.x,)


@dataclass(eq=False)
class Root(Node):
    x: Node
    n: Node | None = None  # None: square root

    def children(self) -> tuple[Node, ...]:
        return (self.x,) if self.n is None else (self.x, self.n)


@dataclass(eq=False)
class Abs(Node):
    x: Node

    def children(self) -> tuple[Node, ...]:
        return (self.x,)


@dataclass(eq=False)
class Binom(Node):
    n: Node
    k: Node

    def children(self) -> tuple[Node, ...]:
        return (self.n, self.k)


@dataclass(eq=False)
class PrimeCount(Node):
    """π(n), the number of primes up to n (commands.py reads it as a second reading)."""

    x: Node

    def children(self) -> tuple[Node, ...]:
        return (self.x,)


@dataclass(eq=False)
class Percent(Node):
    x: Node
    of: bool = False  # "20% of 50": always a fraction of what follows

    def children(self) -> tuple[Node, ...]:
        return (self.x,)


@dataclass(eq=False)
class Unit(Node):
    x: Node
    unit: str

    def children(self) -> tuple[Node, ...]:
        return (self.x,)


@dataclass(eq=False)
class Trig(Node):
    """\\sin, \\cos, ... of an angle in numbers only (degrees or a multiple of pi), to a
    whole power: "\\sin^2 30^\\circ" is Trig("sin", 30°, 2)."""

    name: str
    x: Node
    power: int = 1

    def children(self) -> tuple[Node, ...]:
        return (self.x,)


@dataclass(eq=False)
class Log(Node):
    """The logarithm of ``x`` to ``base`` (None: the natural logarithm); logs.py reads them."""

    x: Node
    base: Node | None = None

    def children(self) -> tuple[Node, ...]:
        return (self.x,) if self.base is None else (self.x, self.base)


@dataclass(eq=False)
class Floor(Node):
    """\\lfloor x \\rfloor, or \\lceil x \\rceil with ``ceiling`` (brackets.py reads them)."""

    x: Node
    ceiling: bool = False

    def children(self) -> tuple[Node, ...]:
        return (self.x,)


@dataclass(eq=False)
class Sum(Node):
    """\\sum (op "sum") or \\prod (op "prod") of ``body`` for ``index`` from ``low`` to
    ``high``, both whole numbers (sums.py reads them)."""

    op: str
    index: str
    low: int
    high: int
    body: Node

    def children(self) -> tuple[Node, ...]:
        return (self.body,)


@dataclass
class SideInfo:
    """What a claim's side contains; the comparison rules read these."""

    symbols: frozenset[str] = frozenset()
    units: frozenset[str] = frozenset()
    has_decimal: bool = False
    bare_percent: bool = False  # a % that is not "% of"
    percent_of: bool = False
    call_like: bool = False  # x(...) might be a function application
    literal: Num | None = None  # the side is one number (sign, units and $ allowed)
    negated_literal: bool = False
    ops: int = 0
    leading_number: Fraction | None = None  # first number of the side (running totals)
    base_numeral: bool = False  # a numeral with a base subscript (101_2)
    notes: list[str] = field(default_factory=list)


def side_info(node: Node, call_like: bool = False) -> SideInfo:
    info = SideInfo(call_like=call_like)
    symbols: set[str] = set()
    units: set[str] = set()
    inside_trig = {id(n) for t in node.walk() if isinstance(t, Trig) for n in t.x.walk()}
    # a sum's index is not a symbol of the side: "\\sum_{k=1}^{4} k" is a number
    bound = {
        id(n)
        for s in node.walk()
        if isinstance(s, Sum)
        for n in s.body.walk()
        if isinstance(n, Sym) and n.name == s.index
    }
    # a floor's decimals do not make the side a decimal: brackets.py guards their rounding
    inside_floor = {id(n) for f in node.walk() if isinstance(f, Floor) for n in f.x.walk()}
    for sub in node.walk():
        if id(sub) in inside_trig or id(sub) in bound:
            continue  # "\\cos 60^\\circ" is a number: its degrees are not the side's unit
        if isinstance(sub, Sym):
            symbols.add(sub.name)
        elif isinstance(sub, Unit):
            units.add(sub.unit)
        elif isinstance(sub, Num) and id(sub) in inside_floor:
            pass
        elif isinstance(sub, Num) and (sub.decimals is not None or sub.base is not None):
            info.has_decimal = info.has_decimal or sub.decimals is not None
            info.base_numeral = info.base_numeral or sub.base is not None
        elif isinstance(sub, Percent):
            if sub.of:
                info.percent_of = True
            else:
                info.bare_percent = True
        if isinstance(
            sub,
            Bin
            | Pow
            | Fact
            | Root
            | Binom
            | Percent
            | Pi
            | Abs
            | Trig
            | Sum
            | Floor
            | Log
            | PrimeCount,
        ):
            info.ops += 1
        elif isinstance(sub, Num) and sub.base not in (None, 10):
            info.ops += 1  # reading 101_2 is a computation: "101_2 = 5" is a claim
    info.symbols = frozenset(symbols)
    info.units = frozenset(units)
    core, negated = _strip_units_and_sign(node)
    if isinstance(core, Num):
        info.literal, info.negated_literal = core, negated
    first = _leftmost(node)
    if isinstance(first, Num):
        info.leading_number = first.value
    return info


def _strip_units_and_sign(node: Node) -> tuple[Node, bool]:
    negated = False
    while True:
        if isinstance(node, Unit):
            node = node.x
        elif isinstance(node, Neg):
            node, negated = node.x, not negated
        else:
            return node, negated


def _leftmost(node: Node) -> Node:
    while True:
        if isinstance(node, Bin):
            node = node.a
        elif isinstance(node, Unit):
            node = node.x
        else:
            return node
