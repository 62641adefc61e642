"""A function the problem defines, evaluated at a number in a step (issue 25): "Let $f(x) =
2x + 3$. Find $f(4)$." and a step's "$f(4) = 2(4) - 3 = 5$" fails (f(4) is 11, not 2(4) - 3).

A definition is read from the problem only, in its math (``$...$``, ``\\(...\\)``,
``\\[...\\]``): one letter, one lower-case variable, ``f(x) = body``, where the body is an
expression in that variable alone (no other symbol: "f(x) = ax + b" has unknowns), with no
relation, text, cases, sums or calls of other functions in it, and the sentence introduces it
("Let", "If", "define", "given", "where", "function", "polynomial", "suppose", "consider").
A name defined twice (differently), or followed by "if"/"when"/"for x ..." (a piece of a
piecewise function, a restricted rule), or that the step defines again, is not read; nor is a
problem about functional equations (a definition whose body calls the function).

In the step, a link ``a = b`` of a chain where a side calls a defined function at a number
(``f(4)``, ``f(-2)``, ``f(\\frac{1}{2})``, ``2f(3) + 1``, ``f(f(1))``) and both sides, every
call replaced by its exact value, are numbers: it holds when they are equal. Only rational
values are put in. It is not refuted where a side writes a decimal (it may be rounded), where a
whole number is within 1 of a value that is not whole, in a chain with "≈", or where the claim
quotes the problem. When the chain's last side equals the call's value the step's result
stands: the false link is a slip, left undecided. check.py leaves a claim
whose text hedges undecided, as for every statement. Its own kind, ``function_value``:
evidence until it earns a −1 (autolabel/calibration/kinds.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import sympy

from autolabel.symbolic import readings
from autolabel.symbolic.chains import Chain, Side
from autolabel.symbolic.compare import Decision, equal_values
from autolabel.symbolic.evaluate import exact, show
from autolabel.symbolic.parser import parse_side
from autolabel.symbolic.statements import Statement
from autolabel.symbolic.tokens import SPACE, tokenize

KIND = "function_value"
MAX_PASSES = 3  # f(f(f(1))) at most
MAX_DENOMINATOR = 10**6
MAX_NUMERATOR = 10**15

_MATH = re.compile(r"\$\$(.+?)\$\$|(?<!\\)\$(.+?)(?<!\\)\$|\\\((.+?)\\\)|\\\[(.+?)\\\]", re.DOTALL)
_PIECES = re.compile(r",|;|\\q?quad|\\text\s*\{[^}]*\}|\\(?:mbox|textrm)\s*\{[^}]*\}")
_DEFINITION = re.compile(
    r"^\s*(?P<name>[A-Za-z])\s*(?:\\left\s*)?\(\s*(?P<var>[a-z])\s*(?:\\right\s*)?\)\s*=\s*"
    r"(?P<body>.+?)\s*\.?\s*$",
    re.DOTALL,
)
# A body with any of these is not a plain rule: a relation, words, cases, sums, dots.
_NOT_A_RULE = re.compile(
    r"=|<|>|\\[lg]eq?\b|\\neq|\\begin|\\text|\\sum|\\prod|\\int|\\lim|\\[lc]?dots|\.\.\.|"
    r"\\mathbb|\\in\b|\\pmod|\\bmod|\\mod|\\lfloor|\\lceil|\\max|\\min|[|!]|\\mid"
)
_INTRODUCED = re.compile(
    r"\b(?:let|if|define[sd]?|defining|given|where|function|polynomial|suppose|consider|"
    r"denote[sd]?|be)\b[^.?!]*$",
    re.IGNORECASE,
)
# After the definition: a piece of a piecewise rule or a restricted one ("... if x < 0").
_RESTRICTED = re.compile(
    r"^\W{0,6}(?:if|when|whenever|otherwise|for\s+(?!all\b|every\b|each\b|any\b))",
    re.IGNORECASE,
)
_PIECEWISE = re.compile(r"\\begin\s*\{cases\}|piecewise", re.IGNORECASE)
# A number as a call's argument, in brackets or not: 4, -2, 1.5, \frac{1}{2}, -3/4.
_ARG = r"-?\s*(?:\\[dt]?frac\s*\{\s*-?\d+\s*\}\s*\{\s*\d+\s*\}|\d+(?:\.\d+)?(?:\s*/\s*\d+)?)"


@dataclass(frozen=True)
class Definition:
    name: str
    var: str
    body: str  # as written
    rule: sympy.Expr  # in sympy.Symbol(var)

    def at(self, value: sympy.Expr) -> sympy.Rational | None:
        """The exact value at ``value``, when it is a modest rational number."""
        try:
            result = sympy.nsimplify(self.rule.subs(sympy.Symbol(self.var), value))
        except (ArithmeticError, TypeError, ValueError):
            return None
        if not (result.is_Rational and result.is_finite):
            return None
        if abs(result.q) > MAX_DENOMINATOR or abs(result.p) > MAX_NUMERATOR:
            return None
        return result


def _value(text: str) -> sympy.Expr | None:
    """The exact value of a math text, or None (not parsed, not a number, any error)."""
    try:
        node, _ = parse_side([t for t in tokenize(text, "math") if t.kind != SPACE], "math")
        value = exact(node)
    except Exception:  # the parser raises many types on odd input; never guess
        return None
    return value if value.is_number else None


def _rule(var: str, body: str) -> sympy.Expr | None:
    try:
        node, _ = parse_side([t for t in tokenize(body, "math") if t.kind != SPACE], "math")
        rule = exact(node)
    except Exception:
        return None
    if rule.free_symbols != {sympy.Symbol(var)}:
        return None  # a constant, or unknowns ("f(x) = ax + b")
    return rule


def definitions(problem: str | None) -> dict[str, Definition]:
    """The functions ``problem`` defines plainly (see the module's docstring), by name."""
    if not problem or _PIECEWISE.search(problem):
        return {}
    found: dict[str, list[Definition | None]] = {}
    for m in _MATH.finditer(problem):
        segment = next(g for g in m.groups() if g is not None)
        before = problem[max(0, m.start() - 80) : m.start()]
        after = problem[m.end() : m.end() + 30]
        for piece in _PIECES.split(segment):
            d = _DEFINITION.match(piece)
            if d is None:
                continue
            name, var, body = d.group("name"), d.group("var"), d.group("body")
            plain = re.search(rf"(?<![A-Za-z\\]){name}\s*(?:\\left\s*)?\(", body) is None
            rule = None
            if (
                name != var
                and plain
                and not _NOT_A_RULE.search(body)
                and (_INTRODUCED.search(before) or _INTRODUCED.search(segment[: d.start()]))
                and not _RESTRICTED.search(after)
            ):
                rule = _rule(var, body)
            found.setdefault(name, []).append(
                Definition(name, var, body, rule) if rule is not None else None
            )
    result = {}
    for name, defs in found.items():
        rules = {
            sympy.srepr(d.rule.subs(sympy.Symbol(d.var), sympy.Symbol("_t"))) for d in defs if d
        }
        if all(defs) and len(rules) == 1:
            result[name] = defs[0]  # type: ignore[assignment]
    return result


def _call(name: str) -> re.Pattern[str]:
    return re.compile(
        rf"(?<![A-Za-z\\'^_]){name}\s*(?:\\left\s*)?\(\s*(?:\\left\s*)?(?P<b>\()?\s*"
        rf"(?P<arg>{_ARG})\s*(?(b)(?:\\right\s*)?\))\s*(?:\\right\s*)?\)(?!\s*\^\s*\{{?\s*-)"
    )


def substituted(text: str, defs: dict[str, Definition]) -> tuple[str, list[sympy.Rational]]:
    """``text`` with every call of a defined function at a number replaced by its value in
    brackets; the values put in (none: nothing replaced, or a call with no rational value)."""
    values: list[sympy.Rational] = []
    for _ in range(MAX_PASSES):
        replaced = False
        for name, definition in defs.items():
            pattern = _call(name)

            def put(m: re.Match[str], definition: Definition = definition) -> str:
                nonlocal replaced
                arg = _value(m.group("arg"))
                result = definition.at(arg) if arg is not None and arg.is_real else None
                if result is None:
                    return m.group(0)
                replaced = True
                values.append(result)
                return f"({result.p}/{result.q})" if result.q != 1 else f"({result.p})"

            text = pattern.sub(put, text)
        if not replaced:
            break
    return text, values


def _redefined(prepared: str, defs: dict[str, Definition]) -> set[str]:
    """Names the step defines itself with another variable's rule ("Let f(x) = x^2")."""
    names = set()
    for name, definition in defs.items():
        for m in re.finditer(
            rf"(?<![A-Za-z\\]){name}\s*\(\s*([a-z])\s*\)\s*=\s*([^$=,;\n]+)", prepared
        ):
            rule = _rule(m.group(1), m.group(2).strip().rstrip(".\\"))
            if rule is None:
                continue
            same = rule.subs(sympy.Symbol(m.group(1)), sympy.Symbol(definition.var))
            if sympy.simplify(same - definition.rule) != 0:
                names.add(name)
    return names


_DECIMAL = re.compile(r"\d\.\d")


def _decide(left: str, right: str, call_value: sympy.Rational, last: sympy.Expr | None) -> Decision:
    a, b = _value(left), _value(right)
    if a is None or b is None or not (a.is_real and b.is_real):
        return Decision(None, "not a number once the function's values are put in")
    shown = (show(a), show(b))
    same = equal_values(a, b)
    if same is not False:
        return Decision(
            same, "equal (the function's values put in)" if same else "cannot tell", *shown
        )
    if _DECIMAL.search(left) or _DECIMAL.search(right):
        return Decision(None, "a decimal may be rounded", *shown)
    for x, y in ((a, b), (b, a)):
        if y.is_Integer and not x.is_Integer and abs(x - y) < 1:
            return Decision(None, "may be rounded to a whole number", *shown)
    if last is not None and equal_values(last, call_value) is True:
        return Decision(None, "a slip: the chain ends on the function's value", *shown)
    return Decision(False, f"{shown[0]} ≠ {shown[1]} (the problem's function put in)", *shown)


def function_statements(chains: list[Chain], prepared: str, problem: str | None) -> list[Statement]:
    """The links of the step's chains that call a function the problem defines."""
    defs = definitions(problem)
    if not defs:
        return []
    for name in _redefined(prepared, defs):
        defs.pop(name)
    found: list[Statement] = []
    for chain in chains:
        if chain.source not in ("math", "prose") or chain.approximate:
            continue
        for i, relation in enumerate(chain.relations):
            if relation != "=":
                continue
            left, right = chain.sides[i], chain.sides[i + 1]
            statement = _link(chain, left, right, prepared, defs, problem)
            if statement is not None:
                found.append(statement)
    return found


def _link(
    chain: Chain,
    left: Side,
    right: Side,
    prepared: str,
    defs: dict[str, Definition],
    problem: str | None,
) -> Statement | None:
    left_text, left_values = substituted(left.text, defs)
    right_text, right_values = substituted(right.text, defs)
    if not (left_values or right_values):
        return None
    text = " ".join(prepared[left.start : right.end].split())
    if readings.quoted(text, problem):
        return None
    call_value = (left_values or right_values)[-1]
    last_side = chain.sides[-1]
    last = None
    if last_side is not right and len(chain.sides) >= 3:
        last = _value(substituted(last_side.text, defs)[0])

    def decide() -> Decision:
        return _decide(left_text, right_text, call_value, last)

    return Statement(KIND, text, left.start, right.end, left.text, right.text, decide)
