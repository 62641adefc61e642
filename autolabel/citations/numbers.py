"""Numbers as written in prose and in table cells, and whether a stated number is a cell's.

A stated number matches a cell when, after reading currency signs, thousands separators,
accounting negatives "(181)", percent signs and scale words (thousand, million, billion, k,
m, bn), the two are equal up to the precision the step wrote (637.4 matches 637.43; 0.56
matches 0.56197; 56% matches 0.56 and 56), in absolute value (a "loss of 181" states the
cell -181), or a power of 1000 apart when the step names a scale (44.6 million, a cell of
44,572 in thousands).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

_NUM = re.compile(
    r"(?P<neg>[-−]\s?)?(?P<cur>[$€£¥]\s?)?(?P<paren>\(\s?)?"
    r"(?P<digits>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)"
    r"(?P<close>\s?\))?"
    r"(?:\s?(?P<pct>%|percent\b|per cent\b))?"
    r"(?:\s?(?P<scale>thousand|million|billion|trillion|bn|mn|k|m|b)\b)?",
    re.I,
)
_SCALES = {
    "thousand": 3,
    "k": 3,
    "million": 6,
    "mn": 6,
    "m": 6,
    "billion": 9,
    "bn": 9,
    "b": 9,
    "trillion": 12,
}
# A number right after these is what the step computed, not what it took from a source.
_RESULT_BEFORE = re.compile(r"(?:=|≈|~|is about|gives|equals)\s*$", re.I)


@dataclass(frozen=True)
class Number:
    value: Decimal
    decimals: int  # digits after the decimal point, as written
    percent: bool
    scale: int  # power of ten of a scale word, 0 when none
    text: str
    start: int
    end: int
    result: bool = False  # written right after "=" (a computed value)


def parse_numbers(text: str) -> list[Number]:
    out = []
    for m in _NUM.finditer(text):
        digits = m.group("digits")
        before = text[max(0, m.start() - 1) : m.start()]
        if before and (before.isalpha() or before == "_"):
            continue  # part of a word: "Q3", "h2o"
        try:
            value = Decimal(digits.replace(",", ""))
        except InvalidOperation:
            continue
        negative = bool(m.group("neg")) or bool(m.group("paren") and m.group("close"))
        scale_word = (m.group("scale") or "").lower()
        decimals = len(digits.split(".", 1)[1]) if "." in digits else 0
        out.append(
            Number(
                value=-value if negative else value,
                decimals=decimals,
                percent=bool(m.group("pct")),
                scale=_SCALES.get(scale_word, 0),
                text=m.group(0).strip(),
                start=m.start(),
                end=m.end(),
                result=bool(_RESULT_BEFORE.search(text[max(0, m.start() - 12) : m.start()])),
            )
        )
    return out


def cell_numbers(cell: object) -> list[Number]:
    """The numbers a table cell holds ("$ 2,457", "5.0", "12.5%"; "9 (4.3%)" holds two; in
    FinQA's "$ -181 ( 181 )" the second is the first's accounting form)."""
    if isinstance(cell, bool) or cell is None:
        return []
    return parse_numbers(str(cell))


def _forms(n: Number, *, stated: bool) -> list[tuple[Decimal, Decimal]]:
    """(value, scale of its precision) for each way the number may be read."""
    one, hundred = Decimal(1), Decimal(100)
    forms = [(n.value, one), (abs(n.value), one)]
    if n.percent:
        forms += [(v / hundred, one / hundred) for v, _ in forms]
    elif not stated:
        forms += [(v * hundred, hundred) for v, _ in forms]  # a cell 0.56 stated as "56%"
    return forms


def matches(stated: Number, cell: Number) -> bool:
    """Does the step's number state this cell's value (see the module's docstring)?"""
    tolerance = Decimal(5) * Decimal(10) ** -(stated.decimals + 1)
    scales = [0] if not stated.scale else [0, *(stated.scale - k for k in (0, 3, 6, 9, 12))]
    for s, precision in _forms(stated, stated=True):
        for c, _ in _forms(cell, stated=False):
            for k in scales:
                step = Decimal(10) ** k
                if abs(s * step - c) <= tolerance * precision * step + Decimal("1e-9"):
                    return True
    return False


def near(stated: Number, cell: Number) -> bool:
    """The same size as the cell but not it (within a factor of 2, or its digits
    transposed): a number the step most likely meant to copy from the cell."""
    a, b = abs(stated.value), abs(cell.value)
    if a == 0 or b == 0:
        return False
    if Decimal("0.5") <= a / b <= 2:
        return True
    digits_a = sorted(ch for ch in stated.text if ch.isdigit())
    return len(digits_a) > 2 and digits_a == sorted(ch for ch in cell.text if ch.isdigit())
