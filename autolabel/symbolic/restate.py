"""Restated quantities: ``\\[ T = 52 + 24 + 44 + 48 \\] \\[ T = 178 \\]`` claims 52+...+48 = 178.

Model solutions often write one equation per display, repeating the left side. Two chains
are linked only when they are adjacent display equations (nothing but the delimiters between
them) or adjacent lines of one display, both start with the same lone symbol or named
quantity, the earlier ends in a numeric expression and the later is ``name = number``.
Anything looser (case analyses, lists of roots, "x = 1, x = 4 - sqrt 3") is left alone.
"""

from __future__ import annotations

import re

from autolabel.symbolic import ast
from autolabel.symbolic.chains import Chain, Side, display

# Only the delimiters between two display equations: "\] \[", "$$ $$", a line break.
_GAP = re.compile(r"^\s*((\\\]|\$\$)?\s*(\\\[|\$\$)?|\\\\)\s*$")


def _name(side: Side) -> str | None:
    if isinstance(side.node, ast.Sym):
        return "".join(side.text.split())
    return None


def _numeric(side: Side) -> bool:
    return side.node is not None and side.info is not None and not side.info.symbols


def restatement_chains(chains: list[Chain], prepared: str) -> list[Chain]:
    made: list[Chain] = []
    for earlier, later in zip(chains, chains[1:], strict=False):
        if earlier.source != "math" or later.source != "math":
            continue
        if len(earlier.sides) < 2 or len(later.sides) < 2:
            continue
        if set(earlier.relations) != {"="} or set(later.relations) != {"="}:
            continue
        name = _name(earlier.sides[0])
        if name is None or name != _name(later.sides[0]):
            continue
        gap = prepared[earlier.sides[-1].end : later.sides[0].start]
        if not _GAP.match(gap):
            continue
        a, b = earlier.sides[-1], later.sides[1]
        if not (_numeric(a) and _numeric(b)) or len(later.sides) != 2:
            continue
        if b.info is None or b.info.literal is None or b.info.ops > 0:
            continue  # "T = 178" restates a result; "x = 1 + sqrt 2" then "x = 1 - sqrt 2" lists
        made.append(
            Chain(
                sides=[a, b],
                relations=["="],
                source="math",
                notes=[f"restated: {display(earlier.sides[0].text)}"],
                claim_text=f"{a.text} = {b.text} (both equal {earlier.sides[0].text})",
            )
        )
    return made
