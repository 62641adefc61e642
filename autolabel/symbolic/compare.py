"""Decide one claimed equality ``lhs = rhs``: holds (True), fails (False) or undecided (None).

The rules, in order (precision first: a false "fails" misleads annotators):

0. Units on both sides that convert exactly within one system ("2 hours = 120 minutes",
   "3 feet = 36 inches"): decided by :mod:`conversions` (kind ``unit_conversion``).
1. Named quantities (``\\text{Total}``) and two bare numbers ("1 hour = 60 minutes", "Day
   1 = 5") are not computations: undecided (except a later link of a math chain, "2 + 3 =
   5 = 6").
2. Free symbols: a side with ``f(...)`` (function or product?) is undecided. Otherwise it
   holds when sympy proves ``lhs - rhs`` is 0. Fails only when the pair is a
   later link of a chain of three or more sides (``a = b = c``, the ``b = c`` link: a
   rewriting; ``a = b`` may be the equation being solved), both sides have the same symbols,
   none is ``i``/``e`` (constants?), no ``f(x)``-like reading exists, and ``lhs - rhs`` is
   non-zero at every one of six random positive rational points. Anything else ("2x + 3 =
   7", "x = 5", "f(x) = 2x") is a condition or a definition: undecided.
3. Units are positive symbols. With units on the left only, equal numbers hold but unequal
   ones stay undecided ("2 dozen = 24"); so do units on the right only with a bare proper
   fraction or percentage on the left ("1/4 is 15 minutes": of an hour). With units on both
   sides they must agree dimensionally ("550 cups / 110 cups/bag = 5 bags"); otherwise undecided.
4. A bare ``%`` is read both as /100 and as a plain number ("0.2 x 100 = 20%"); the claim
   holds if either reading holds and fails only if both fail.
5. Numbers are compared exactly (rationals as written). When they differ:
   * a decimal literal with d digits after the point holds if the other side rounds to it
     at d digits, or truncates to it at d >= 2 digits ("10/3 = 3.33", "2/3 = 0.67",
     "2/3 = 0.66", not "2/3 = 0.6"); literals with 10 or more
     digits are float renderings and hold within a relative 1e-9;
   * an integer literal within 1 of a non-integer value may be a rounding ("100/3 = 33"):
     undecided;
   * a side that is one percentage gets the same rules in percent ("1/3 = 33.3%"), and
     where % is read as a plain number, on the number as written ("1/3 x 100 = 33.3%");
   * if re-reading every decimal literal as rounded (+-half a unit in its last digit), and
     pi as any value from 3.14 to 22/7, lets the sides meet, undecided ("0.33 * 150 = 50",
     "9\\pi = 28.26": 9 * 3.14);
   * decimals or irrationals where the text says "approximately"/"about 3.5"/"≈" or the task
     asks for rounding: undecided;
   * "if"/"?"/"wrong" around the claim, or modular arithmetic in the step or task: undecided;
   * whole numbers with the same last k digits where the step or task speaks of the units
     digit or the last k digits ("the last two digits: 576 = 76"; last_digits.py): undecided;
   * a claim that holds reading its whole numbers in a base from 2 to 9 the step or task
     names ("In base 8, 7 + 1 = 10"; bases.py): undecided;
   * a whole number and the sum of its digits in order ("28 = 2 + 8", a digit sum):
     undecided;
   * an angle in radians against one in degrees is compared as an angle ("pi/3 = 60°");
   * square brackets around a number that is not whole ("[100/7] = 14": the greatest
     integer function): undecided;
   * a claim that holds reading a slash fraction after a division sign as one number
     ("4 ÷ 1/2 = 8"): undecided;
   * a running total ("3 * 4 = 12 + 5 = 17": the right side starts with the left's value):
     undecided;
   * otherwise it fails.
"""

from __future__ import annotations

import random
import re
from fractions import Fraction

import sympy

from autolabel.symbolic import ast, conversions
from autolabel.symbolic.bases import holds_in_a_base
from autolabel.symbolic.chains import Chain, Side
from autolabel.symbolic.decisions import Context, Decision, round_number, rounding
from autolabel.symbolic.evaluate import (
    EvalError,
    exact,
    interval,
    intervals_overlap,
    is_unit_symbol,
    show,
)
from autolabel.symbolic.imaginary import decide_imaginary
from autolabel.symbolic.last_digits import same_last_digits
from autolabel.symbolic.parser import parse_side
from autolabel.symbolic.tokens import LP, RP

CONSTANT_LIKE = frozenset({"i", "e", "j"})
# "4 ÷ 1/2": left to right it is 2, but writers mean 4 ÷ (1/2) = 8; both readings are common.
_DIVIDED_BY_A_FRACTION = re.compile(r"(?:\u00f7|\\div|/)\s*\d+(?:\.\d+)?\s*/\s*\d")


def claim_kind(left: Side, right: Side, chain: Chain) -> str:
    li, ri = left.info, right.info
    assert li is not None and ri is not None
    if chain.source == "annotation":
        return "gsm8k_calc"
    if chain.kind is not None:
        return chain.kind
    if li.base_numeral or ri.base_numeral:
        return "base_conversion"
    if li.symbols or ri.symbols:
        return "algebraic"
    if li.bare_percent or ri.bare_percent or li.percent_of or ri.percent_of:
        return "percentage"
    if len(chain.sides) >= 3:
        return "chain"
    return "arithmetic"


def decide(left: Side, right: Side, chain: Chain, index: int, context: Context) -> Decision:
    """Decide ``chain.sides[index] = chain.sides[index + 1]`` (``left``, ``right``)."""
    li, ri = left.info, right.info
    assert li is not None and ri is not None and left.node is not None and right.node is not None
    symbols = li.symbols | ri.symbols
    if any(s.startswith("text:") for s in symbols):
        return Decision(None, "names a quantity in words; nothing to compute")
    if symbols:
        if context.imaginary and symbols == {"i"}:
            with_unit = decide_imaginary(left, right, chain, index, context)
            if with_unit is not None:
                return with_unit
        return _algebraic(left, right, chain, index, context)
    if (li.units | ri.units) & _SCALE_WORDS:
        # "5000 = 5 \\text{ thousand}": a number word, not a unit (symbolic-1.14)
        return Decision(None, "a number word (thousand, million, dozen) after a number")
    if li.units and ri.units and li.units != ri.units:
        converted = conversions.decide(left, right, context)
        if converted is not None:
            return converted
    if (
        li.ops == 0
        and ri.ops == 0
        and not (chain.source == "math" and index >= 1 and len(chain.sides) >= 3)
    ):
        # "Day 1 = 5", "1 hour = 60 minutes": labels and conversions. Inside a math chain
        # ("2 + 3 = 5 = 6") a later link between two numbers is a claim like any other.
        return Decision(None, "two plain numbers; nothing computed")
    if _count_and_share(left.node, right.node) or _count_and_share(right.node, left.node):
        return Decision(None, "a count and its share in percent (of a whole not written)")
    in_radians = _radians_as_degrees(left, right)
    if in_radians is not None:
        return in_radians
    if _digit_sum(left.node, right.node) or _digit_sum(right.node, left.node):
        return Decision(None, "a number and the sum of its digits (a digit sum)")
    verify_only = ""
    if li.units and ri.units and li.units != ri.units:
        if not _dimensions_agree(left.node, right.node):
            return Decision(None, "units differ")
    elif li.units and not ri.units:
        verify_only = "units on the left only; may be a conversion"  # "2 dozen = 24"
    elif ri.units and not li.units and _part_of_something(left.node):
        verify_only = "a fraction or percentage of a quantity not written"  # "1/4 is 15 min"
    modes = ["divide", "drop"] if (li.bare_percent or ri.bare_percent) else ["divide"]
    results = [_numeric(left, right, mode, context) for mode in modes]
    for mode, result in zip(modes, results, strict=True):
        if result.holds:
            if mode == "drop":
                result.reason += " (reading % as a plain number)"
            return result
    if all(r.holds is False for r in results):
        if verify_only:
            return _undecided(results[0], verify_only)
        return results[0]
    undecided = next(r for r in results if r.holds is None)
    return undecided


def _count_and_share(count: ast.Node, share: ast.Node) -> bool:
    """A whole number written equal to a bare percentage: "Out of 20, 5 = 25%" says that 5
    is 25% of the whole, not that 5 is 0.25 ("0.75 = 70%", a decimal, is still a claim)."""
    return (
        isinstance(count, ast.Num)
        and count.decimals is None
        and count.value >= 1
        and count.value.denominator == 1
        and isinstance(share, ast.Percent)
        and not share.of
        and isinstance(share.x, ast.Num)
    )


def _part_of_something(node: ast.Node) -> bool:
    """A bare proper fraction of whole numbers or a percentage: "1/4 = 15 minutes" may mean
    a quarter of an hour (but "0.0375/0.75 = 0.04 days" is a division)."""
    if isinstance(node, ast.Percent):
        return True
    return (
        isinstance(node, ast.Bin)
        and node.op == "/"
        and isinstance(node.a, ast.Num)
        and isinstance(node.b, ast.Num)
        and node.a.decimals is None
        and node.b.decimals is None
        and 0 < node.a.value < node.b.value
    )


def _undecided(result: Decision, reason: str) -> Decision:
    return Decision(None, reason, result.lhs_value, result.rhs_value)


def _dimensions_agree(left: ast.Node, right: ast.Node) -> bool:
    a = exact(left, units=True)
    b = exact(right, units=True)
    if a.is_zero or b.is_zero:
        return False
    ratio = sympy.simplify(a / b)
    return not any(is_unit_symbol(s) for s in ratio.free_symbols)


def equal_values(a: sympy.Expr, b: sympy.Expr) -> bool | None:
    """Exact equality of two constant expressions: True, False, or None (cannot tell)."""
    if a.is_Rational and b.is_Rational:
        return bool(a == b)
    diff = sympy.expand(a - b)
    if diff.is_zero:
        return True
    approx = sympy.N(diff, 40)
    if not approx.is_number or approx.has(sympy.zoo, sympy.nan, sympy.oo, -sympy.oo):
        return None
    scale = max(1.0, abs(complex(sympy.N(a, 15))), abs(complex(sympy.N(b, 15))))
    magnitude = abs(complex(approx))
    if magnitude > 1e-25 * scale:
        return False
    if diff.has(sympy.sin, sympy.cos, sympy.tan, sympy.cot, sympy.sec, sympy.csc):
        # products of values at rational degrees: simplify() is slow there, and a difference
        # under 1e-35 of the values' size is equality (a holding claim refutes nothing)
        return True if magnitude < 1e-35 * scale else None
    if sympy.simplify(diff) == 0 or sympy.nsimplify(diff) == 0:
        return True
    return True if magnitude < 1e-35 * scale else None


def _numeric(left: Side, right: Side, mode: str, context: Context) -> Decision:
    a = exact(left.node, percent=mode)  # type: ignore[arg-type]
    b = exact(right.node, percent=mode)  # type: ignore[arg-type]
    shown = (show(a), show(b))
    if not (a.is_number and b.is_number) or not (a.is_real and b.is_real):
        return Decision(None, "not a real number", *shown)
    same = equal_values(a, b)
    if same is True:
        return Decision(True, "equal (exact)", *shown)
    if same is None:
        return Decision(None, "could not decide equality", *shown)
    for lit_side, other in ((right, a), (left, b)):
        rounded = rounding(lit_side, other, mode)
        if rounded is not None:
            return Decision(rounded[0], rounded[1], *shown)
        if context.approximate and round_number(lit_side, other):
            return Decision(None, "a round number in an approximate context", *shown)
    li, ri = left.info, right.info
    assert li is not None and ri is not None
    if li.has_decimal or ri.has_decimal:
        try:
            if intervals_overlap(
                interval(left.node, percent=mode),  # type: ignore[arg-type]
                interval(right.node, percent=mode),  # type: ignore[arg-type]
            ):
                return Decision(None, "within the rounding of the decimals written", *shown)
        except (EvalError, ZeroDivisionError, ValueError):
            return Decision(None, "decimals; could not bound the rounding", *shown)
        if context.approximate:
            return Decision(None, "decimals in an approximate context", *shown)
    if context.hedged:
        return Decision(None, "the text around it questions or qualifies it", *shown)
    if context.approximate and not (a.is_Rational and b.is_Rational):
        return Decision(None, "irrational value in an approximate context", *shown)
    if _bracket_of_a_fraction(left) or _bracket_of_a_fraction(right):
        return Decision(None, "[x] around a non-integer may be the greatest integer", *shown)
    if _holds_dividing_by_fractions(left, right, a, b, mode):
        return Decision(None, "holds reading 'a ÷ b/c' as a ÷ (b/c)", *shown)
    modulus = same_last_digits(a, b, context.digit_moduli)
    if modulus is not None:
        return Decision(None, f"the same last digits (modulo {modulus})", *shown)
    base = holds_in_a_base(left.node, right.node, context.bases, mode)  # type: ignore[arg-type]
    if base is not None:
        return Decision(None, f"holds reading the numerals in base {base}", *shown)
    lead = ri.leading_number
    if lead is not None and ri.ops > 0 and _leads_with(a, lead):
        return Decision(None, "running total ('=' used as 'then')", *shown)
    if _pi_as_22_7(a, right.node, b) or _pi_as_22_7(b, left.node, a):  # type: ignore[arg-type]
        return Decision(None, "holds taking pi as 22/7", *shown)
    return Decision(False, f"{shown[0]} \u2260 {shown[1]}", *shown)


_SCALE_WORDS = frozenset({"hundred", "thousand", "million", "billion", "trillion", "dozen"})


def _pi_as_22_7(with_pi: sympy.Expr, other: ast.Node, other_value: sympy.Expr) -> bool:
    """ "pi * 49 = 22/7 * 49 = 154": the other side writes pi as 22/7 (symbolic-1.14)."""
    writes_22_7 = any(
        isinstance(n, ast.Bin)
        and n.op == "/"
        and isinstance(n.a, ast.Num)
        and isinstance(n.b, ast.Num)
        and (n.a.value, n.b.value) == (22, 7)
        for n in other.walk()
    )
    if not (writes_22_7 and with_pi.has(sympy.pi)):
        return False
    return equal_values(with_pi.subs(sympy.pi, sympy.Rational(22, 7)), other_value) is True


def _leads_with(value: sympy.Expr, lead: Fraction) -> bool:
    """The right side starts with the left's value, or with it rounded to the decimals the
    lead is written with ("100/3 = 33.33 * 3 = 100": symbolic-1.14)."""
    written = sympy.Rational(lead.numerator, lead.denominator)
    if value.is_Rational and value == written:
        return True
    decimals = next((d for d in range(1, 7) if (lead * 10**d).denominator == 1), None)
    if decimals is None or not (value.is_number and value.is_real):
        return False
    return bool(abs(sympy.N(value - written, 30)) <= sympy.Rational(1, 2 * 10**decimals))


def _radians_as_degrees(left: Side, right: Side) -> Decision | None:
    """An angle in radians (a multiple of pi, no unit) equal to one in degrees:
    "$\\frac{\\pi}{3} = 60^\\circ$" holds, "$\\frac{\\pi}{3} = 45^\\circ$" fails."""
    li, ri = left.info, right.info
    assert li is not None and ri is not None and left.node and right.node
    if li.units == {"deg"} and not ri.units:
        degrees, radians = left, right
    elif ri.units == {"deg"} and not li.units:
        degrees, radians = right, left
    else:
        return None
    if not any(isinstance(n, ast.Pi) for n in radians.node.walk()):  # type: ignore[union-attr]
        return None
    if not _carries_degrees(degrees.node):  # type: ignore[arg-type]
        return None  # "\\frac{40^\\circ}{360^\\circ}(2\\pi)": degrees over degrees, a ratio
    try:
        rad = exact(radians.node) * 180 / sympy.pi  # type: ignore[arg-type]
        deg = exact(degrees.node)  # type: ignore[arg-type]
    except (EvalError, ZeroDivisionError, ValueError, TypeError):
        return None
    shown = (show(exact(left.node)), show(exact(right.node)))  # type: ignore[arg-type]
    if not (rad.is_number and deg.is_number):
        return None
    same = equal_values(rad, deg)
    if same is None:
        return Decision(None, "could not decide equality", *shown)
    verdict = "equal" if same else "not equal"
    return Decision(
        same, f"radians and degrees: {show(rad)}\u00b0 {verdict} {show(deg)}\u00b0", *shown
    )


def _carries_degrees(node: ast.Node) -> bool:
    """The side's value is in degrees: its degree signs do not cancel out."""
    try:
        value = exact(node, units=True)
    except (EvalError, ZeroDivisionError, ValueError, TypeError):
        return False
    return any(is_unit_symbol(s) for s in value.free_symbols)


def _digit_sum(number: ast.Node, terms: ast.Node) -> bool:
    """``terms`` adds the digits of the whole number ``number`` in order: "28 = 2 + 8"
    writes "=" for "has the digit sum"."""
    if not (isinstance(number, ast.Num) and number.decimals is None and number.base is None):
        return False
    digits: list[str] = []

    def collect(node: ast.Node) -> bool:
        if isinstance(node, ast.Bin) and node.op == "+" and not node.implicit:
            return collect(node.a) and collect(node.b)
        if isinstance(node, ast.Num) and node.decimals is None and 0 <= node.value <= 9:
            digits.append(str(node.value))
            return True
        return False

    return collect(terms) and len(digits) >= 2 and "".join(digits) == str(number.value)


def _bracket_of_a_fraction(side: Side) -> bool:
    """Square brackets around a number that is not whole: "$[\\frac{100}{7}] = 14$" writes
    the greatest integer (floor) function, as olympiad solutions often do."""
    opened: list[int] = []
    for i, tok in enumerate(side.tokens):
        if tok.kind == LP:
            opened.append(i)
        elif tok.kind == RP and opened:
            start = opened.pop()
            if side.tokens[start].value != "[" or tok.value != "]":
                continue
            try:
                node, _ = parse_side(side.tokens[start + 1 : i], "math")
                value = exact(node)
            except Exception:  # a bracket's content that does not parse says nothing
                continue
            if value.is_number and value.is_real and not value.is_Integer:
                return True
    return False


def _holds_dividing_by_fractions(
    left: Side, right: Side, a: sympy.Expr, b: sympy.Expr, mode: str
) -> bool:
    """Whether the claim holds when a slash fraction after a division sign is one number
    ("4 ÷ 1/2 = 8"), on a side written that way."""
    for side, other in ((left, b), (right, a)):
        if not _DIVIDED_BY_A_FRACTION.search(side.text):
            continue
        try:
            value = exact(_fractions_grouped(side.node), percent=mode)  # type: ignore[arg-type]
        except (EvalError, ZeroDivisionError, ValueError, TypeError):
            continue
        if equal_values(value, other) is True:
            return True
    return False


def _fractions_grouped(node: ast.Node) -> ast.Node:
    """``(x / b) / c`` with whole numbers b and c read as ``x / (b / c)``, everywhere."""
    if isinstance(node, ast.Bin):
        a, b = _fractions_grouped(node.a), _fractions_grouped(node.b)
        if (
            node.op == "/"
            and isinstance(a, ast.Bin)
            and a.op == "/"
            and isinstance(a.b, ast.Num)
            and isinstance(b, ast.Num)
        ):
            return ast.Bin("/", a.a, ast.Bin("/", a.b, b))
        return ast.Bin(node.op, a, b, node.implicit)
    if isinstance(node, ast.Neg):
        return ast.Neg(_fractions_grouped(node.x))
    return node


def _vanishes_at_a_point(diff: sympy.Expr) -> bool:
    """True unless ``diff`` is clearly non-zero at a random positive point."""
    rng = random.Random(7)
    point = {s: sympy.Rational(rng.randint(1, 97), rng.randint(1, 13)) for s in diff.free_symbols}
    try:
        value = complex(sympy.N(diff.subs(point), 30))
    except (TypeError, ValueError, ZeroDivisionError):
        return True  # cannot tell: let simplify try
    scale = max(1.0, abs(value))
    return abs(value) < 1e-12 * scale if value == value else True  # NaN: cannot tell


def _algebraic(left: Side, right: Side, chain: Chain, index: int, context: Context) -> Decision:
    li, ri = left.info, right.info
    assert li is not None and ri is not None
    a = exact(left.node)  # type: ignore[arg-type]
    b = exact(right.node)  # type: ignore[arg-type]
    shown = (show(a), show(b))
    if li.call_like or ri.call_like:
        # f(-x) = -f(x) "holds" if f is read as a number; we cannot tell which it is
        return Decision(None, "f(x) may be a function, not a product", *shown)
    diff = a - b
    if diff == 0 or sympy.expand(diff) == 0:
        return Decision(True, "identity (lhs - rhs simplifies to 0)", *shown)
    # simplify() is slow and mostly fails on equations ("2x + 3 = 7"); only try it when
    # lhs - rhs vanishes at a random point, i.e. when it can be an identity.
    if _vanishes_at_a_point(diff) and sympy.simplify(diff) == 0:
        return Decision(True, "identity (lhs - rhs simplifies to 0)", *shown)
    if not li.symbols or not ri.symbols:
        return Decision(None, "an equation or definition (a condition, not a claim)", *shown)
    if li.symbols != ri.symbols:
        return Decision(None, "relates different symbols (a condition or substitution)", *shown)
    if len(chain.sides) < 3 or index == 0:
        # "lhs = rhs = rewritten rhs": the first link may be the equation being solved
        return Decision(None, "may be an equation (a condition), not a rewriting", *shown)
    if li.symbols & CONSTANT_LIKE:
        return Decision(None, "i or e may be a constant, not a variable", *shown)
    if chain.pattern:
        return Decision(None, "a pattern with '...' (conditions), not a rewriting", *shown)
    if (li.symbols | ri.symbols) & context.constrained:
        return Decision(None, "symbols constrained elsewhere (a condition may be used)", *shown)
    if li.units or ri.units or context.hedged:
        return Decision(None, "ambiguous reading (units or hedge)", *shown)
    if chain.source == "annotation":
        return Decision(None, "symbols in a calculator annotation", *shown)
    rng = random.Random(20251202)
    symbols = sorted(diff.free_symbols, key=lambda s: s.name)
    witness = ""
    for _ in range(6):
        point = {s: sympy.Rational(rng.randint(1, 97), rng.randint(1, 13)) for s in symbols}
        value = diff.subs(point)
        if not value.is_number:
            return Decision(None, "could not evaluate at sample points", *shown)
        nonzero = equal_values(value, sympy.Integer(0))
        if nonzero is not False:
            return Decision(None, "vanishes (or is undefined) at a sample point", *shown)
        if not witness:
            witness = ", ".join(f"{s}={v}" for s, v in point.items())
            witness += f": lhs={show(a.subs(point))}, rhs={show(b.subs(point))}"
    return Decision(False, f"not an identity ({witness})", *shown)
