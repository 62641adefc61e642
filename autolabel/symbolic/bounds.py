"""The arithmetic inside a bound: ``(a - 1 + b + c + d)^2 = (17 - 1)^2 = 49^2 \\ge ...``.

math_text.py drops a chain that mixes an order relation with symbols ("n > 5",
"1 \\le k \\le 9" are conditions, not computations), and with it every equality the chain
writes. Here such a chain gives back its runs of equalities between numbers only: in
``S \\ge (a + b)^2 = (17 - 1)^2 = 49^2 = 2401`` the run ``(17 - 1)^2 = 49^2 = 2401`` is a
computation whatever S is. A run is two or more sides in a row, each parsed and free of
symbols, joined by "=". Decided like any chain, as kind ``chain`` (a numeric chain, the same
check; ``bound_arithmetic`` until symbolic-1.3); a chain right after "if", "suppose", "when"
and the like is a hypothesis and gives nothing.
"""

from __future__ import annotations

import re

from autolabel.symbolic.chains import Chain, Side, depth_split, make_side
from autolabel.symbolic.inequalities import ORDER, numeric_sides, relation_of
from autolabel.symbolic.math_text import prepared_tokens, segment_tokens, top_level_relations
from autolabel.symbolic.segments import Segment
from autolabel.symbolic.tokens import REL, SEP, Token

KIND = "chain"  # a numeric chain like any other (issue 25: the same check)
_HYPOTHESIS = re.compile(
    r"\b(?:if|suppose|supposing|assum\w*|whether|when|unless)\W*$", re.IGNORECASE
)


def bound_chains(segment: Segment, source_text: str) -> list[Chain]:
    tokens = segment_tokens(segment)
    if not any(t.kind == REL for t in tokens):
        return []
    prepared = prepared_tokens(tokens)
    if prepared is None:
        return []
    found: list[Chain] = []
    for line in depth_split(prepared, lambda t: t.kind == SEP and t.value == "\\\\"):
        line = [t for t in line if not (t.kind == SEP and t.value == "&")]
        for piece in depth_split(line, lambda t: t.kind == SEP):
            found.extend(_runs(piece, source_text))
    return found


def _runs(tokens: list[Token], source_text: str) -> list[Chain]:
    top = [relation_of(t) for t in top_level_relations(tokens)]
    parts = depth_split(tokens, lambda t: t.kind == REL)
    if not top or len(top) != len(parts) - 1 or not any(r in ORDER for r in top):
        return []
    if any(r not in ("=", "~") and r not in ORDER for r in top):
        return []
    if tokens and _HYPOTHESIS.search(source_text, max(0, tokens[0].start - 24), tokens[0].start):
        return []  # "if n \\le 2 \\cdot 7 = 15": the bound is supposed, not computed
    sides = [make_side(p, "math", source_text) for p in parts]
    if numeric_sides(sides):
        return []  # math_text.py reads it whole
    runs: list[Chain] = []
    run: list[Side] = [sides[0]]
    for relation, side in zip(top, sides[1:], strict=True):
        if relation == "=" and numeric_sides([run[-1], side]):
            run.append(side)
            continue
        runs.extend(_chain(run))
        run = [side]
    runs.extend(_chain(run))
    return runs


def _chain(run: list[Side]) -> list[Chain]:
    if len(run) < 2 or not numeric_sides(run):
        return []
    return [Chain(sides=run, relations=["="] * (len(run) - 1), source="math", kind=KIND)]
