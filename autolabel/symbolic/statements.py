"""Claims that are not an equality between two expressions: "91 is prime", "the divisors of
12 are 1, 2, 3, 4, 6, 12", "there are 5 such numbers".

A finder reads the step's prepared text (positions unchanged) through :func:`plain_view`,
where math delimiters are blanked, so "$91$ is prime" and "91 is prime" read the same. Each
claim is a :class:`Statement` whose ``decide`` computes exactly (integers, sympy) and returns
a :class:`compare.Decision`; check.py runs it under the same soft limit as an equality and
does not refute it where the text around it hedges ("if 91 is prime").
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from autolabel.symbolic.compare import Decision


@dataclass
class Statement:
    kind: str
    text: str  # the claim as written
    start: int  # its span in the prepared text, for the hedge rules
    end: int
    lhs: str  # what the claim is about ("91", "divisors of 12")
    rhs: str  # what it says ("prime", "1, 2, 3, 4, 6, 12")
    decide: Callable[[], Decision]
    # Decided the same in a modular setting ("remainder", "mod" in the step or the task),
    # which otherwise makes check.py leave a failed claim undecided.
    modular: bool = False


_DELIMITER = re.compile(r"(?<!\\)\$|\\\(|\\\)|\\\[|\\\]")


# A letter x typed for "times" between numbers ("2^5 x 3 x 67", "11 x 13 x 60"), spaced on both
# sides (not "2x", a product with x): read as the sign it stands for (symbolic-1.11).
_PROSE_TIMES = re.compile(r"(?<=[\d}])(\s+)[xX](?=\s+\d)")


def plain_view(prepared: str) -> str:
    """``prepared`` with math delimiters replaced by spaces and a typed "x" between numbers by
    "×" (same length, same positions)."""
    plain = _DELIMITER.sub(lambda m: " " * len(m.group(0)), prepared)
    return _PROSE_TIMES.sub(lambda m: m.group(1) + "\u00d7", plain)


def shown(plain: str, start: int, end: int) -> str:
    return " ".join(plain[start:end].split())


# A whole number standing alone: "91", "1,000", not "3.5", "x2", "2^3" or "10_2".
# Groups of three digits may be set off by a comma or a thin space ("2\\,013"), and a group is
# never a number of its own.
NUMBER = (
    r"(?<![\w.^_{}\\])(?<!\\,)(?<!\\!)"
    r"(?:\d{1,3}(?:(?:,|\\,|\\!|\{,\})\d{3})+|\d+)(?![\w^_]|[.,]\d)"
)
# After a stated value: words or marks that go on with the expression ("11 times 2", "2 squared
# times 3", "2^2 and 3^2", "2³ × 3²"): the value is not the number before them (symbolic-1.11).
CONTINUED = (
    r"\s*(?:(?:times|squared|cubed|multiplied|plus|minus|divided|over|raised|to\s+the)\b|"
    r"and\s+\d|[\u00b2\u00b3\u00b9\u2070-\u2079])"
)
# Words right before a number that make it part of a larger phrase ("half of 12", "2 times 6").
_TIED_BEFORE = frozenset(
    re.findall(
        r"\w+",
        "of than by plus minus times over into divided multiplied to from between with as per "
        "the a an choose mod modulo power",
    )
)


# An operator or an ellipsis before a number ("2 \\cdot 2 \\cdots 2 = 2^{24}", "2 x 3 x ... 9 is
# divisible by 4"): the number ends an expression, it is not the subject of the claim.
_OPERATOR_BEFORE = re.compile(
    r"(?:\\(?:times|cdot|div|frac|sqrt|pm|mp|ast|[lc]?dots[bcm]?)|\.\.\.|\d\s*[xX])\s*$"
)


_SPACE_GROUP = re.compile(r"\d{3}(?![\d.,]\d|\d)")


def standalone(plain: str, start: int) -> bool:
    """Nothing before the number at ``start`` makes it part of an expression or a phrase."""
    before = plain[max(0, start - 40) : start].rstrip()  # a window: no copy of the whole text
    if before and before[-1] in "+-*/=^_×·(<>{|\u2212\u22c5\u00f7\u2026":
        return False
    if _OPERATOR_BEFORE.search(before):
        return False
    if _SPACE_GROUP.match(plain, start) and re.search(r"(?<![\d.,])\d{1,3} $", plain[:start]):
        return False  # "98 765 is not a multiple of 9": thousands set off by a space (round 14)
    if re.search(r"\d\s+(?:and|or)$", before, re.IGNORECASE):
        return False  # "2 and 91 is ...": a compound subject
    word = re.search(r"([A-Za-z]+)$", before)
    return not (word and word.group(1).lower() in _TIED_BEFORE)


def as_int(text: str) -> int:
    return int(re.sub(r"\\[,!]|\{,\}|,", "", text))
