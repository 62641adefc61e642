"""Floors and ceilings of numbers: ``\\lfloor \\frac{100}{3} \\rfloor = 33``,
``\\lceil -8.8 \\rceil = -8``, ``\\left\\lfloor 2^{10} / 7 \\right\\rfloor = 146``.

The bracket holds an expression in numbers only (no symbol, no nested floor), read by the
same parser as any side; the value after "=" is a whole number standing alone (not the start
of an expression). A decimal within 0.001 of a whole number inside the bracket may be a
rounding ("\\lfloor 2.9999 \\rfloor") and reads nothing. The brackets are found with plain
string search, one pass over the text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import sympy

from autolabel.symbolic.chains import make_side
from autolabel.symbolic.compare import Decision
from autolabel.symbolic.evaluate import exact, show
from autolabel.symbolic.statements import Statement
from autolabel.symbolic.tokens import SPACE, tokenize

KIND = "floor_ceiling"
MAX_INNER = 120

_VALUE = re.compile(r"\s*=\s*(-?\d+)(?![\d.,]|\s*(?:[-+*/^(]|\\(?:cdot|times|div|frac)))")
_DECIMAL = re.compile(r"\d\.\d")


def floor_statements(prepared: str) -> Iterator[Statement]:
    for which in ("floor", "ceil"):
        opener, closer = f"\\l{which}", f"\\r{which}"
        start = prepared.find(opener)
        while start != -1:
            end = prepared.find(closer, start + len(opener), start + len(opener) + MAX_INNER + 8)
            if end == -1:  # no closer near: not a bracket we read
                start = prepared.find(opener, start + len(opener))
                continue
            inner = prepared[start + len(opener) : end]
            following = start + len(opener)
            statement = _statement(prepared, which, start, inner, end + len(closer))
            if statement is not None:
                yield statement
            start = prepared.find(opener, following)


def _statement(prepared: str, which: str, start: int, inner: str, after: int) -> Statement | None:
    if len(inner) > MAX_INNER or "\\l" + which in inner:
        return None
    inner = inner.strip()
    if inner.endswith("\\right"):
        inner = inner[: -len("\\right")]
    begin = start - len("\\left") if prepared.endswith("\\left", 0, start) else start
    m = _VALUE.match(prepared, after)
    if m is None:
        return None
    tokens = [t for t in tokenize(inner, "math") if t.kind != SPACE]
    side = make_side(tokens, "math", inner)
    if side.node is None or side.info is None or side.info.symbols or side.info.units:
        return None
    claimed = int(m.group(1))
    name = "\u230a\u230b" if which == "floor" else "\u2308\u2309"
    text = f"{name[0]}{inner.strip()}{name[1]} = {claimed}"
    rounded = bool(_DECIMAL.search(inner))

    def decide() -> Decision:
        return _decide(side.node, which, claimed, rounded)

    if not _alone(prepared, begin):
        return None
    return Statement(KIND, text, begin, m.end(), inner.strip(), str(claimed), decide)


def _alone(prepared: str, begin: int) -> bool:
    """The bracket is the whole left side: "= \\lfloor ...", "$\\lfloor ...", not
    "2\\lfloor ..." or "\\lfloor a \\rfloor + \\lfloor b \\rfloor = ..."."""
    before = prepared[max(0, begin - 40) : begin].rstrip()
    if not before or before[-1] in "=$(,:;" or before.endswith(("\\(", "\\[")):
        return True
    return before[-1].isalpha() and not re.search(r"\\[A-Za-z]+$", before)


def _decide(node: object, which: str, claimed: int, rounded: bool) -> Decision:
    value = exact(node)  # type: ignore[arg-type]
    if not value.is_real:
        return Decision(None, "not a real number", kind=KIND)
    if rounded and abs(value - sympy.Integer(round(value))) < sympy.Rational(1, 1000):
        return Decision(None, "a decimal next to a whole number may be a rounding", kind=KIND)
    result = sympy.floor(value) if which == "floor" else sympy.ceiling(value)
    if not result.is_Integer:
        return Decision(None, "could not decide", kind=KIND)
    got = int(result)
    reason = f"{which}({show(value)}) = {got}" + ("" if got == claimed else f", not {claimed}")
    return Decision(got == claimed, reason, str(got), str(claimed), KIND)
