"""A chain carried on in the next display: ``\\[ S = 24 \\times 24 \\times 11111 \\]
\\[ = 576 \\times 11111 \\] \\[ = 63950064 \\]`` claims 576 * 11111 = 63950064.

A display (or a line of one) that starts with "=" has no left side of its own: math_text.py
makes it a chain whose first side is empty, and that chain claims nothing. Here it is joined
to the last side of the chain just before it, when nothing but math delimiters or a line
break stands between them, or only the words of a derivation ending where the display opens
("This simplifies to: \\[ = ..."); a run of such displays joins link by link. The joined
chain is decided like any chain, as kind ``chain`` (``continued`` until symbolic-1.3).
"""

from __future__ import annotations

import re

from autolabel.symbolic.chains import Chain, display
from autolabel.symbolic.solving import derivation_gap

KIND = "chain"  # a numeric chain like any other (issue 25: the same check)
MAX_WORDED_GAP = 60
_OPENERS = ("\\[", "$$", "\\(", "$")

# Only the delimiters between two displays: "\] \[", "$$ $$", "\)\(", a line break.
_GAP = re.compile(r"^\s*(?:(?:\\\]|\$\$|\\\)|\$)?\s*(?:\\\[|\$\$|\\\(|\$)?|\\\\)\s*$")


def _open(chain: Chain) -> bool:
    """A chain whose first side is empty: it starts with its relation."""
    return bool(chain.sides) and chain.sides[0].node is None and chain.sides[0].error == "empty"


def _worded(gap: str) -> bool:
    """Derivation words between the displays: "\\] This simplifies to: \\[ = ..."."""
    return len(gap) <= MAX_WORDED_GAP and gap.rstrip().endswith(_OPENERS) and derivation_gap(gap)


def continuation_chains(chains: list[Chain], prepared: str) -> list[Chain]:
    ordered = sorted(
        (c for c in chains if c.source == "math" and len(c.sides) >= 2),
        key=lambda c: c.sides[-1].end,
    )
    made: list[Chain] = []
    for earlier, later in zip(ordered, ordered[1:], strict=False):
        if not _open(later):
            continue
        left = earlier.sides[-1]
        if left.node is None or earlier.relations[-1] != "=" or later.relations[0] != "=":
            continue
        following = later.sides[1]
        if following.node is None or following.start < left.end:
            continue
        gap = prepared[left.end : following.start - 1].rstrip("= ")
        if not (_GAP.match(gap) or _worded(gap)):
            continue
        if prepared[left.end : following.start].count("=") != 1:
            continue
        made.append(
            Chain(
                sides=[left, *later.sides[1:]],
                relations=list(later.relations),
                source="math",
                approximate=later.approximate or earlier.approximate,
                notes=["continued from the display before"],
                claim_text=f"{display(left.text)} = {display(following.text)}",
                pattern=later.pattern,
                kind=KIND,
            )
        )
    return made
