"""What deciding one claim returns (Decision), what is known around it (Context), and the
rounding rules a side that is one written number gets. Below compare.py and the rule modules
it calls (conversions.py), so neither imports the other back.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import sympy

from autolabel.symbolic import ast
from autolabel.symbolic.chains import Side


@dataclass
class Decision:
    holds: bool | None
    reason: str
    lhs_value: str = ""
    rhs_value: str = ""
    kind: str | None = None  # set by rules that know the claim's kind better than its sides


@dataclass(frozen=True)
class Context:
    hedged: bool = False  # "if", "?", "wrong" around the claim, or modular arithmetic
    approximate: bool = False  # decimals may be rounded ("≈", "about 3.5", "nearest tenth")
    scaled: bool = False  # a map or model scale: "1 inch = 50 miles" is a definition
    # symbols that other equations (this step's, earlier steps', the problem's) constrain
    constrained: frozenset[str] = frozenset()
    bases: frozenset[int] = frozenset()  # bases 2-9 the step or problem names (bases.py)
    digit_moduli: frozenset[int] = frozenset()  # 10^k for "the last k digits" (last_digits.py)
    imaginary: bool = False  # i is the imaginary unit here (imaginary.py)


def rounding(
    lit_side: Side, other: sympy.Expr, percent: str = "divide"
) -> tuple[bool | None, str] | None:
    """Rounding rules for a side that is one number; None when they do not apply. ``percent``
    is how a bare % is read (compare.py's modes: "divide" by 100, or "drop" it)."""
    info = lit_side.info
    assert info is not None
    if info.literal is None or info.ops > 0:
        return _percent_rounding(lit_side, other, percent)
    lit = -info.literal.value if info.negated_literal else info.literal.value
    return _rounded(lit, info.literal.decimals, other)


def _percent_rounding(
    lit_side: Side, other: sympy.Expr, percent: str = "divide"
) -> tuple[bool | None, str] | None:
    """A side that is one percentage ("33%", "33.3%"): the rounding rules on the number
    written against ``other`` in percent ("1/3 = 33.3%" rounds 33.33... to one place). Where
    the % is read as a plain number ("drop"), ``other`` is already in percent: "1/3 x 100 =
    33.3%" rounds 33.33... as written."""
    node = lit_side.node
    if not (isinstance(node, ast.Percent) and not node.of and isinstance(node.x, ast.Num)):
        return None
    result = _rounded(node.x.value, node.x.decimals, other if percent == "drop" else other * 100)
    if result is None:
        return None
    return result[0], f"{result[1]} (in percent)"


def _rounded(lit: Fraction, d: int | None, other: sympy.Expr) -> tuple[bool | None, str] | None:
    value = Fraction(str(sympy.N(other, 50)))
    err = abs(value - lit)
    if d is None:
        if other.is_Rational and other.q == 1:
            return None  # an integer that is simply different
        if err < 1:
            return None, "may be rounded to a whole number"
        return None
    if d >= 10 and err <= Fraction(1, 10**9) * max(1, abs(lit)):
        return True, "equal up to float rounding"
    unit = Fraction(1, 10**d)
    if err <= unit / 2 + Fraction(1, 10**40):
        return True, f"equal when rounded to {d} decimal place{'s' if d > 1 else ''}"
    truncated = Fraction(int(value / unit)) * unit  # toward zero
    # A cut-off repeating decimal shows at least two digits ("2/3 = 0.66"); one digit that
    # is not the rounded one is a wrong value ("2/3 = 0.6").
    if truncated == lit and d >= 2:
        return True, f"equal when truncated to {d} decimal place{'s' if d > 1 else ''}"
    return None


def round_number(lit_side: Side, other: sympy.Expr) -> bool:
    """A side that is one whole number ending in zeros, which ``other`` rounds to at its last
    nonzero digit: "about 3 × 33 = 100" (99 to the hundreds), "≈ 2,000". Only where the text
    says the claim is approximate (Context.approximate): elsewhere 99 = 100 is false."""
    info = lit_side.info
    assert info is not None
    if info.literal is None or info.ops > 0 or info.literal.decimals is not None:
        return False
    lit = -info.literal.value if info.negated_literal else info.literal.value
    if lit == 0 or lit.denominator != 1:
        return False
    zeros = len(str(abs(lit.numerator))) - len(str(abs(lit.numerator)).rstrip("0"))
    if zeros == 0:
        return False
    unit = 10**zeros
    value = Fraction(str(sympy.N(other, 50)))
    return abs(value - lit) <= Fraction(unit, 2)
