"""GSM8K calculator annotations: ``<<3*4=12>>``.

The annotation is the calculator's record of a computation; the visible text after it is
what the solution claims. Both are checked: the annotation as kind ``gsm8k_calc``, the
visible text (with the annotation removed) like any other prose.
"""

from __future__ import annotations

import re

from autolabel.symbolic.chains import Chain, make_side
from autolabel.symbolic.tokens import SPACE, tokenize

_ANNOTATION = re.compile(r"<<([^<>=]*)=([^<>=]*)>>")


def annotation_chains(text: str) -> list[Chain]:
    chains: list[Chain] = []
    for m in _ANNOTATION.finditer(text):
        source = m.group(0)
        sides = []
        for group in (1, 2):
            expr = m.group(group).replace("**", "^")
            tokens = [t for t in tokenize(expr, "prose") if t.kind != SPACE]
            side = make_side(tokens, "prose", expr)
            side.start, side.end = m.start(group), m.end(group)
            sides.append(side)
        chains.append(Chain(sides=sides, relations=["="], source="annotation", claim_text=source))
    return chains


def strip_annotations(text: str) -> str:
    return _ANNOTATION.sub("", text)
