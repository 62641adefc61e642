"""Whether the text says a value is rounded to a whole number (symbolic-1.7).

An equation whose root is not a whole number, then "x = whole number" next to it: until 1.6
the whole number always counted as a possible rounding ("3x = 10, so x = 3 people") and the
pair was left undecided, so "\\[17h = 87\\] Dividing both sides by 17, we find h = 5" was
never refuted. A rounding is read only where the text says so: a word of rounding or of
whole numbers around the pair ("round", "approximately", "whole", "integer", "at least",
"cannot", "only", ...), a count named right after the value ("x = 3 people", "3 boxes"), or
a decimal in the equation (its numbers are rounded already: "\\sqrt{x} = 3.2, so x = 10").
Otherwise the whole number is the value the writer computed, and it is decided.
"""

from __future__ import annotations

import re

BEFORE = 160  # characters before the pair read for rounding words
AFTER = 100  # ... and after its value

_SAID = re.compile(
    r"\b(?:round\w*|approx\w*|about|nearly|roughly|almost|estimat\w*|whole|integers?|"
    r"integral|complete|full|partial|fraction\w*|at\s+(?:least|most)|maxim\w*|minim\w*|"
    r"greatest|least|largest|smallest|floor|ceil\w*|enough|cannot|can't|can\s+not|only|"
    r"up|down|nearest|truncat\w*)\b|\\approx|\\lfloor|\\lceil|\u2248|~",
    re.IGNORECASE,
)
# A decimal in the equation: its numbers are rounded already ("\\sqrt{x} = 3.2, so x = 10").
_DECIMAL = re.compile(r"\d\.\d")
# A count named right after the value: "x = 3 people", "\\( x = 3 \\) boxes".
_COUNT_AFTER = re.compile(
    r"^\s*(?:\\\)|\$)?\s*(?:\\text\s*\{\s*)?(?!(?:and|or|but|so|then|thus|hence|which|since|"
    r"because|for|is|are|was|we|this|that|the|as|to|in|of|if|with|from|by|gives?|into|"
    r"satisfies|works|holds)\b)[A-Za-z]{3,}",
    re.IGNORECASE,
)


def rounding_said(text: str, start: int, end: int) -> bool:
    """``text[start:end]`` is an equation and its whole-number value: does the text around it
    say that the value is rounded (or a count that has to be whole)?"""
    around = text[max(0, start - BEFORE) : end + AFTER]
    return bool(
        _SAID.search(around)
        or _COUNT_AFTER.match(text[end : end + 40])
        or _DECIMAL.search(text[start:end])
    )


__all__ = ["rounding_said"]
