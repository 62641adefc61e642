"""Evaluate expression trees exactly (sympy) and as intervals (mpmath), with size guards.

Exact evaluation reads every literal as the rational number written (``0.15`` is 3/20), so
integer and rational claims are decided exactly, never by float comparison. Interval
evaluation widens each decimal literal with two or more digits after the point by half a
unit in its last digit (``3.14`` -> [3.135, 3.145], ``0.33`` -> [0.325, 0.335]) and is used
only to avoid refuting a claim that an earlier rounding could explain ("0.33 * 150 = 50").
One-digit decimals (``1.5``, ``0.5``) are nearly always exact and are not widened. Pi spans
the school approximations 3.14 to 22/7 there: "$\\pi \\times 3^2 = 28.26$" is 9 * 3.14, a
value computed with the approximation a problem asks for or a writer uses, not an error.

Guards run *before* sympy sees a number, so ``10^{10^{10}}`` or ``5000!`` raise
:class:`TooLarge` instead of computing; the caller's hard time limit is the backstop.
"""

from __future__ import annotations

import math
from fractions import Fraction

import sympy
from mpmath import iv

from autolabel.symbolic import ast, brackets, logs, sums, trig

MAX_EXPONENT = 10_000
MAX_RESULT_BITS = 100_000  # about 30,000 digits
MAX_SYMBOLIC_EXPONENT = 40
MAX_FACTORIAL = 2_000
MAX_BINOM_N = 10_000
MAX_ROOT_INDEX = 100
MAX_PRIME_COUNT = 10**6  # π(n), the prime-counting function (commands.py), up to here

iv.prec = 120


class EvalError(Exception):
    """The value is undefined (division by zero) or outside what we evaluate."""


class TooLarge(EvalError):
    """Evaluating would build a number too large to handle within the time limit."""


_UNIT_PREFIX = "unit:"


def unit_symbol(name: str) -> sympy.Expr:
    """A unit as a positive symbol; "pound/section" is pound * section**-1."""
    first, *rest = name.split("/")
    expr: sympy.Expr = (
        sympy.Symbol(_UNIT_PREFIX + first.strip(), positive=True) if first.strip() else sympy.S.One
    )
    for part in rest:
        expr = expr / sympy.Symbol(_UNIT_PREFIX + part.strip(), positive=True)
    return expr


def is_unit_symbol(sym: sympy.Symbol) -> bool:
    return sym.name.startswith(_UNIT_PREFIX)


def _bits(value: sympy.Rational) -> int:
    return int(abs(value.p)).bit_length() + int(value.q).bit_length()


def _check_size(value: sympy.Expr) -> sympy.Expr:
    if value.is_Rational and _bits(value) > MAX_RESULT_BITS:
        raise TooLarge("intermediate value too large")
    return value


def exact(node: ast.Node, *, percent: str = "divide", units: bool = False) -> sympy.Expr:
    """The exact value of ``node``; ``percent`` is "divide" (50% = 1/2) or "drop" (= 50)."""
    return _exact(node, percent, units)


def _exact(node: ast.Node, percent: str, units: bool) -> sympy.Expr:
    if isinstance(node, ast.Num):
        return sympy.Rational(node.value.numerator, node.value.denominator)
    if isinstance(node, ast.Sym):
        return sympy.Symbol(node.name)
    if isinstance(node, ast.Pi):
        return sympy.pi
    if isinstance(node, ast.Neg):
        return -_exact(node.x, percent, units)
    if isinstance(node, ast.Unit):
        inner = _exact(node.x, percent, units)
        return inner * unit_symbol(node.unit) if units else inner
    if isinstance(node, ast.Percent):
        inner = _exact(node.x, percent, units)
        return inner / 100 if (node.of or percent == "divide") else inner
    if isinstance(node, ast.Bin):
        a = _exact(node.a, percent, units)
        b = _exact(node.b, percent, units)
        if node.op == "+":
            return _check_size(a + b)
        if node.op == "-":
            return _check_size(a - b)
        if node.op == "*":
            return _check_size(a * b)
        if b.is_zero:
            raise EvalError("division by zero")
        return _check_size(a / b)
    if isinstance(node, ast.Pow):
        return _power(_exact(node.base, percent, units), _exact(node.exp, percent, units))
    if isinstance(node, ast.Fact):
        x = _exact(node.x, percent, units)
        if not x.is_Integer or x < 0:
            raise EvalError("factorial of a non-natural number")
        if x > MAX_FACTORIAL:
            raise TooLarge("factorial too large")
        return sympy.factorial(x)
    if isinstance(node, ast.PrimeCount):
        x = _exact(node.x, percent, units)
        if not x.is_Integer or not 0 <= x <= MAX_PRIME_COUNT:
            raise EvalError("prime count of an unsupported number")
        return sympy.Integer(sympy.primepi(int(x)))
    if isinstance(node, ast.Binom):
        n = _exact(node.n, percent, units)
        k = _exact(node.k, percent, units)
        if not (n.is_Integer and k.is_Integer):
            raise EvalError("binomial of non-integers")
        if abs(n) > MAX_BINOM_N or abs(k) > MAX_BINOM_N:
            raise TooLarge("binomial too large")
        return sympy.binomial(n, k)
    if isinstance(node, ast.Root):
        x = _exact(node.x, percent, units)
        if node.n is None:
            return _power(x, sympy.Rational(1, 2))
        n = _exact(node.n, percent, units)
        if not n.is_Integer or not (2 <= n <= MAX_ROOT_INDEX):
            raise EvalError("unsupported root index")
        return _power(x, sympy.Rational(1, int(n)))
    if isinstance(node, ast.Abs):
        return sympy.Abs(_exact(node.x, percent, units))
    if isinstance(node, ast.Trig):
        try:
            return trig.trig_value(node, _exact(node.x, percent, False))
        except trig.NotRead as exc:
            raise EvalError(str(exc)) from exc
    if isinstance(node, ast.Floor):
        try:
            return brackets.value(node, _exact(node.x, percent, False))
        except ValueError as exc:
            raise EvalError(str(exc)) from exc
    if isinstance(node, ast.Log):
        base = None if node.base is None else _exact(node.base, percent, False)
        try:
            return logs.value(_exact(node.x, percent, False), base)
        except ValueError as exc:
            raise EvalError(str(exc)) from exc
    if isinstance(node, ast.Sum):
        values = [_exact(term, percent, units) for term in sums.terms(node)]
        total = values[0]
        for value in values[1:]:
            total = _check_size(total + value if node.op == "sum" else total * value)
        return total
    raise EvalError(f"cannot evaluate {type(node).__name__}")


def _power(base: sympy.Expr, exp: sympy.Expr) -> sympy.Expr:
    if exp.is_Rational:
        if abs(exp.p) > MAX_EXPONENT or exp.q > MAX_ROOT_INDEX:
            raise TooLarge("exponent too large")
        if base.is_Rational:
            if base.is_zero and exp.is_negative:
                raise EvalError("division by zero")
            if _bits(base) * abs(exp.p) > MAX_RESULT_BITS:
                raise TooLarge("power too large")
            if exp.q != 1 and base.is_negative:
                raise EvalError("root of a negative number")
        elif base.free_symbols and abs(exp.p) > MAX_SYMBOLIC_EXPONENT:
            raise TooLarge("symbolic power too large")
        elif base.is_number:
            approx = abs(complex(sympy.N(base, 15)))
            if approx > 1 and float(abs(exp)) * math.log2(approx) > MAX_RESULT_BITS:
                raise TooLarge("power too large")
    elif exp.is_number:
        approx_exp = abs(complex(sympy.N(exp, 15)))
        if approx_exp > MAX_EXPONENT:
            raise TooLarge("exponent too large")
    return _check_size(sympy.Pow(base, exp))


# --- intervals --------------------------------------------------------------------------


def _fraction_iv(value: Fraction) -> iv.mpf:
    return iv.mpf(value.numerator) / iv.mpf(value.denominator)


# 3.14 <= pi <= 22/7: every school approximation of pi (3.14, 3.1416, 22/7) and pi itself.
_PI_APPROXIMATIONS = iv.mpf([(iv.mpf(314) / 100).a, (iv.mpf(22) / 7).b])


def interval(node: ast.Node, *, percent: str = "divide") -> iv.mpf:
    """An interval holding every value ``node`` could have had before its decimals were
    rounded to the digits shown. Raises EvalError for symbols or unsupported nodes."""
    if isinstance(node, ast.Num):
        if node.decimals is None or node.decimals < 2:
            return _fraction_iv(node.value)
        half = Fraction(1, 2 * 10**node.decimals)
        return iv.mpf([_fraction_iv(node.value - half).a, _fraction_iv(node.value + half).b])
    if isinstance(node, ast.Pi):
        return _PI_APPROXIMATIONS
    if isinstance(node, ast.Neg):
        return -interval(node.x, percent=percent)
    if isinstance(node, ast.Unit):
        return interval(node.x, percent=percent)
    if isinstance(node, ast.Percent):
        inner = interval(node.x, percent=percent)
        return inner / 100 if (node.of or percent == "divide") else inner
    if isinstance(node, ast.Bin):
        a = interval(node.a, percent=percent)
        b = interval(node.b, percent=percent)
        if node.op == "+":
            return a + b
        if node.op == "-":
            return a - b
        if node.op == "*":
            return a * b
        return a / b
    if isinstance(node, ast.Fact | ast.Binom | ast.Floor | ast.PrimeCount):
        value = exact(node, percent=percent)  # integer arguments only; a floor is exact
        return iv.mpf(int(value))
    if isinstance(node, ast.Pow):
        base = interval(node.base, percent=percent)
        exp_value = exact(node.exp, percent=percent)
        if exp_value.is_Integer:
            return base ** int(exp_value)
        return base ** interval(node.exp, percent=percent)
    if isinstance(node, ast.Root):
        x = interval(node.x, percent=percent)
        if node.n is None:
            return iv.sqrt(x)
        n = exact(node.n, percent=percent)
        return x ** (iv.mpf(1) / iv.mpf(int(n)))
    if isinstance(node, ast.Log):
        x = interval(node.x, percent=percent)
        if x.a <= 0:
            raise EvalError("a logarithm of a number that may not be positive")
        if node.base is None:
            return iv.log(x)
        return iv.log(x) / iv.log(interval(node.base, percent=percent))
    if isinstance(node, ast.Sum):
        parts = [interval(term, percent=percent) for term in sums.terms(node)]
        total = parts[0]
        for part in parts[1:]:
            total = total + part if node.op == "sum" else total * part
        return total
    if isinstance(node, ast.Abs):
        x = interval(node.x, percent=percent)
        if x.a >= 0:
            return x
        if x.b <= 0:
            return -x
        return iv.mpf([0, max(-x.a, x.b)])
    raise EvalError(f"no interval for {type(node).__name__}")


def intervals_overlap(a: iv.mpf, b: iv.mpf) -> bool:
    return bool(a.a <= b.b and b.a <= a.b)


def show(value: sympy.Expr) -> str:
    """A short, exact rendering for evidence: "147", "7/2", "3*sqrt(2) ≈ 4.24264068712"."""
    if value.is_Integer:
        text = str(value)
    elif value.is_Rational:
        text = f"{value.p}/{value.q}"
    elif value.is_number:
        text = f"{sympy.sstr(value)} \u2248 {sympy.N(value, 12)}"
    else:
        text = sympy.sstr(value)
    return text if len(text) <= 200 else text[:197] + "..."
