"""Ratios and percentage changes, decided exactly with fractions.

* ``ratio``: "12:18 = 2:3", "the ratio 6:4 simplifies to 3:2", "4:6:8 is equivalent to
  2:3:4" (the same number of parts, proportional); "6:4 in simplest form" needs coprime
  parts. Clock times are not ratios: a part written with a leading zero ("3:05") or time
  words nearby ("am", "pm", "o'clock", "time") read nothing, nor does a side that is an
  operand of a sum or product ("2:30 + 1:45 = 4:15", "3:4 = 6:8 + 1").
* ``percentage``: "80 increased by 25% is 100", "$50 discounted by 20% gives $40"
  (B = A (1 +- Y/100)); "from 80 to 100 is a 25% increase", "a 20% decrease from 50 to 40"
  ((B - A) / A = +-Y/100). A percentage written with d decimals holds when the exact change
  rounds or truncates to it at d digits; a whole-number percentage within 1 of a
  non-integer change may be a rounding and stays undecided.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from fractions import Fraction

from autolabel.symbolic.compare import Decision
from autolabel.symbolic.statements import Statement, shown

_RATIO_PART = r"\d+(?:\.\d+)?"
_COLON = r"\s*(?::|\\colon)\s*"
_RATIO = rf"{_RATIO_PART}(?:{_COLON}{_RATIO_PART})+"
_RATIO_EQUAL = re.compile(
    rf"(?<![\d.:])(?P<r1>{_RATIO})\s*(?:=|is\s+equivalent\s+to|is\s+the\s+same\s+as|"
    rf"simplifies\s+to|reduces\s+to|equals|becomes)\s*(?P<r2>{_RATIO})(?![\d:]|\.\d)",
    re.IGNORECASE,
)
_RATIO_SIMPLEST = re.compile(
    rf"(?<![\d.:])(?P<r1>{_RATIO})(?![\d:]|\.\d)\s*,?\s*(?:which\s+)?(?:is\s+)?(?:already\s+)?"
    r"in\s+(?:its\s+)?(?:simplest|lowest)\s+(?:form|terms)",
    re.IGNORECASE,
)
_TIME_WORDS = re.compile(r"\b(?:a\.?m\.?|p\.?m\.?|o'clock|time|clock|hours?|minutes?)\b", re.I)

_MONEY = r"(?:\$|\\\$|\ue001)?"
_NUM = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_PCT = r"\s*(?:\ue000|\\%|%|\s+percent\b)"
_CHANGE_WORDS = {
    "increased": 1,
    "raised": 1,
    "marked up": 1,
    "decreased": -1,
    "reduced": -1,
    "lowered": -1,
    "discounted": -1,
    "marked down": -1,
}
_APPLIED = re.compile(
    rf"(?<![\d.]){_MONEY}(?P<a>{_NUM})\s+(?P<verb>increased|raised|marked\s+up|decreased|"
    rf"reduced|lowered|discounted|marked\s+down)\s+by\s+(?P<y>{_NUM}){_PCT}\s*,?\s*"
    rf"(?:is|=|gives|becomes|equals|makes|to)\s+{_MONEY}(?P<b>{_NUM})(?![\d]|\.\d|{_PCT})",
    re.IGNORECASE,
)
_FROM_TO_FIRST = re.compile(
    rf"\bfrom\s+{_MONEY}(?P<a>{_NUM})\s+to\s+{_MONEY}(?P<b>{_NUM})\s+is\s+an?\s+"
    rf"(?P<y>{_NUM}){_PCT}\s+(?P<dir>increase|decrease|rise|drop|reduction|growth)",
    re.IGNORECASE,
)
_CHANGE_FIRST = re.compile(
    rf"\ban?\s+(?P<y>{_NUM}){_PCT}\s+(?P<dir>increase|decrease|rise|drop|reduction|growth)\s+"
    rf"from\s+{_MONEY}(?P<a>{_NUM})\s+to\s+{_MONEY}(?P<b>{_NUM})(?!\d|\.\d)",
    re.IGNORECASE,
)
_UP = {"increase", "rise", "growth"}


def ratio_statements(plain: str) -> Iterator[Statement]:
    for m in _RATIO_EQUAL.finditer(plain):
        if _clock_like(plain, m) or _operand(plain, m):
            continue
        r1, r2 = _parts(m.group("r1")), _parts(m.group("r2"))
        if len(r1) != len(r2):
            continue

        def decide(r1: list[Fraction] = r1, r2: list[Fraction] = r2) -> Decision:
            return _proportional(r1, r2)

        yield _ratio(plain, m, m.group("r2"), decide)
    for m in _RATIO_SIMPLEST.finditer(plain):
        parts = _parts(m.group("r1"))
        if _clock_like(plain, m) or any(p.denominator != 1 for p in parts):
            continue

        def decide_simplest(parts: list[Fraction] = parts) -> Decision:
            g = math.gcd(*(int(p) for p in parts))
            text = ":".join(str(int(p)) for p in parts)
            if g == 1:
                return Decision(True, f"{text} has no common factor", text, text, "ratio")
            reduced = ":".join(str(int(p) // g) for p in parts)
            return Decision(
                False, f"{text} = {reduced} (common factor {g})", text, reduced, "ratio"
            )

        yield _ratio(plain, m, "in simplest form", decide_simplest)


def _ratio(plain: str, m: re.Match[str], rhs: str, decide) -> Statement:
    text = shown(plain, m.start(), m.end())
    return Statement("ratio", text, m.start(), m.end(), m.group("r1"), rhs, decide)


def _clock_like(plain: str, m: re.Match[str]) -> bool:
    if re.search(r":\s*0\d", m.group(0)):
        return True
    return bool(_TIME_WORDS.search(plain, max(0, m.start() - 60), m.end() + 40))


_OPERATOR_BEFORE = re.compile(r"(?:[-+*/\u00d7\u00f7]|\\times|\\cdot|\\div)\s*$")
_OPERATOR_AFTER = re.compile(r"\s*(?:[-+*/\u00d7\u00f7]|\\times|\\cdot|\\div)\s*\d")


def _operand(plain: str, m: re.Match[str]) -> bool:
    """A side added to or multiplied with something ("2:30 + 1:45 = 4:15", durations): a
    piece of a larger expression, not a ratio claimed equal to another."""
    return bool(
        _OPERATOR_BEFORE.search(plain, max(0, m.start() - 12), m.start())
        or _OPERATOR_AFTER.match(plain, m.end())
    )


def _parts(text: str) -> list[Fraction]:
    return [Fraction(p) for p in re.split(_COLON, text.strip())]


def _proportional(r1: list[Fraction], r2: list[Fraction]) -> Decision:
    a, b = ":".join(map(str, r1)), ":".join(map(str, r2))
    if any(x == 0 for x in r1 + r2):
        return Decision(None, "a part is zero", a, b, "ratio")
    k = r1[0] / r2[0]
    if all(x == k * y for x, y in zip(r1, r2, strict=True)):
        return Decision(True, f"{a} = {b} (factor {k})", a, b, "ratio")
    return Decision(False, f"{a} is not proportional to {b}", a, b, "ratio")


def percentage_statements(plain: str) -> Iterator[Statement]:
    for m in _APPLIED.finditer(plain):
        sign = _CHANGE_WORDS[" ".join(m.group("verb").lower().split())]
        a, y, b = _num(m.group("a")), _num(m.group("y")), _num(m.group("b"))
        digits = _decimals(m.group("b"))

        def decide(
            a: Fraction = a, y: Fraction = y, b: Fraction = b, sign: int = sign, digits=digits
        ) -> Decision:
            return _compare(a * (1 + sign * y / 100), b, digits)

        yield _percentage(plain, m, decide)
    for pattern in (_FROM_TO_FIRST, _CHANGE_FIRST):
        for m in pattern.finditer(plain):
            a, b, y = _num(m.group("a")), _num(m.group("b")), _num(m.group("y"))
            sign = 1 if m.group("dir").lower() in _UP else -1
            digits = _decimals(m.group("y"))
            if a == 0:
                continue

            def decide_change(
                a: Fraction = a, b: Fraction = b, y: Fraction = y, sign: int = sign, digits=digits
            ) -> Decision:
                change = (b - a) / a * 100 * sign  # the percentage the words claim
                return _compare(change, y, digits)

            yield _percentage(plain, m, decide_change)


def _percentage(plain: str, m: re.Match[str], decide) -> Statement:
    text = shown(plain, m.start(), m.end()).replace("\ue000", "%").replace("\ue001", "$")
    return Statement("percentage", text, m.start(), m.end(), text, "", decide)


def _num(text: str) -> Fraction:
    return Fraction(text.replace(",", ""))


def _decimals(text: str) -> int | None:
    return len(text.split(".", 1)[1]) if "." in text else None


def _compare(exact: Fraction, written: Fraction, digits: int | None) -> Decision:
    """``written`` (with ``digits`` decimals, None: a whole number) against the exact value."""
    shown_exact = str(exact) if exact.denominator == 1 else f"{exact} = {float(exact):.6g}"
    values = (shown_exact, str(written))
    if exact == written:
        return Decision(True, "equal (exact)", *values, "percentage")
    if digits is not None:
        unit = Fraction(1, 10**digits)
        truncated = Fraction(int(exact / unit)) * unit
        if abs(exact - written) <= unit / 2 or truncated == written:
            return Decision(True, f"equal at {digits} decimals", *values, "percentage")
    elif exact.denominator != 1 and abs(exact - written) < 1:
        return Decision(None, "may be rounded to a whole number", *values, "percentage")
    return Decision(False, f"{shown_exact} \u2260 {written}", *values, "percentage")
