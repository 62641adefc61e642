"""A stated solution put back into its equation: "$2x + 3 = 7$, so $x = 5$" fails (13 != 7).

An equation is a two-sided chain in one variable (a single letter, not ``i`` or ``e``; no
units, no ``f(x)``-like call, not itself ``x = number``). A solution statement is a later
chain ``x = value`` with a number on the right. They are paired when the statement follows
the nearest earlier chain in that variable after a conclusion ("so", "thus", "gives",
"we get", "solving", ``\\Rightarrow``, an aligned line break), possibly after other
solutions ("x = 2 or x = 3"), within a short stretch of text. Then the value must satisfy
the equation exactly. A value written with d decimals is not refuted when the equation has
a root in [v - 5*10^-(d+1), v + 10^-d) (it rounds or truncates to v; polynomial equations
with rational coefficients only, roots counted exactly with Sturm sequences; other
equations stay undecided). A whole number with a non-integer root within 1 of it may be a
rounding and stays undecided where the text says so (roundings.py: "3x = 10, so x = 3
people", "rounding up, n = 35"; for other equations: a change of sign between v - 1 and
v + 1); with no such word it is the value the writer computed ("17h = 87 ... h = 5").

Root claims use the same decision: "$x = 3$ is a root of the equation", "2 is not a solution
of the quadratic", "$(x - 3)$ is a factor of the polynomial" name the equation in words;
it is the one written right after those words, or the last one-variable equation in that
variable earlier in the step, or else the last "P(x) = 0" in the step before (the only
one read). A root claim is exact: no whole number stands for a rounded root there.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import sympy

from autolabel.symbolic import ast
from autolabel.symbolic.chains import Chain, Side, display, make_side
from autolabel.symbolic.compare import Decision, equal_values
from autolabel.symbolic.evaluate import EvalError, exact, show
from autolabel.symbolic.readings import side_readings
from autolabel.symbolic.roundings import rounding_said
from autolabel.symbolic.statements import Statement, plain_view, shown
from autolabel.symbolic.tokens import SPACE, tokenize

KIND = "substitution"
MAX_GAP = 90  # characters between the equation and its solution
MAX_DEGREE = 8

_CONCLUSION = re.compile(
    r"\b(?:so|thus|hence|therefore|gives?|giving|get|gets|yields?|we\s+have|"
    r"(?:which|this|that)\s+means|solving|solve|solution\s+is|find)\b|"
    r"\\Rightarrow|\\implies|\\therefore|\\Longrightarrow|\\longrightarrow|\\to\b|"
    r"\u21d2|\u2192|\\\\",
    re.IGNORECASE,
)
_ANOTHER_ROOT = re.compile(
    r"^(?:[\s$,]|\\[()])*(?:or|and|,)(?:[\s$]|\\[()])*$|^\s*(?:\\quad|\\text\{\s*or\s*\})\s*$"
)
# Between two equations that are branches of one disjunction: "$x - 1 = 0$ or $x + 2 = 0$".
# (a wrapper's closing brace may come first: "x - 1 = \\boxed{0} or ...")
# An equation's label at the end of its display ("\\tag{1}", "\\quad (2)", "\\label{eq:a}")
# stands between it and the "or" of a split as well (round 14).
_LABEL = r"\\tag\*?\{[^{}]*\}|\\label\{[^{}]*\}|\\no(?:tag|number)\b|\(\s*\d+[a-z]?\s*\)"
_BRANCH_JOIN = re.compile(
    r"^(?:[\s$,.;}]|\\[()\[\]]|\\q?quad|\\text\{\s*(?:or|either)\s*\}|\b(?:or|either)\b|"
    + _LABEL
    + r")*$"
)
_OR = re.compile(r"\bor\b")
_CASES = re.compile(r"\b(?:if|case|when|suppose|assum\w*|for)\b", re.IGNORECASE)
# Between an equation and a value: the equation is rejected, not solved ("$x - 5 = 0$, a
# contradiction, so $x = 4$"; symbolic-1.14).
_REJECTED = re.compile(
    r"\b(?:contradict\w*|impossible|absurd|false|not|never|cannot|can't|but|however|instead|"
    r"rather|otherwise|wrong|incorrect|invalid|fails?|"
    # or another equation is meant: "let me reconsider: the correct equation gives x = 4"
    r"reconsider\w*|re-?check\w*|re-?evaluat\w*|re-?examin\w*|correct(?:ed)?|another|other)\b",
    re.IGNORECASE,
)
_HYPOTHESIS = re.compile(r"\b(?:if|suppose|supposing|assum\w*|were|had|when)\b", re.IGNORECASE)
_SENTENCE_END = re.compile(r"[.!?](?=\s)|\n\s*\n")


def sole_letter(chain: Chain, *, calls: bool = False) -> str | None:
    """The chain's only symbol, when it is one plain letter (not i or e) and no side has
    units; `calls`: a side that reads like a call ("g(2)") may be one (the caller decides)."""
    names: set[str] = set()
    for side in chain.sides:
        if side.node is None or side.info is None:
            return None
        if side.info.units or (side.info.call_like and not calls):
            return None
        names |= side.info.symbols
    if len(names) != 1:
        return None
    name = next(iter(names))
    if len(name) != 1 or name in "ie" or not name.isalpha():
        return None
    return name


def _solution(chain: Chain, name: str) -> Side | None:
    """``x = value`` (then more numeric sides, "x = 7/2 = 3.5"): the value's side."""
    first = chain.sides[0]
    if not (isinstance(first.node, ast.Sym) and first.node.name == name):
        return None
    if any(r != "=" for r in chain.relations):
        return None
    rest = chain.sides[1:]
    if any(s.info is None or s.info.symbols for s in rest):
        return None
    return rest[0]


def _equation(chain: Chain, name: str) -> tuple[Side, Side] | None:
    if len(chain.sides) != 2 or chain.relations != ["="] or _solution(chain, name) is not None:
        return None
    left, right = chain.sides
    if isinstance(right.node, ast.Sym) and left.info is not None and not left.info.symbols:
        return None  # "5 = x": a solution written the other way; say nothing
    return chain.sides[0], chain.sides[1]


def substitution_statements(chains: list[Chain], prepared: str) -> list[Statement]:
    ordered = sorted(
        (c for c in chains if c.source in ("math", "prose") and c.sides),
        key=lambda c: c.sides[0].start,
    )
    found: list[Statement] = []
    for k, chain in enumerate(ordered):
        name = sole_letter(chain)
        value = _solution(chain, name) if name else None
        if name is None or value is None:
            continue
        equation = _paired_equation(ordered, k, name, prepared)
        if equation is None:
            continue
        rounded = rounding_said(prepared, equation[0][0].start, value.end)
        found.append(_statement(equation, name, value, rounded))
    return found


def _paired_equation(
    ordered: list[Chain], k: int, name: str, prepared: str
) -> list[tuple[Side, Side]] | None:
    """The equation a solution ``ordered[k]`` concludes from, with the other branches of
    the disjunction it belongs to ("$a + 4 = 0$ or $a - 1 = 0$"): the solution answers one
    branch, so it is put into each."""
    start = ordered[k].sides[0].start
    j = k - 1
    while j >= 0:
        earlier = ordered[j]
        if sole_letter(earlier) != name:
            if earlier.sides[-1].end > start - MAX_GAP:
                j -= 1
                continue
            return None
        gap = prepared[earlier.sides[-1].end : start]
        if len(gap) > MAX_GAP:
            return None
        if _solution(earlier, name) is not None:
            if not _ANOTHER_ROOT.match(gap):
                return None
            start = earlier.sides[0].start
            j -= 1
            continue
        equation = _equation(earlier, name)
        if equation is None or not _CONCLUSION.search(gap) or _CASES.search(gap):
            return None
        if _REJECTED.search(gap) or _under_hypothesis(prepared, earlier.sides[0].start, name):
            return None
        return [*_other_branches(ordered, j, name, prepared), equation]
    return None


def _under_hypothesis(prepared: str, start: int, name: str) -> bool:
    """The equation at ``start`` follows, in its sentence, a hypothesis that gives ``name`` a
    value ("If $x = 5$, then $x - 5 = 0$"): it holds of that value, and a value concluded
    after it answers something else (symbolic-1.14)."""
    ends = [m.end() for m in _SENTENCE_END.finditer(prepared, 0, start)]
    before = prepared[ends[-1] if ends else 0 : start]
    hypothesis = _HYPOTHESIS.search(before)
    if hypothesis is None:
        return False
    value = re.compile(rf"(?<![A-Za-z\\]){re.escape(name)}\s*=\s*-?\s*\d")
    return value.search(before, hypothesis.end()) is not None


def _other_branches(
    ordered: list[Chain], j: int, name: str, prepared: str
) -> list[tuple[Side, Side]]:
    """Equations in ``name`` joined by "or" right before ``ordered[j]``, first first."""
    branches: list[tuple[Side, Side]] = []
    while j > 0:
        earlier, later = ordered[j - 1], ordered[j]
        gap = prepared[earlier.sides[-1].end : later.sides[0].start]
        equation = _equation(earlier, name) if sole_letter(earlier) == name else None
        if equation is None or not (_BRANCH_JOIN.match(gap) and _OR.search(gap)):
            break
        branches.insert(0, equation)
        j -= 1
    return branches


def _statement(
    branches: list[tuple[Side, Side]], name: str, value: Side, rounded: bool
) -> Statement:
    equation = " or ".join(f"{display(lhs.text)} = {display(rhs.text)}" for lhs, rhs in branches)
    solution = f"{name} = {display(value.text)}"

    def decide() -> Decision:
        decisions = [_decide_read(lhs, rhs, name, value, rounded) for lhs, rhs in branches]
        return next((d for d in decisions if d.holds is True), None) or next(
            (d for d in decisions if d.holds is None), decisions[-1]
        )

    return Statement(
        KIND,
        f"{equation}, so {solution}",
        branches[0][0].start,
        value.end,
        equation,
        solution,
        decide,
    )


def _decide_read(lhs: Side, rhs: Side, name: str, value: Side, rounded: bool) -> Decision:
    """:func:`_decide` as the equation is usually read; where that fails, under its sides'
    other readings (readings.py: "x + 20% = 60" may be x increased by 20%), failing only
    under every one of them (symbolic-1.14)."""
    usual = _decide(lhs, rhs, name, value, rounded)
    if usual.holds is not False:
        return usual
    lefts, rights = side_readings(lhs), side_readings(rhs)
    shown = (usual.lhs_value, usual.rhs_value)
    if lefts is None or rights is None:
        return Decision(None, "another reading of a side cannot be evaluated", *shown, KIND)
    for a, b in [(a, b) for a in lefts for b in rights][1:]:
        try:
            other = _decide(a, b, name, value, rounded)
        except (ArithmeticError, ValueError, TypeError, EvalError):
            other = Decision(None, "could not decide")
        if other.holds is not False:
            return Decision(None, "holds or undecided under another reading", *shown, KIND)
    return usual


def _decide(lhs: Side, rhs: Side, name: str, value: Side, rounded: bool) -> Decision:
    """``rounded``: a whole number may stand for a rounded root, where the text says so
    ("so x = 3 people"; roundings.py)."""
    assert lhs.node is not None and rhs.node is not None and value.node is not None
    symbol = sympy.Symbol(name)
    f = exact(lhs.node) - exact(rhs.node)
    v = exact(value.node)
    if not v.is_real:
        return Decision(None, "not a real value", kind=KIND)
    at_v = f.subs(symbol, v)
    left_v, right_v = exact(lhs.node).subs(symbol, v), exact(rhs.node).subs(symbol, v)
    shown = (show(left_v), show(right_v))
    if at_v.has(sympy.zoo, sympy.nan) or not at_v.is_number:
        return Decision(None, "undefined at the stated value", *shown, KIND)
    same = equal_values(at_v, sympy.Integer(0))
    if same is True:
        return Decision(True, f"{name} = {show(v)} satisfies it", *shown, KIND)
    if same is None:
        return Decision(None, "could not decide", *shown, KIND)
    poly = _polynomial(f, symbol)
    literal = value.info.literal if value.info else None
    if literal is not None and literal.decimals is not None:
        if poly is None or not v.is_Rational:
            return Decision(None, "a decimal value; not a polynomial equation", *shown, KIND)
        unit = sympy.Rational(1, 10**literal.decimals)
        # a root in [v - unit/2, v + unit): rounds or truncates to v
        if poly.count_roots(v - unit / 2, v + unit) - (poly.eval(v + unit) == 0) > 0:
            return Decision(None, "a root rounds or truncates to it", *shown, KIND)
    elif rounded and v.is_Integer and _root_near(f, poly, symbol, v):
        return Decision(None, "a root may be rounded to it", *shown, KIND)
    reason = f"{name} = {show(v)} gives {shown[0]} \u2260 {shown[1]}"
    return Decision(False, reason, *shown, KIND)


def _polynomial(f: sympy.Expr, symbol: sympy.Symbol) -> sympy.Poly | None:
    """``f`` as a polynomial with rational coefficients (its numerator), or None."""
    try:
        numerator, denominator = sympy.fraction(sympy.together(f))
        if symbol in denominator.free_symbols:
            return None
        poly = sympy.Poly(numerator, symbol)
    except sympy.PolynomialError:
        return None
    if not 1 <= poly.degree() <= MAX_DEGREE or not (poly.domain.is_ZZ or poly.domain.is_QQ):
        return None
    return poly


def _root_near(f: sympy.Expr, poly: sympy.Poly | None, symbol: sympy.Symbol, v: sympy.Expr) -> bool:
    """A root other than a whole number within 1 of ``v`` (``f(v)`` is not 0): counted
    exactly for a polynomial, else a change of sign (or no value) between ``v - 1`` and
    ``v + 1``."""
    if poly is not None:
        inside = poly.count_roots(v - 1, v + 1)
        ends = sum(poly.eval(end) == 0 for end in (v - 1, v + 1))
        return inside - ends > 0
    values = [f.subs(symbol, end) for end in (v - 1, v, v + 1)]
    if any(not x.is_real or x.has(sympy.zoo, sympy.nan) for x in values):
        return True
    signs = {bool(x > 0) for x in values if x != 0}
    return len(signs) > 1 or any(x == 0 for x in values)


_VALUE = r"-?\d+(?:\.\d+)?|\\[dt]?frac\s*\{\s*-?\d+\s*\}\s*\{\s*\d+\s*\}|-?\d+\s*/\s*\d+"
_EQUATION_WORDS = (
    r"(?:the|this|our|that)\s+(?:given\s+|original\s+|above\s+)?"
    r"(?:cubic|quadratic|polynomial)?\s*(?:equation|polynomial|cubic|quadratic)\b"
)
_ROOT = re.compile(
    rf"(?<![\w.])(?:(?P<var>[a-z])\s*=\s*)?(?P<v>{_VALUE})\s+is\s+(?P<neg>not\s+)?"
    r"(?:a|the|one|another|also\s+a|indeed\s+a|clearly\s+a)\s+"
    r"(?:(?:real|rational|integer|valid|possible)\s+)?(?:root|solution|zero)\s+(?:of|to)\s+"
    + _EQUATION_WORDS,
    re.IGNORECASE,
)
_FACTOR = re.compile(
    r"\(\s*(?P<var>[a-z])\s*(?P<sign>[-+])\s*(?P<v>\d+(?:\.\d+)?)\s*\)\s+is\s+(?P<neg>not\s+)?"
    r"(?:a|one|also\s+a)\s+(?:linear\s+)?factor\s+of\s+" + _EQUATION_WORDS,
    re.IGNORECASE,
)


def root_statements(
    chains: list[Chain], prepared: str, previous: Callable[[], list[Chain]]
) -> list[Statement]:
    """ "x = 3 is a root of the equation": the named value put into the last equation.
    ``previous`` gives the chains of the step before (read only when a claim needs them)."""
    plain = plain_view(prepared)
    found: list[Statement] = []
    matches = [*_ROOT.finditer(plain), *_FACTOR.finditer(plain)]
    before = previous() if matches else []
    for m in matches:
        value_text = m.group("v")
        if m.re is _FACTOR and m.group("sign") == "-":
            pass  # (x - 3): the root is 3
        elif m.re is _FACTOR:
            value_text = "-" + value_text  # (x + 3): the root is -3
        equation = _named_equation(chains, m.start(), m.end(), m.group("var"), before)
        if equation is None:
            continue
        name, lhs, rhs = equation
        value = _value_side(value_text)
        if value is None:
            continue
        negated = bool(m.group("neg"))
        found.append(_root_statement(plain, m, name, lhs, rhs, value, negated))
    return found


def _named_equation(
    chains: list[Chain], before: int, after: int, var: str | None, previous: list[Chain]
) -> tuple[str, Side, Side] | None:
    """The equation "the equation" names: written right after the words, else the last one
    before them in this step, else the last one in the step before."""
    readable = [c for c in chains if c.source in ("math", "prose")]
    right_after = [c for c in readable if after <= c.sides[0].start <= after + 3]
    here = [c for c in readable if c.sides[-1].end <= before]
    for pool in (right_after, here, previous):
        for chain in sorted(pool, key=lambda c: c.sides[0].start, reverse=True):
            name = sole_letter(chain)
            if name is None or (var is not None and name != var):
                continue
            equation = _equation(chain, name)
            if equation is None:
                continue
            if pool is previous and not any(_is_zero(side) for side in equation):
                continue  # from the step before, only "P(x) = 0" is surely "the equation"
            return name, equation[0], equation[1]
    return None


def _is_zero(side: Side) -> bool:
    return isinstance(side.node, ast.Num) and side.node.value == 0


def _value_side(text: str) -> Side | None:
    tokens = [t for t in tokenize(text, "math") if t.kind != SPACE]
    side = make_side(tokens, "math", text)
    if side.node is None or side.info is None or side.info.symbols:
        return None
    return side


def _root_statement(
    plain: str,
    m: re.Match[str],
    name: str,
    lhs: Side,
    rhs: Side,
    value: Side,
    negated: bool,
) -> Statement:
    equation = f"{display(lhs.text)} = {display(rhs.text)}"

    def decide() -> Decision:
        decision = _decide(lhs, rhs, name, value, rounded=False)
        if negated and decision.holds is not None:
            decision.holds = not decision.holds
            decision.reason = "not a root: " + decision.reason
        return decision

    text = shown(plain, m.start(), m.end())
    return Statement(KIND, text, m.start(), m.end(), equation, f"{name} = {value.text}", decide)
