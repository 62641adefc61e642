"""A count the parser does not read, at the start of a chain: "C(9, 7) = ... = 36 ways".

Combinations and permutations written as calls or with scripts (``C(9, 7)``, ``P(5, 3)``,
``9C7``, ``_9C_7``, ``^9C_7``, ``C_9^7``) are not read as numbers anywhere else: a point or a
function may be named C or P ("the point C(16, 2)", "P(1, 0) = 0" for a polynomial). They
are read here only for one question, whether a chain's two ends agree (check._slips): where
a chain "C(9, 7) = (9·8·7·6·5·4)/7! = 36" starts with one (its first side, or the text right
before its first side ends in "C(9, 7) ="), the count is that chain's first end. A reading
here can only turn a false link into a slip (evidence, not a −1), never refute anything, so a
C or P that is no count costs a refutation at most, never a false one.
"""

from __future__ import annotations

import re

import sympy

from autolabel.symbolic.chains import Chain, Side
from autolabel.symbolic.compare import equal_values
from autolabel.symbolic.evaluate import exact

MAX_N = 1000


def _n(i: int) -> str:
    return rf"\{{?\s*(?P<n{i}>\d+)\s*\}}?"


def _k(i: int) -> str:
    return rf"\{{?\s*(?P<k{i}>\d+)\s*\}}?"


_FORMS = [
    r"(?<![A-Za-z\\])(?P<f0>[CP])\s*\(\s*(?P<n0>\d+)\s*,\s*(?P<k0>\d+)\s*\)",  # C(9, 7)
    r"(?<![\w.])(?P<n1>\d+)(?P<f1>[CP])(?P<k1>\d+)(?![\w.])",  # 9C7
    rf"[_^]{_n(2)}\s*(?P<f2>[CP])_{_k(2)}",  # _9C_7, ^9C_7
    rf"(?<![A-Za-z\\])(?P<f3>[CP])_{_n(3)}\^{_k(3)}",  # C_9^7
    rf"(?<![A-Za-z\\])(?P<f4>[CP])\^{_k(4)}_{_n(4)}",  # C^7_9
]
_NOTATION = "(?:" + "|".join(_FORMS) + ")"
_WHOLE = re.compile(rf"^\s*{_NOTATION}\s*$")
# The words before a chain's first side end in the count and "=" ("there are C(9, 7) = ").
_BEFORE = re.compile(rf"{_NOTATION}\s*(?:\\\)|\$)?\s*=\s*(?:\\\(|\$)?\s*$")


def _value(m: re.Match[str]) -> int | None:
    for i in range(len(_FORMS)):
        if m.group(f"f{i}"):
            f, n, k = m.group(f"f{i}"), int(m.group(f"n{i}")), int(m.group(f"k{i}"))
            break
    else:  # pragma: no cover - one form always matched
        return None
    if n > MAX_N or k > n:
        return None
    if f == "C":
        return int(sympy.binomial(n, k))
    return int(sympy.factorial(n) / sympy.factorial(n - k))


def written_start(chain: Chain, prepared: str) -> int | None:
    """The count a chain starts with, where it starts with one the parser left unread."""
    first = chain.sides[0]
    if first.node is None or (first.info is not None and first.info.symbols):
        m = _WHOLE.match(prepared[first.start : first.end])
        return _value(m) if m else None
    m = _BEFORE.search(prepared[max(0, first.start - 60) : first.start])
    return _value(m) if m else None


def agrees(count: int, last: Side) -> bool:
    """The chain's last side is the count (exactly)."""
    assert last.node is not None
    return equal_values(sympy.Integer(count), exact(last.node)) is True
