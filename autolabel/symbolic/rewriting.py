"""Rewritings said in words between two math segments (kind ``rewriting``).

* "$x^2 - 5x + 6$ factors as $(x - 2)(x - 4)$", "$2x + 3x$ simplifies to $6x$": two
  expressions joined by "becomes", "simplifies to", "reduces to", "factors as", "expands
  to", "can be written as", "is equivalent to" must be identical;
* "$A = 0$ becomes $B = 0$": two equations so joined must be the same polynomial equation up
  to a constant factor (both sides polynomial, the same variables, the same degree: "x^2 = 3x
  becomes x = 3" divides by x and reads nothing, as does "x + 1/x = 2 becomes x^2 + 1 = 2x");
* "To simplify the expression $E_1$ ... the expression becomes $E_2$": the first expression
  the step names is identical to what it says it becomes.

Identities are decided as in compare.py: 0 after expansion holds; a difference that is not 0
at six random positive rational points fails. Both sides must have the same variables
(a substitution "becomes" something in other letters), none ``i`` or ``e``, no units, no
``f(x)``-like call.
"""

from __future__ import annotations

import random
import re

import sympy

from autolabel.symbolic import readings
from autolabel.symbolic.boundaries import object_of_words
from autolabel.symbolic.chains import Side, depth_split, display, make_side
from autolabel.symbolic.compare import CONSTANT_LIKE, Decision, equal_values
from autolabel.symbolic.equation_numerators import numerators_compared
from autolabel.symbolic.evaluate import exact, show
from autolabel.symbolic.exponential_equations import exponential, over_prime_powers
from autolabel.symbolic.radical_letters import radicals_as_letters
from autolabel.symbolic.segments import Segment, looks_like_prose, split_segments
from autolabel.symbolic.statements import Statement
from autolabel.symbolic.tokens import PUNCT, REL, SPACE, tokenize

KIND = "rewriting"
POINTS = 6
MAX_COMBINATIONS = 16  # readings of four sides decided at most

JOIN = re.compile(
    r"^\s*(?:\$\$|\$|\\\)|\\\])?\s*,?\s*(?:which\s+|this\s+|it\s+|then\s+)?"
    r"(?:becomes|simplifies\s+to|reduces\s+to|factors\s+(?:as|into|to)|expands\s+to|"
    r"can\s+be\s+(?:re)?written\s+as|is\s+equivalent\s+to|turns\s+into)\s*:?\s*"
    r"(?:\$\$|\$|\\\(|\\\[)?\s*$",
    re.IGNORECASE,
)
_NAMED = re.compile(r"the\s+(?:given\s+|original\s+)?expression\s*(?:\$\$|\$|\\\(|\\\[)?\s*$", re.I)
_BECOMES = re.compile(
    r"the\s+expression\s+(?:now\s+)?(?:becomes|simplifies\s+to|reduces\s+to|is\s+now)\s*:?\s*"
    r"(?:\$\$|\$|\\\(|\\\[)?\s*$",
    re.IGNORECASE,
)


# What may stand between two equations of one block: display delimiters, punctuation, "and".
_RUN_GAP = re.compile(r"^(?:\s|[,;.]|\$|\\[\[\]()]|\\\\|\band\b)*$")


def equation_run(segments: list[Segment], text: str, *, last: bool) -> list[Segment]:
    """The block of equations at the end (``last``) or start of ``segments``: equations with
    nothing but display delimiters, punctuation or "and" between them (one expression, not an
    equation, is a block of its own)."""
    ordered = segments[::-1] if last else segments
    run = [ordered[0]]
    if "=" not in ordered[0].text:
        return run
    for segment in ordered[1:]:
        a, b = (segment, run[-1]) if last else (run[-1], segment)
        if "=" not in segment.text or not _RUN_GAP.match(text[a.offset + len(a.text) : b.offset]):
            break
        run.append(segment)
    return run[::-1] if last else run


def paired_runs(
    before: list[Segment], before_text: str, after: list[Segment], after_text: str
) -> list[tuple[Segment, Segment]]:
    """The block ending ``before`` against the block opening ``after``: one equation becomes
    the first after it (the displays after it are a derivation: olympiadbench-194 step 3,
    "Simplifying, we get: $8=4b-4b$ $8=-4$"); a system of several, item by item, and
    against a block of another length, nothing (which equation becomes which is not said)."""
    ends = equation_run(before, before_text, last=True)
    if len(ends) == 1:
        return [(ends[0], after[0])]
    opens = equation_run(after, after_text, last=False)
    return list(zip(ends, opens, strict=True)) if len(ends) == len(opens) else []


def rewriting_statements(prepared: str) -> list[Statement]:
    segments = [
        s for s in split_segments(prepared) if s.kind == "math" and not looks_like_prose(s.text)
    ]
    found: list[Statement] = []
    for n in range(1, len(segments)):
        first, second = segments[n - 1], segments[n]
        gap = prepared[first.offset + len(first.text) : second.offset]
        if JOIN.match(gap) and not object_of_words(prepared, first.offset):
            for a, b in paired_runs(segments[:n], prepared, segments[n:], prepared):
                statement = _pair(a, b, prepared)
                if statement is not None:
                    found.append(statement)
    named = next(
        (s for s in segments if _NAMED.search(prepared[max(0, s.offset - 40) : s.offset])), None
    )
    if named is not None:
        for later in segments:
            if later.offset > named.offset and _BECOMES.search(
                prepared[max(0, later.offset - 60) : later.offset]
            ):
                statement = _pair(named, later, prepared)
                if statement is not None:
                    found.append(statement)
                break
    return found


def equation_sides(segment: Segment, prepared: str) -> list[Side] | None:
    tokens = [t for t in tokenize(segment.text, "math") if t.kind != SPACE]
    while tokens and tokens[-1].kind == PUNCT:
        tokens.pop()
    for tok in tokens:
        tok.start += segment.offset
        tok.end += segment.offset
    parts = depth_split(tokens, lambda t: t.kind == REL)
    relations = [t for t in tokens if t.kind == REL]
    if len(parts) > 2 or any(t.value != "=" for t in relations) or len(parts) != len(relations) + 1:
        return None
    sides = [make_side(p, "math", prepared) for p in parts]
    if any(s.node is None or s.info is None for s in sides):
        return None
    if any(s.info.units or s.info.call_like for s in sides if s.info):
        return None
    return sides


def symbols_of(sides: list[Side]) -> frozenset[str]:
    return frozenset().union(*(s.info.symbols for s in sides if s.info))


def _pair(first: Segment, second: Segment, prepared: str) -> Statement | None:
    a, b = equation_sides(first, prepared), equation_sides(second, prepared)
    if a is None or b is None or len(a) != len(b):
        return None
    names = symbols_of(a)
    if names != symbols_of(b) or names & CONSTANT_LIKE or any(n.startswith("text:") for n in names):
        return None
    if len(a) == 1 and not names:
        return None  # numbers: the '=' and 'is' rules read those
    if len(a) == 2 and not names:
        return None
    lhs = " = ".join(display(s.text) for s in a)
    rhs = " = ".join(display(s.text) for s in b)

    def decide() -> Decision:
        if len(a) == 1:
            return same_expression(exact(a[0].node), exact(b[0].node))  # type: ignore[arg-type]
        return same_equation(a, b)

    return Statement(KIND, f"{lhs} becomes {rhs}", a[0].start, b[-1].end, lhs, rhs, decide)


def _points(symbols: list[sympy.Symbol], seed: int) -> list[dict[sympy.Symbol, sympy.Expr]]:
    rng = random.Random(seed)
    return [
        {s: sympy.Rational(rng.randint(1, 97), rng.randint(1, 13)) for s in symbols}
        for _ in range(POINTS)
    ]


def same_expression(a: sympy.Expr, b: sympy.Expr) -> Decision:
    shown = (show(a), show(b))
    diff = a - b
    if diff == 0 or sympy.expand(diff) == 0:
        return Decision(True, "identical (the difference expands to 0)", *shown, KIND)
    symbols = sorted(diff.free_symbols, key=lambda s: s.name)
    witness = ""
    for point in _points(symbols, 20251202):
        value = diff.subs(point)
        if not value.is_number or equal_values(value, sympy.Integer(0)) is not False:
            if sympy.simplify(diff) == 0:
                return Decision(True, "identical (simplifies to 0)", *shown, KIND)
            return Decision(None, "the difference vanishes at a sample point", *shown, KIND)
        if not witness:
            at = ", ".join(f"{s}={v}" for s, v in point.items())
            witness = f"{at}: {show(a.subs(point))} vs {show(b.subs(point))}"
    return Decision(False, f"not the same expression ({witness})", *shown, KIND)


def _polynomial_degree(f: sympy.Expr, symbols: list[sympy.Symbol]) -> int | None:
    numerator, denominator = sympy.fraction(sympy.together(f))
    if denominator.free_symbols:
        return None
    try:
        return sympy.Poly(numerator, *symbols).total_degree()
    except sympy.PolynomialError:
        return None


def same_equation(a: list[Side], b: list[Side], kind: str = KIND) -> Decision:
    """Two equations (two sides each): the same polynomial equation up to a constant factor
    (holds), not (fails: no constant factor relates them); of different degrees or with
    letters in a denominator, decided by their numerators (equation_numerators.py). Under
    every reading of the four sides (readings.py: ``x = 6/2y`` is ``3y`` or ``3/y``): fails
    only if it fails under each, holds only if it holds under each."""
    return readings.decide_sides(
        [*a, *b], lambda p, q, r, s: _same_equation_read([p, q], [r, s], kind), MAX_COMBINATIONS
    )


def _same_equation_read(a: list[Side], b: list[Side], kind: str) -> Decision:
    f = exact(a[0].node) - exact(a[1].node)  # type: ignore[arg-type]
    g = exact(b[0].node) - exact(b[1].node)  # type: ignore[arg-type]
    shown = (f"{show(f)} = 0", f"{show(g)} = 0")
    if exponential(f) or exponential(g):
        return _exponential_read(f, g, shown, kind)
    read = radicals_as_letters(f, g)  # a root kept whole is one more letter
    if read is not None:
        f, g = read
    symbols = sorted(f.free_symbols | g.free_symbols, key=lambda s: s.name)
    df, dg = _polynomial_degree(f, symbols), _polynomial_degree(g, symbols)
    if df is None or dg is None or df != dg or df == 0:
        return numerators_compared(f, g, symbols, shown, kind)
    ratios = []
    for point in _points(symbols, 20251203):
        fv, gv = f.subs(point), g.subs(point)
        if not (fv.is_Rational and gv.is_Rational) or gv == 0:
            return Decision(None, "could not compare at a sample point", *shown, kind)
        ratios.append(fv / gv)
    if all(r == ratios[0] for r in ratios) and ratios[0] != 0:
        return Decision(True, f"the same equation (factor {ratios[0]})", *shown, kind)
    return Decision(False, "not the same equation: no constant factor relates them", *shown, kind)


def _exponential_read(f: sympy.Expr, g: sympy.Expr, shown: tuple[str, str], kind: str) -> Decision:
    """Letters in exponents: compared over the letters ``p^x`` (exponential_equations.py)."""
    read_f, read_g = over_prime_powers(f), over_prime_powers(g)
    if read_f is None or read_g is None:
        return Decision(None, "not two equations in powers of numbers to letters", *shown, kind)
    symbols = sorted(read_f[1] | read_g[1], key=lambda s: s.name)
    return numerators_compared(read_f[0], read_g[0], symbols, shown, kind)
