"""Complex arithmetic with the imaginary unit (issue 25, symbolic-1.9): where the step or the
problem is about complex numbers, ``i`` is the imaginary unit, so a claim whose only symbol is
``i`` is a computation like any other: "$\\frac{1}{-5i} \\cdot \\frac{-i}{-i} = \\frac{-i}{25}$"
fails (i/5, not -i/25), "$(2 + i)(2 - i) = 5$" holds.

Elsewhere ``i`` may be a variable or an index and compare.py leaves it undecided ("i or e may
be a constant"); here the setting decides which it is. A setting is complex when the problem or
the step says "complex", "imaginary", "conjugate", ``i^2 = -1``, ``\\mathbb{C}``, Re/Im, and
never when either uses ``i`` as an index or a counter (``a_i``, ``\\sum_{i=1}``, "for each i",
``1 \\le i \\le n``, "i = 1, 2, ...", "i from 1", "the i-th"). ``i`` alone against a number ("i
= 3") is an assignment and is not read; a letter right before a bracket ("i(a - bi)") is a
product, since ``i`` names no function here. Decided exactly (sympy's ``I``) as compare.py
decides numbers: two plain numbers, a hedge, decimals that may be rounded, an approximate
context are undecided. The claim keeps the kind a number claim has (``arithmetic``, or
``chain`` for a link of three or more sides): the same question decided the same way, with the
unit's value put in.
"""

from __future__ import annotations

import re

import sympy

from autolabel.symbolic import ast
from autolabel.symbolic.chains import Chain, Side
from autolabel.symbolic.decisions import Context, Decision
from autolabel.symbolic.evaluate import exact, show

_COMPLEX = re.compile(
    r"complex|imaginary|conjugate|\bi\s*=\s*\\sqrt\s*\{\s*-\s*1\s*\}|i\s*\^\s*\{?\s*2\s*\}?\s*=\s*-\s*1|\\mathbb\s*\{?\s*C\b|"
    r"\\(?:operatorname|text|mathrm)\s*\{\s*(?:Re|Im)\s*\}|\\(?:Re|Im)\b",
    re.IGNORECASE,
)
_INDEX = re.compile(
    r"_\s*\{?\s*i\b|\\(?:sum|prod)\s*_\s*\{?\s*i|\bfor\s+(?:each|all|every|any|some)\s+\$?\s*i\b|"
    r"\\le(?:q|qslant)?\s*i\s*\\le|\bi\s*=\s*\d+\s*,|\bi\s*=\s*\d+\s*(?:to|\\ldots|\\dots)|"
    r"\bi\s*\\in\b|\bi\s*\+\s*1\b|\bi\s*-\s*1\b(?!\s*\))|\bi\s+(?:from|runs|ranges)\b|"
    r"\bi\s*(?:\$|\\\))?\s*-?\s*th\b|\bi\s*\^\s*\{?\s*\\?(?:text\{)?th"
)


def imaginary_setting(step_text: str, problem: str | None) -> bool:
    """``i`` is the imaginary unit in this step (see the module's docstring)."""
    texts = (step_text, problem or "")
    if any(_INDEX.search(t) for t in texts):
        return False
    return any(_COMPLEX.search(t) for t in texts)


def _with_unit(node: ast.Node) -> sympy.Expr | None:
    value = exact(node)
    names = {s.name: s for s in value.free_symbols if isinstance(s, sympy.Symbol)}
    if set(names) - {"i"}:
        return None
    if "i" in names:
        value = value.subs(names["i"], sympy.I)
    return sympy.expand(value)


def _equal(a: sympy.Expr, b: sympy.Expr) -> bool | None:
    """Exact equality of two complex constants: True, False, or None (cannot tell); as
    compare.equal_values (which imports this module) decides real ones."""
    diff = sympy.expand(a - b)
    if diff.is_zero:
        return True
    approx = sympy.N(diff, 40)
    if not approx.is_number or approx.has(sympy.zoo, sympy.nan, sympy.oo, -sympy.oo):
        return None
    scale = max(1.0, abs(complex(sympy.N(a, 15))), abs(complex(sympy.N(b, 15))))
    if abs(complex(approx)) > 1e-25 * scale:
        return False
    return True if sympy.simplify(diff) == 0 else None


def decide_imaginary(
    left: Side, right: Side, chain: Chain, index: int, context: Context
) -> Decision | None:
    """The claim with ``i`` the imaginary unit, or None where this rule does not apply."""
    li, ri = left.info, right.info
    if li is None or ri is None or left.node is None or right.node is None:
        return None
    if (li.symbols | ri.symbols) != {"i"} or li.units or ri.units or li.bare_percent:
        return None
    if ri.bare_percent or li.percent_of or ri.percent_of:
        return None
    if (isinstance(left.node, ast.Sym) and not ri.symbols) or (
        isinstance(right.node, ast.Sym) and not li.symbols
    ):
        return None  # "i = 3": an assignment
    later_link = chain.source == "math" and index >= 1 and len(chain.sides) >= 3
    if li.ops == 0 and ri.ops == 0 and not later_link:
        return Decision(None, "two plain numbers; nothing computed")
    a, b = _with_unit(left.node), _with_unit(right.node)
    if a is None or b is None:
        return None
    shown = (show(a), show(b))
    kind = "chain" if len(chain.sides) >= 3 else "arithmetic"
    same = _equal(a, b)
    if same is True:
        return Decision(True, "equal (i the imaginary unit)", *shown, kind)
    if same is None:
        return Decision(None, "could not decide (i the imaginary unit)", *shown, kind)
    if context.hedged:
        return Decision(None, "the text around it questions or qualifies it", *shown, kind)
    if context.approximate or li.has_decimal or ri.has_decimal:
        return Decision(None, "decimals may be rounded (i the imaginary unit)", *shown, kind)
    return Decision(False, f"{shown[0]} ≠ {shown[1]} (i the imaginary unit)", *shown, kind)
