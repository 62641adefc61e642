"""An equation solved a step at a time: "$3x + 4 = 25$, so $3x = 22$" fails (no common root).

Two equations in one variable, written one right after the other with only the words of a
derivation between them ("so", "subtracting 4 from both sides", "we get", an aligned line
break, consecutive displays), are a derivation: the second follows from the first. Both must
be polynomial equations with rational coefficients after clearing denominators (the
numerators, of degree 1 to MAX_DEGREE). A correct derivation keeps at least one root: it may
drop roots ("x^2 = 9, so x = 3" when x is positive) or add some ("x^2 = 4x, so x^3 = 4x^2"),
but an equation that shares no root, real or complex, with the one it comes from is wrong,
and so is a false statement in numbers ("33 + 14b = 25 + 10b, so 8 = 4b - 4b"). That is
decided exactly: the gcd of the two numerators is a constant (then the equations share no
root, whatever their poles).

The step's first equation may also come from the last equation of the step before, when only
derivation words stand before it ("Subtract 36 from both sides: 12 = (n-1) \\times 7"), none
after that one, and the step's equation ends its sentence.

Read only where the pairing is sure:

* the gap between the equations has no other claim, no list number, list item's marker
  ("- ", "* ": the equations are items of a list) or equation label, no
  more than MAX_GAP characters, and its words are all words of a derivation (a case,
  "or", "and", "if", "for x = 3" read nothing);
* neither equation is one branch of a split: an "or"/"and"/comma link to another equation
  next to either reads nothing ("a + 4 = 0 or a - 1 = 0, so a = -4 or a = 1");
* the first equation is not itself a value ("x = 5": a point, a case or a value tried;
  "x = 5, so x - 4 = 11" is not a derivation);
* the letter is never written as a call ("g(2) = 5, so g(3) = 7" are a function's values);
* no decimal in the first equation (a rounded value is not a root); a second equation with
  decimals ("33(1089 + 2b) = 2013, so 1089 + 2b = 60.45") is read only when it is linear:
  it fails when no real root of the first lies between the roots it has with each of its
  decimals moved by one unit of its last place either way (a rounding or a truncation of
  the exact value reads nothing; symbolic-1.15); a second equation "x = whole number"
  with a non-integer root of the first within 1 of it may be a rounding and reads nothing
  where the text says so (roundings.py: a word of rounding or of whole numbers, a count
  named after the value), or where the first equation is in the step before;
* a pair the substitution kind reads (an equation, a conclusion word, then "x = number")
  is left to it.

check.py does not refute a statement whose sentence hedges ("if", "suppose", "check",
"wrong", ...), as for every statement.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import sympy

from autolabel.symbolic import readings
from autolabel.symbolic.chains import Chain, Side, display
from autolabel.symbolic.compare import Decision
from autolabel.symbolic.decimal_roots import decimal_root_missed, written_decimals
from autolabel.symbolic.evaluate import exact
from autolabel.symbolic.log_roots import compare_roots
from autolabel.symbolic.roundings import rounding_said
from autolabel.symbolic.statements import Statement
from autolabel.symbolic.substitution import _CONCLUSION, _root_near, _solution, sole_letter

KIND = "solving"
MAX_GAP = 70
MAX_DEGREE = 8

# Words that may stand between two lines of a derivation; any other word reads nothing.
_DERIVATION_WORDS = frozenset(
    re.findall(
        r"\w+",
        "so thus hence therefore then now next finally further gives give giving get gets "
        "getting we us have has obtain obtaining which this that simplifies simplify "
        "simplifying simplified to becomes become yields yield implies means rearranging "
        "rearrange rearranged expanding expand expanded subtract subtracting subtracted add "
        "adding added divide dividing divided multiply multiplying multiplied combine "
        "combining like terms both sides side of from by the equation it results in isolate "
        "isolating move moving collect collecting text quad qquad rightarrow Rightarrow "
        "implies Longrightarrow longrightarrow therefore to and factoring factor factorize "
        "factorizing factored quadratic polynomial expression find finding solving solve "
        "left right hand further",
    )
)
# A numbered list or labelled equations: "1. ... 2. ...", "(1)", "Equation 2": a system.
_LABEL = re.compile(
    r"\(\s*\d+\s*\)|(?:^|\n|&|\\\\)\s*\d+[.)]\s|equation\s*\d|\(\s*[ivx]+\s*\)", re.IGNORECASE
)
_SOLVE_FOR = re.compile(r"\bsolv\w*\s+for\s+[a-z]\b", re.IGNORECASE)
# A link to another equation that makes one of the two a branch of a split.
# (a wrapper's closing brace may come first: "x - 1 = \\boxed{0} or ...")
_BRANCH = re.compile(
    r"^(?:[\s$,.;}]|\\[()\[\]]|\\q?quad|\\text\{\s*)*(?:or|and|,)\b|^\s*,", re.IGNORECASE
)
_BRANCH_BEFORE = re.compile(
    r"(?:\bor|\band|,)(?:[\s$]|\\[()\[\]]|\\q?quad|\\text\{\s*|\}\s*)*$", re.IGNORECASE
)
# Before a piece of a larger expression: an operator, "=", an open bracket (not the math
# delimiter "\\("), or a ratio's colon after a number ("20 : (80 + y)", "3:4"; "the
# term (-36): 48 = ..." is prose); after it likewise.
_PIECE_BEFORE = re.compile(r"(?:[-+*/^=]|(?<!\\)\(|[\d)}]\s+:|\d:|\\(?:cdot|times|div|frac))$")
_PIECE_AFTER = re.compile(r"[-+*/^=]|:\s*[\d(]")
_SUPPOSED = re.compile(
    r"\b(?:if|suppose|supposing|assum\w*|whether|let|check\w*|verify\w*|test\w*|try\w*|"
    r"guess\w*|wrong\w*|incorrect\w*|mistake\w*|error\w*|typo|instead|case)\b",
    re.IGNORECASE,
)
# After an equation: more words of its sentence ("x = 5 is a root of ..."), not its end.
_SENTENCE_GOES_ON = re.compile(r"(?:\s|\$|\\[)\]])*[A-Za-z]")
_DECIMAL = re.compile(r"\d\.\d|\\approx|\u2248")
_APPROXIMATE = re.compile(r"\\approx|\u2248|\.\.\.|\\[lc]?dots|\\overline")


def solving_statements(
    chains: list[Chain],
    prepared: str,
    previous: Callable[[], tuple[list[Chain], str]],
    items: frozenset[int] = frozenset(),
) -> list[Statement]:
    """Consecutive one-variable equations that share no root; ``previous`` gives the chains
    and prepared text of the step before, read only when this step opens with an equation;
    ``items``: where list items' markers stand in ``prepared`` (blanked there)."""
    ordered = _ordered(chains)
    found: list[Statement] = []
    for first, second in zip(ordered, ordered[1:], strict=False):
        name = _pair_name(first, second)
        if name is None:
            continue
        start, end = first.sides[-1].end, second.sides[0].start
        if end <= start or end - start > MAX_GAP:
            continue
        gap = prepared[start:end]
        if any(start <= item < end for item in items):
            continue  # two items of a list ("- $x^2 + x + 2 = 0$ - $x^2 + 2x + 1 = 0$")
        if not derivation_gap(gap, name) or _BRANCH.match(gap):
            continue
        if _branch(first, prepared) or _branch_after(second, prepared):
            continue
        if _supposed(first, prepared) or _fragment(first, prepared) or _fragment(second, prepared):
            continue
        solution = _solution(second, name) is not None
        if solution and len(first.sides) == 2 and _CONCLUSION.search(gap):
            continue  # the substitution kind reads it
        found.append(_statement(first, second, name, "", prepared))
    if ordered:
        found.extend(_from_previous_step(ordered[0], prepared, previous))
    return found


def _from_previous_step(
    second: Chain, prepared: str, previous: Callable[[], tuple[list[Chain], str]]
) -> list[Statement]:
    """The step's first equation derived from the last equation of the step before: only
    derivation words ("Subtract 36 from both sides:") before it, and nothing after that one;
    the step's equation ends its sentence ("So $x = 5$ is a root of ..." is another claim)."""
    lead_in = prepared[: second.sides[0].start]
    name = _one_variable(second)
    if name is None or len(lead_in) > MAX_GAP or not derivation_gap(lead_in, name):
        return []
    if _branch_after(second, prepared) or _SENTENCE_GOES_ON.match(prepared, second.sides[-1].end):
        return []
    chains, before = previous()
    ordered = _ordered(chains)
    if not ordered:
        return []
    first = ordered[-1]
    if _pair_name(first, second) != name:
        return []
    tail = before[first.sides[-1].end :]
    if len(tail) > MAX_GAP or not derivation_gap(tail, name) or _branch(first, before):
        return []
    if _fragment(first, before) or _fragment(second, prepared):
        return []
    return [_statement(first, second, name, "(the step before) ")]


def _one_variable(chain: Chain) -> str | None:
    """The chain's only symbol, one plain letter (not i or e), never written as a call
    ("g(2) = 5" may be a function's value); "(5 + k)(4 + k)" is a product."""
    name = sole_letter(chain, calls=True)
    if name is None:
        return None
    called = re.compile(rf"(?<![A-Za-z\\]){name}\s*(?:\\left\s*)?[(\[]")
    # "f^{-1}(9)", "f^{(3)}(x)", "f_2(x)": a function's name marked, then a call ("x^2(x - 3)"
    # is a product)
    marked = re.compile(
        rf"(?<![A-Za-z\\]){name}\s*(?:\^\s*\{{\s*[-(][^{{}}]{{0,10}}\}}|_\s*(?:\{{[^{{}}]{{0,12}}\}}|\w))"
        r"\s*(?:\\left\s*)?\("
    )
    for side in chain.sides:
        if marked.search(side.text) or (
            side.info and side.info.call_like and called.search(side.text)
        ):
            return None
    return name


def _ordered(chains: list[Chain]) -> list[Chain]:
    return sorted(
        (c for c in chains if c.sides and c.source != "annotation"),
        key=lambda c: c.sides[0].start,
    )


def _fragment(chain: Chain, text: str) -> bool:
    """An operator or a ratio's colon right before or after the chain: it is a piece of a
    larger expression ("20 : (80 + y) = 1 : 6"), not an equation."""
    before = text[max(0, chain.sides[0].start - 12) : chain.sides[0].start].rstrip()
    after = text[chain.sides[-1].end : chain.sides[-1].end + 12].lstrip()
    return bool(_PIECE_BEFORE.search(before) or _PIECE_AFTER.match(after))


def _pair_name(first: Chain, second: Chain) -> str | None:
    """The variable of two equations that may be lines of one derivation."""
    name = _one_variable(first)
    if name is None or _one_variable(second) != name:
        return None
    if not (_equation(first) and _equation(second, decimals=True)) or _bare_value(first, name):
        return None
    return name


def _supposed(first: Chain, text: str) -> bool:
    """The first equation is a hypothesis or under discussion: "if", "suppose", "wrong" in
    its sentence before it. (check.py judges the words around the derived equation.)"""
    opening = first.sides[0].start
    window = text[max(0, opening - 120) : opening]
    sentence = window[max(window.rfind(". "), window.rfind("\n"), 0) :]
    return bool(_SUPPOSED.search(sentence))


def _branch(first: Chain, text: str) -> bool:
    opening = first.sides[0].start
    return bool(_BRANCH_BEFORE.search(text[max(0, opening - 24) : opening]))


def _branch_after(second: Chain, text: str) -> bool:
    closing = second.sides[-1].end
    return bool(_BRANCH.match(text[closing : closing + 24]))


def _equation(chain: Chain, *, decimals: bool = False) -> bool:
    """Two sides joined by "=", or "3x = 5 + 7 = 12": an equation, then its right side
    worked out in numbers (the chain kind checks that arithmetic; the equation is the first
    two sides); with a decimal only where ``decimals`` (never an approximation)."""
    if chain.approximate or chain.pattern or len(chain.sides) < 2:
        return False
    if any(r != "=" for r in chain.relations):
        return False
    if len(chain.sides) > 2 and any(s.info is None or s.info.symbols for s in chain.sides[1:]):
        return False
    pattern = _APPROXIMATE if decimals else _DECIMAL
    return not any(pattern.search(side.text) for side in chain.sides[:2])


def _bare_value(chain: Chain, name: str) -> bool:
    """ "x = 5" or "5 = x": a value tried, a case or a point, not an equation to solve."""
    if _solution(chain, name) is not None:
        return True
    left, right = chain.sides[:2]
    return bool(left.info and not left.info.symbols and right.text.strip() == name)


def derivation_gap(gap: str, name: str = "") -> bool:
    """Only words of a derivation (and ``name``, the variable) in ``gap``."""
    if _LABEL.search(gap):
        return False
    if "=" in gap or "<" in gap or ">" in gap or "\\le" in gap or "\\ge" in gap:
        return False
    text = _SOLVE_FOR.sub(" ", gap)
    words = re.findall(r"[A-Za-z]+", text)
    return all(w == name or w.lower() in _DERIVATION_WORDS for w in words)


def _statement(
    first: Chain, second: Chain, name: str, where: str, prepared: str | None = None
) -> Statement:
    """``prepared``: the text the chains are in (None: the first is in the step before, and
    a whole number may always be a rounding)."""
    a, b = first.sides[:2]
    c, d = second.sides[:2]
    rounded = prepared is None or rounding_said(prepared, a.start, d.end)
    before = f"{display(a.text)} = {display(b.text)}"
    after = f"{display(c.text)} = {display(d.text)}"

    def decide() -> Decision:
        # under every reading of the four sides ("x^2 = -3^2": -9 or 9), as the two-sided
        # kinds are
        return readings.decide_sides(
            [a, b, c, d], lambda p, q, r, s: _decide(p, q, r, s, name, rounded)
        )

    text = f"{where}{before}, so {after}"
    return Statement(KIND, text, c.start, d.end, before, after, decide)


def _polynomial(left: Side, right: Side, symbol: sympy.Symbol) -> tuple[sympy.Poly, bool] | None:
    """``left - right`` over a common denominator: its numerator as a polynomial with rational
    coefficients (degree 0 to MAX_DEGREE), and whether a denominator holds the variable."""
    assert left.node is not None and right.node is not None
    expr = sympy.cancel(sympy.together(exact(left.node) - exact(right.node)))
    numerator, denominator = sympy.fraction(expr)
    try:
        poly = sympy.Poly(numerator, symbol)
    except sympy.PolynomialError:
        return None
    if poly.degree() > MAX_DEGREE or not (poly.domain.is_ZZ or poly.domain.is_QQ):
        return None
    return poly, symbol in denominator.free_symbols


def _decide(a: Side, b: Side, c: Side, d: Side, name: str, rounded: bool) -> Decision:
    """No common root of the numerators (over the complex numbers) means no common root of
    the equations; a common root of the numerators may be a pole, so it verifies only where
    no denominator holds the variable."""
    symbol = sympy.Symbol(name)
    first, second = _polynomial(a, b, symbol), _polynomial(c, d, symbol)
    if first is None or second is None:
        return _exponential_and_linear(a, b, c, d, symbol)
    (before, poles_before), (after, poles_after) = first, second
    if before.degree() < 1 or after.is_zero:
        return Decision(None, "an identity or a contradiction, not an equation", kind=KIND)
    shown = (_roots(before), _roots(after))
    if after.degree() == 0:
        reason = f"{display(a.text)} = {display(b.text)} has {shown[0]}; the next is false"
        return Decision(False, reason, shown[0], "no root", KIND)
    common = sympy.gcd(before, after)
    if common.degree() > 0:
        if poles_before or poles_after:
            return Decision(None, "a common root may be a pole", *shown, KIND)
        return Decision(True, "the equations share a root", *shown, KIND)
    if written_decimals(c.text, d.text) and (
        poles_before or not decimal_root_missed(before, c, d, symbol)
    ):
        return Decision(None, "a root may be rounded to the decimals written", *shown, KIND)
    if (
        rounded
        and after.degree() == 1
        and c.node is not None
        and _solution_value(after) is not None
    ):
        value = _solution_value(after)
        if value is not None and value.is_Integer:
            f = exact(a.node) - exact(b.node)  # type: ignore[arg-type]
            if _root_near(f, None if poles_before else before, symbol, value):
                return Decision(None, "a root may be rounded to it", *shown, KIND)
    reason = f"{display(a.text)} = {display(b.text)} has {shown[0]}; the next has {shown[1]}"
    return Decision(False, reason, *shown, KIND)


def _exponential_and_linear(a: Side, b: Side, c: Side, d: Side, symbol: sympy.Symbol) -> Decision:
    """An exponential equation and a linear one, a logarithm solving it (log_roots.py); not
    where a decimal is written (a rounded root)."""
    unread = Decision(None, "not two polynomial equations", kind=KIND)
    if any(_DECIMAL.search(side.text) for side in (a, b, c, d)):
        return unread
    assert a.node is not None and b.node is not None and c.node is not None and d.node is not None
    f = exact(a.node) - exact(b.node)
    g = exact(c.node) - exact(d.node)
    compared = compare_roots(f, g, symbol)
    if compared is None:
        return unread
    holds, before, after = compared
    if holds:
        return Decision(True, "the equations share their real root", before, after, KIND)
    reason = f"{display(a.text)} = {display(b.text)} has {before}; the next has {after}"
    return Decision(False, reason, before, after, KIND)


def _solution_value(poly: sympy.Poly) -> sympy.Expr | None:
    coefficients = poly.all_coeffs()
    if len(coefficients) != 2:
        return None
    return -coefficients[1] / coefficients[0]


def _roots(poly: sympy.Poly) -> str:
    """The roots for the evidence, up to degree 2 (a cubic's radicals are long and slow);
    else the polynomial."""
    if poly.degree() > 2:
        return f"the roots of {sympy.sstr(poly.as_expr())} = 0"
    roots = sympy.roots(poly)
    if not roots or sum(roots.values()) != poly.degree():
        return f"the roots of {sympy.sstr(poly.as_expr())} = 0"
    return "roots " + ", ".join(sorted({sympy.sstr(r) for r in roots}))
