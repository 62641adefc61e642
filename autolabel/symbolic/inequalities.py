"""Order claims between numbers: "2^{10} = 1024 > 1000", "8 + 8 = 16 > 15", "49 < 50".

A chain with an order relation is kept only when every side is a number (no symbols): then
it is a comparison, not a condition ("n > 5") or a range ("1 \\le k \\le 9"). Each order link
is decided exactly (kind ``inequality``); a decimal written with two or more digits may have
been rounded, so the claim fails only when no value it could stand for makes it true.
Differing units (or units on one side only: "5 cm > 3 m" where "m" was not read as one),
a bare ``%`` on one side only, an approximate or hedged context ("check
if 8 + 8 > 17"), or values too close to tell apart leave it undecided.
"""

from __future__ import annotations

import sympy

from autolabel.symbolic.chains import Side
from autolabel.symbolic.compare import Context, Decision, equal_values
from autolabel.symbolic.evaluate import EvalError, exact, interval, show
from autolabel.symbolic.tokens import Token

KIND = "inequality"
ORDER = frozenset({"<", "<=", ">", ">="})

_LESS = {"<", "\\lt", "\\ll", "\\lneq", "\\lneqq"}
_LESS_EQUAL = {"<=", "\u2264", "\\le", "\\leq", "\\leqq", "\\leqslant"}
_GREATER = {">", "\\gt", "\\gg", "\\gneq", "\\gneqq"}
_GREATER_EQUAL = {">=", "\u2265", "\\ge", "\\geq", "\\geqq", "\\geqslant"}


def relation_of(tok: Token) -> str:
    """The relation a REL token stands for: "=", "~", "<", "<=", ">", ">=" or "other"."""
    if tok.value != "<":
        return tok.value
    text = tok.text.strip()
    for names, relation in (
        (_LESS, "<"),
        (_LESS_EQUAL, "<="),
        (_GREATER, ">"),
        (_GREATER_EQUAL, ">="),
    ):
        if text in names:
            return relation
    return "other"


def numeric_sides(sides: list[Side]) -> bool:
    """Every side parsed and holds no symbol: the chain compares numbers."""
    return all(s.node is not None and s.info is not None and not s.info.symbols for s in sides)


def _holds(relation: str, sign: int) -> bool:
    """Whether ``lhs relation rhs`` holds when ``lhs - rhs`` has the sign ``sign``."""
    return {
        "<": sign < 0,
        "<=": sign <= 0,
        ">": sign > 0,
        ">=": sign >= 0,
    }[relation]


def decide_order(left: Side, right: Side, relation: str, context: Context) -> Decision:
    li, ri = left.info, right.info
    assert li is not None and ri is not None and left.node is not None and right.node is not None
    if li.units != ri.units:
        return Decision(None, "different units (or units on one side only)", kind=KIND)
    if li.bare_percent != ri.bare_percent:
        return Decision(None, "a percentage on one side only", kind=KIND)
    a, b = exact(left.node), exact(right.node)
    shown = (show(a), show(b))
    if not (a.is_real and b.is_real):
        return Decision(None, "not a real number", *shown, KIND)
    same = equal_values(a, b)
    if same is None:
        return Decision(None, "could not compare", *shown, KIND)
    if same:
        sign = 0
    else:
        diff = sympy.N(a - b, 50)
        if abs(diff) < sympy.Float("1e-30"):
            return Decision(None, "too close to compare", *shown, KIND)
        sign = 1 if diff > 0 else -1
    text = f"{shown[0]} {relation} {shown[1]}"
    if _holds(relation, sign):
        return Decision(True, f"{text} holds", *shown, KIND)
    if li.has_decimal or ri.has_decimal:
        try:
            low_a, high_a = _bounds(left)
            low_b, high_b = _bounds(right)
        except (EvalError, ZeroDivisionError, ValueError):
            return Decision(None, "decimals; could not bound the rounding", *shown, KIND)
        possible = {
            "<": low_a < high_b,
            "<=": low_a <= high_b,
            ">": high_a > low_b,
            ">=": high_a >= low_b,
        }[relation]
        if possible:  # some rounding of the decimals written makes it true
            return Decision(None, "within the rounding of the decimals written", *shown, KIND)
    if context.hedged or context.approximate:
        return Decision(None, "the text around it questions or qualifies it", *shown, KIND)
    return Decision(False, f"{text} is false", *shown, KIND)


def _bounds(side: Side) -> tuple[object, object]:
    value = interval(side.node)  # type: ignore[arg-type]
    return value.a, value.b
