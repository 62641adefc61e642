"""Claims a step states as premises: "Given that $1547 = 23 \\times 67$, ...", "Since 3 * 4 = 13",
"Recall that ...", "We know that ..." (symbolic-1.14).

Such a claim is taken as known, not computed by the step; where it is false, the benchmark's
labels put the error where the premise is used (on the develop part the one refutation of this
shape was the step before the labelled first error, omnimath-165, and no first error has it),
so it is not a computation of the step's own to refute on. Its failed claim keeps its evidence
with the kind PREMISE, which refutes only if it earns a −1 on the develop part (kinds.py), as
SLIP does.
"""

from __future__ import annotations

import re

PREMISE = "premise"
# The kinds a premise takes over: computations the step would otherwise own.
_TAKEN_OVER = frozenset({"arithmetic", "chain", "percentage"})
# Right before the claim (math delimiters and spaces between): the words that make it a premise.
_PREMISE_WORDS = re.compile(
    r"\b(?:given\s+that|since|because|as\s+we\s+know|we\s+know(?:\s+that)?|knowing\s+that|"
    r"note\s+that|recall\s+that|it\s+is\s+(?:known|given)\s+that|using\s+the\s+fact\s+that|"
    r"we\s+are\s+given(?:\s+that)?)[\s,:]*(?:\$|\\\(|\\\[)?\s*$",
    re.IGNORECASE,
)


def stated_as_premise(text: str, start: int, kind: str) -> bool:
    """The claim of ``kind`` at ``text[start:]`` follows premise words ("Given that", "Since",
    "Recall that") at the start of its clause."""
    return kind in _TAKEN_OVER and bool(_PREMISE_WORDS.search(text[max(0, start - 40) : start]))
