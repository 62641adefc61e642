"""Unit conversions: "2 hours = 120 minutes", "3 feet = 36 inches", "$2 = 200 cents".

Both sides carry units, every number has one (in "2 hours * 60 = 120 minutes" the bare 60
is a conversion we cannot see), every unit is in :data:`units.CONVERSIONS` (exact factors,
one system of units per quantity) and the quantities agree once each unit is replaced by
its factor times its quantity ("60 miles/hour = 88 feet/second"). Then the values are
compared exactly in the base units; a side that is one number written with decimals holds
when the other side, in its units, rounds or truncates to it ("25 minutes = 0.42 hours"),
while whole numbers must match exactly ("1 mile = 5000 feet" fails: 5280). Other decimals,
an approximate or hedged context, or a map or model scale ("1 inch = 50 miles") never
refute.
"""

from __future__ import annotations

import sympy

from autolabel.symbolic import ast
from autolabel.symbolic.chains import Side
from autolabel.symbolic.decisions import Context, Decision, rounding
from autolabel.symbolic.evaluate import exact, is_unit_symbol, show
from autolabel.symbolic.units import conversion

KIND = "unit_conversion"


def _in_base_units(value: sympy.Expr) -> sympy.Expr | None:
    """``value`` (numbers times unit symbols) with each unit as factor * quantity symbol."""
    mapping = {}
    for sym in value.free_symbols:
        if not is_unit_symbol(sym):
            return None
        known = conversion(sym.name.split(":", 1)[1])
        if known is None:
            return None
        quantity, factor = known
        mapping[sym] = sympy.Rational(factor.numerator, factor.denominator) * sympy.Symbol(
            "quantity:" + quantity, positive=True
        )
    return sympy.expand(value.subs(mapping))


def _every_number_has_a_unit(node: ast.Node) -> bool:
    """No bare factor: in "2 hours * 60 = 120 minutes" the 60 is a conversion we cannot see."""
    if isinstance(node, ast.Unit):
        return True
    if isinstance(node, ast.Num | ast.Pi):
        return False
    return all(_every_number_has_a_unit(child) for child in node.children())


def decide(left: Side, right: Side, context: Context) -> Decision | None:
    """The decision for a conversion claim, or None when it is not one we can read."""
    assert left.node is not None and right.node is not None
    if not (_every_number_has_a_unit(left.node) and _every_number_has_a_unit(right.node)):
        return None
    with_units = exact(left.node, units=True), exact(right.node, units=True)
    if not any(
        is_unit_symbol(s) for s in sympy.simplify(with_units[0] / with_units[1]).free_symbols
    ):
        return None  # the same units once they cancel ("200 sections * 400 pounds/section")
    a, b = _in_base_units(with_units[0]), _in_base_units(with_units[1])
    if a is None or b is None or a.is_zero or b.is_zero:
        return None
    ratio = sympy.simplify(a / b)
    if not ratio.is_Rational:
        return None  # different quantities, or a sum of quantities
    # each side's numbers, in its own units
    a_value, b_value = exact(left.node), exact(right.node)
    shown = (show(a_value), show(b_value))
    if ratio == 1:
        return Decision(True, "equal after converting units (exact)", *shown, KIND)
    for side, value, other_ratio in ((right, b_value, ratio), (left, a_value, 1 / ratio)):
        literal = side.info.literal if side.info else None
        if literal is None or literal.decimals is None:
            continue  # whole numbers in a conversion are exact: "1 mile = 5000 feet" fails
        # the other side's value expressed in this side's units
        rounded = rounding(side, value * other_ratio)
        if rounded is not None:
            reason = rounded[1] + " (units converted)"
            return Decision(rounded[0], reason, *shown, KIND)
    li, ri = left.info, right.info
    assert li is not None and ri is not None
    if li.has_decimal or ri.has_decimal or li.bare_percent or ri.bare_percent:
        return Decision(None, "decimals in a unit conversion", *shown, KIND)
    if context.hedged or context.approximate or context.scaled:
        return Decision(None, "a scale, an estimate or a hedge around it", *shown, KIND)
    reason = f"{shown[0]} \u2260 {shown[1]} after converting units ({ratio} : 1)"
    return Decision(False, reason, *shown, KIND)
