"""A linear equation written with decimals, derived from an exact one (the solving kind).

"33(1089 + 2b) = 2013, so 1089 + 2b = 60.45": the first has the root -514, the second
-514.275. A decimal may be a rounding or a truncation of an exact value, so the second is
wrong only when no real root of the first lies in the interval its root sweeps as each
decimal written moves by one unit of its last place either way (60.44 to 60.46 here:
-514.28 to -514.27). Each corner of those moves is parsed and solved exactly. The
coefficient of the variable is multilinear in the decimals, so where it has one sign at
every corner it keeps it inside, the root is monotonic in each decimal, and the corners
bound it; else nothing is decided.
"""

from __future__ import annotations

import itertools
import re

import sympy

from autolabel.symbolic.chains import Side, make_side
from autolabel.symbolic.evaluate import EvalError, exact
from autolabel.symbolic.tokens import SPACE, Token, tokenize

_DECIMAL = re.compile(r"(?<![\d.])(\d+)\.(\d+)(?![\d.])")
_GROUPED = re.compile(r"\d[,{}\s]+\d{3}\b")  # "1,000.5", "1{,}000.5": not moved as written
MAX_DECIMALS = 3  # 2**3 corners at most


def written_decimals(*texts: str) -> bool:
    return any(_DECIMAL.search(text) for text in texts)


def _moved(text: str, signs: list[int]) -> str:
    """``text`` with its n-th decimal moved by ``signs[n]`` units of its last place."""
    count = itertools.count()

    def move(match: re.Match[str]) -> str:
        places = len(match.group(2))
        value = sympy.Rational(f"{match.group(1)}.{match.group(2)}")
        value += signs[next(count)] * sympy.Rational(1, 10**places)
        return f"{float(value):.{places}f}"

    return _DECIMAL.sub(move, text)


def _tokens(text: str, mode: str) -> list[Token]:
    return [t for t in tokenize(text, mode) if t.kind != SPACE]


def _root(left: str, right: str, mode: str, symbol: sympy.Symbol) -> tuple[sympy.Expr, bool] | None:
    """The one root of ``left = right``, linear in ``symbol``, and whether its coefficient
    of ``symbol`` is positive; None if it is not that."""
    sides = [make_side(_tokens(text, mode), mode, text) for text in (left, right)]
    if any(side.node is None for side in sides):
        return None
    try:
        expr = sympy.cancel(sympy.together(exact(sides[0].node) - exact(sides[1].node)))
    except (EvalError, ArithmeticError, ValueError, TypeError):
        return None
    numerator, denominator = sympy.fraction(expr)
    if symbol in denominator.free_symbols:
        return None
    try:
        poly = sympy.Poly(numerator, symbol)
    except sympy.PolynomialError:
        return None
    if poly.degree() != 1 or not (poly.domain.is_ZZ or poly.domain.is_QQ):
        return None
    slope, constant = poly.all_coeffs()
    return -constant / slope, bool(slope > 0)


def decimal_root_missed(before: sympy.Poly, c: Side, d: Side, symbol: sympy.Symbol) -> bool:
    """True when the linear equation ``c = d`` (with decimals) is no rounding of a root of
    ``before`` (exact, rational coefficients): see the module's docstring."""
    texts = (c.text, d.text)
    if any(_GROUPED.search(text) for text in texts):
        return False
    counts = [len(_DECIMAL.findall(text)) for text in texts]
    if not 0 < sum(counts) <= MAX_DECIMALS:
        return False
    corners = []
    for signs in itertools.product((-1, 1), repeat=sum(counts)):
        left = _moved(texts[0], list(signs[: counts[0]]))
        right = _moved(texts[1], list(signs[counts[0] :]))
        corner = _root(left, right, c.mode, symbol)
        if corner is None:
            return False
        corners.append(corner)
    if len({positive for _, positive in corners}) > 1:
        return False  # the coefficient may vanish between corners
    low, high = min(r for r, _ in corners), max(r for r, _ in corners)
    try:
        real = sympy.real_roots(before)
    except (sympy.PolynomialError, NotImplementedError):
        return False
    return bool(real) and all(r < low or r > high for r in real)
