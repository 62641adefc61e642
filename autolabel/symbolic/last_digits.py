"""A step about a number's last digits: "Taking the last two digits, $24 \\times 24 = 576 = 76$"
writes "=" for "has the same last two digits as" (congruence modulo 100).

Where the step or its problem speaks of the units digit, the last digit or the last k digits,
a claim between whole numbers, one of them below 10^k (the last digits themselves), that is
false as written but holds modulo 10^k is left undecided, never refuted; one that differs in
those digits, or between two full numbers ("67108864 + 676 = 67108940" next to "the units
digit"), is decided as written.
"""

from __future__ import annotations

import re

import sympy

_COUNT = {"two": 2, "three": 3, "four": 4, "2": 2, "3": 3, "4": 4}
_LAST_DIGITS = re.compile(
    r"\b(?:(?:units?|ones|last|final|rightmost|trailing)(?:\s*'s)?\s+"
    r"(?:(?P<count>two|three|four|[234])\s+)?digits?|(?:tens|hundreds)\s+digits?)\b",
    re.IGNORECASE,
)


def digit_moduli(*texts: str | None) -> frozenset[int]:
    """10^k for each "last k digits" (10 for the units digit) that ``texts`` speak of; a tens
    or hundreds digit counts as the last two or three."""
    found: set[int] = set()
    for text in texts:
        for m in _LAST_DIGITS.finditer(text or ""):
            phrase = m.group(0).lower()
            if phrase.startswith("tens"):
                found.add(100)
            elif phrase.startswith("hundreds"):
                found.add(1000)
            else:
                count = m.group("count")
                found.add(10 ** _COUNT[count.lower()] if count else 10)
    return frozenset(found)


def same_last_digits(a: sympy.Expr, b: sympy.Expr, moduli: frozenset[int]) -> int | None:
    """A modulus of ``moduli`` under which whole numbers ``a`` and ``b`` agree, one of them
    below it, if any."""
    if not (a.is_Integer and b.is_Integer):
        return None
    for modulus in sorted(moduli):
        # one side is the last digits themselves ("576 = 76"), not another full number
        if min(abs(int(a)), abs(int(b))) < modulus and (int(a) - int(b)) % modulus == 0:
            return modulus
    return None
