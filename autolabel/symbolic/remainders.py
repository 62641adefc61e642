"""Division with a remainder, decided exactly: ``a = b q + r`` with ``0 <= r < b``.

* a quotient and a remainder: "706 ÷ 7 = 101 with a remainder of 1", ``327 \\div 17 = 19
  \\text{ remainder } 8``, ``355\\div 6=58\\;\\mathrm{R}\\;5``, "2009 / 4 = 502 R 1";
* a remainder alone: "2003 divided by 3 gives a remainder of 1", "100 leaves a remainder of 0
  when divided by 20", "the remainder when 5050 is divided by 77 is 28".

This is whole-number division written out, the arithmetic a step computes, so its kind is
``arithmetic`` (the same check as "706 - 7 * 101 = -1"). Only whole numbers written out are
read (each at most 10^15, divisor at least 2); a value that starts a larger expression
("remainder of 2 + 1") reads nothing. check.py does not refute one whose sentence hedges
("if 10 leaves a remainder of 1 ..."), as for every statement; the word "remainder" does not
make the step a modular setting for these (:attr:`Statement.modular`), since the claim is
about the division itself.

The same division written as an equation, "5050 = 77 \\cdot 64 + 28" (:func:`written_out`:
the dividend first, a remainder smaller than a factor), is an equality of whole numbers even
where the step is about congruences: "=" there cannot stand for "congruent", since the
quotient is written. check.py decides it in a modular setting, where every other "=" is left
undecided.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator

from autolabel.symbolic.compare import Decision
from autolabel.symbolic.statements import CONTINUED, NUMBER, Statement, as_int, plain_view, shown

KIND = "arithmetic"
MAX_VALUE = 10**15

_GAP = r"(?:\s|\\[,;:! ]|~)*"  # spaces and LaTeX spacing commands
_DIVIDED = r"(?:÷|\\div\b|/|divided\s+by)"
# "R", "\mathrm{R}", "\text{ remainder }", "with a remainder of", ", remainder", "(remainder"
_REMAINDER_WORD = (
    r"(?:\\(?:mathrm|text|textrm|operatorname)\s*\{\s*(?:R|r|rem|remainder)\s*\}|"
    r"(?<![A-Za-z])R(?![A-Za-z])|remainder)"
)
_REMAINDER = (
    rf"[,(]?{_GAP}(?:\\text\s*\{{\s*)?(?:with\s+)?(?:a\s+)?{_REMAINDER_WORD}\s*\}}?"
    rf"{_GAP}(?:of\s+|is\s+|:\s*)?"
)
# The remainder or quotient itself: a whole number that does not start an expression.
_END = rf"(?![\d.,]\d|\s*(?:[-+*/^×÷·(]|\\(?:cdot|times|div|frac))|{CONTINUED})"
_QUOTIENT = re.compile(
    rf"(?<![-−])(?P<a>{NUMBER}){_GAP}{_DIVIDED}{_GAP}(?P<b>{NUMBER}){_GAP}={_GAP}"
    rf"(?P<q>{NUMBER}){_GAP}{_REMAINDER}(?P<r>{NUMBER}){_END}",
    re.IGNORECASE,
)
_LEAVES = (
    r"(?:gives|leaves|has|yields|produces|results\s+in)\s+(?:a\s+|the\s+)?remainder\s+"
    r"(?:of\s+)?"
)
_ONLY_REMAINDER = re.compile(
    rf"(?<![-−])(?P<a>{NUMBER}){_GAP}(?:is\s+)?divided\s+by{_GAP}(?P<b>{NUMBER}),?\s+{_LEAVES}"
    rf"(?P<r>{NUMBER}){_END}|"
    rf"(?<![-−])(?P<a2>{NUMBER}){_GAP}{_LEAVES}(?P<r2>{NUMBER})\s+when\s+(?:it\s+is\s+)?divided\s+by"
    rf"{_GAP}(?P<b2>{NUMBER}){_END}|"
    rf"the\s+remainder\s+(?:when|of){_GAP}(?P<a3>{NUMBER}){_GAP}(?:is\s+)?(?:divided\s+)?by"
    rf"{_GAP}(?P<b3>{NUMBER}),?\s+(?:is|equals|=){_GAP}(?P<r3>{NUMBER}){_END}",
    re.IGNORECASE,
)


def remainder_statements(prepared: str) -> Iterator[Statement]:
    if not re.search(r"remainder|\bR\b|\\mathrm\s*\{\s*R", prepared, re.IGNORECASE):
        return
    plain = plain_view(prepared)
    for m in _QUOTIENT.finditer(plain):
        yield from _statement(plain, m, m["a"], m["b"], m["q"], m["r"])
    for m in _ONLY_REMAINDER.finditer(plain):
        a = m["a"] or m["a2"] or m["a3"]
        b = m["b"] or m["b2"] or m["b3"]
        r = m["r"] or m["r2"] or m["r3"]
        yield from _statement(plain, m, a, b, None, r)


def _statement(
    plain: str, m: re.Match[str], a: str, b: str, q: str | None, r: str
) -> Iterator[Statement]:
    dividend, divisor, remainder = as_int(a), as_int(b), as_int(r)
    quotient = None if q is None else as_int(q)
    if divisor < 2 or max(dividend, divisor, remainder, quotient or 0) > MAX_VALUE:
        return
    lhs = f"{dividend} ÷ {divisor}"
    rhs = f"remainder {remainder}" if quotient is None else f"{quotient} R {remainder}"
    decide = functools.partial(_decide, dividend, divisor, quotient, remainder)
    yield Statement(
        KIND, shown(plain, m.start(), m.end()), m.start(), m.end(), lhs, rhs, decide, True
    )


def _decide(dividend: int, divisor: int, quotient: int | None, remainder: int) -> Decision:
    q, r = divmod(dividend, divisor)
    value = f"{q} R {r}" if quotient is not None else f"remainder {r}"
    claimed = f"{quotient} R {remainder}" if quotient is not None else f"remainder {remainder}"
    holds = r == remainder and (quotient is None or q == quotient)
    reason = f"{dividend} = {divisor} · {q} + {r}" + ("" if holds else f", not {claimed}")
    return Decision(holds, reason, value, claimed, KIND)


_TIMES = r"(?:\\cdot|\\times|×|\*|x)"
_WRITTEN_OUT = re.compile(
    rf"^\s*(\d{{1,15}})\s*=\s*\(?\s*(\d{{1,15}})\s*{_TIMES}\s*(\d{{1,15}})\s*\)?\s*\+\s*(\d{{1,15}})\s*$"
)


def written_out(claim: str) -> bool:
    """``claim`` is "n = d q + r" in whole numbers written out, with the remainder r smaller
    than a factor (a division; "7 \\cdot 1 + 3 = 3" in a modular step is a congruence)."""
    m = _WRITTEN_OUT.match(claim)
    return m is not None and int(m.group(4)) < max(int(m.group(2)), int(m.group(3)))
