"""A factorization announced in words, written as an equation: "We can factor this quadratic
as follows: $x^2 - 60x + 400 = (x - 20)^2$" says the two sides are the same polynomial
(kind ``rewriting``, decided by rewriting.same_expression: exact expansion, or six random
rational points).

Read only where the equation cannot be a condition:

* the words right before it (same sentence, up to the math) speak of factoring and end in
  "as", "as follows", "into", "is", "gives", "get" or a colon;
* it is the first link of a chain in math, "=" (a "= 0" after it is not read);
* both sides have the same letters (not i or e, no units, no f(x)-like call), and are
  polynomials of the same total degree, at least 2;
* one side is a product of factors with letters, or a power of a sum (the factored form),
  and the other a sum (the expanded form).
"""

from __future__ import annotations

import re

import sympy

from autolabel.symbolic.chains import Chain, Side, display
from autolabel.symbolic.compare import CONSTANT_LIKE, Decision
from autolabel.symbolic.evaluate import EvalError, TooLarge, exact
from autolabel.symbolic.rewriting import KIND, same_expression
from autolabel.symbolic.statements import Statement

MAX_DEGREE = 12
_CUE = re.compile(
    r"\bfactor(?:s|ed|ing|i[sz]ation|i[sz]es|i[sz]ed)?\b[^.?!\n$]{0,80}?"
    r"(?:\bas(?:\s+follows)?|\binto|\bis|\bgives?|\bget)?\s*:?\s*$",
    re.IGNORECASE,
)
_OPENERS = re.compile(r"(?:\$\$|\$|\\\(|\\\[|\\begin\{(?:align|equation|gather)\*?\})\s*$")


_HYPOTHESIS = re.compile(
    r"\b(?:if|suppose|assum\w*|try\w*|tries|attempt\w*|would|could|might|cannot|can't|not|"
    r"incorrect\w*|wrong\w*|mistake\w*|whether|check\w*|verify\w*)\b|\?",
    re.IGNORECASE,
)


def _cued(prepared: str, start: int) -> bool:
    """The words before ``start`` announce a factorization, and no hypothesis."""
    before = prepared[max(0, start - 160) : start]
    before = _OPENERS.sub("", before.rstrip()).rstrip()
    cue = _CUE.search(before)
    if cue is None or not before.endswith(
        ("as", "follows", "into", "is", "give", "gives", "get", ":")
    ):
        return False
    sentence = re.split(r"[.!?]\s|\n", before)[-1]
    return not _HYPOTHESIS.search(sentence)


def _factored(value: sympy.Expr) -> bool:
    if isinstance(value, sympy.Pow):
        return isinstance(value.base, sympy.Add) and value.exp.is_Integer and value.exp >= 2
    if isinstance(value, sympy.Mul):
        return sum(1 for f in value.args if f.free_symbols) >= 2 or any(
            _factored(f) for f in value.args
        )
    return False


def _degree(value: sympy.Expr, symbols: list[sympy.Symbol]) -> int | None:
    try:
        return sympy.Poly(value, *symbols).total_degree()
    except (sympy.PolynomialError, sympy.GeneratorsNeeded):
        return None


def factoring_statements(chains: list[Chain], prepared: str) -> list[Statement]:
    found: list[Statement] = []
    for chain in chains:
        if chain.source != "math" or len(chain.sides) < 2 or chain.relations[0] != "=":
            continue
        left, right = chain.sides[0], chain.sides[1]
        if left.node is None or right.node is None or left.info is None or right.info is None:
            continue
        names = left.info.symbols
        if (
            not names
            or names != right.info.symbols
            or names & CONSTANT_LIKE
            or any(n.startswith("text:") for n in names)
            or left.info.units
            or right.info.units
            or left.info.call_like
            or right.info.call_like
            or not _cued(prepared, left.start)
        ):
            continue
        statement = _statement(left, right)
        if statement is not None:
            found.append(statement)
    return found


def _statement(left: Side, right: Side) -> Statement | None:
    try:
        a, b = exact(left.node), exact(right.node)  # type: ignore[arg-type]
    except (EvalError, TooLarge, ZeroDivisionError, ValueError, TypeError):
        return None
    if _factored(a) == _factored(b) or not isinstance(a if _factored(b) else b, sympy.Add):
        return None
    symbols = sorted(a.free_symbols | b.free_symbols, key=lambda s: s.name)
    da, db = _degree(a, symbols), _degree(b, symbols)
    if da is None or da != db or not 2 <= da <= MAX_DEGREE:
        return None
    lhs, rhs = display(left.text), display(right.text)

    def decide() -> Decision:
        return same_expression(a, b)

    return Statement(KIND, f"factors as: {lhs} = {rhs}", left.start, right.end, lhs, rhs, decide)
