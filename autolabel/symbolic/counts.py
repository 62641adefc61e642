"""Counts of listed items: "the multiples are 3, 6, 9, ..., 99. There are 33 such numbers."

A list is whole numbers after "are", "is", "were", "i.e.", "namely" or a colon, separated
by commas (and "and"), ending the sentence; the count follows at once: "There are N such
numbers", "that's N of them", "for a total of N values", and the like (a noun such as "ways"
or "pairs" may count something else and is not read; "for example", "such as", "some"
before it in its sentence mean a partial list). An explicit list is counted as
written (a repeated number reads nothing). A list with one "..." is counted when its first
three or more items follow a pattern: a constant step ("3, 6, 9, ...") or a repeating cycle
of two or three steps shown at least twice ("1, 2, 4, 5, 7, 8, ..."); every item after the
"..." must be on it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from autolabel.symbolic.compare import Decision
from autolabel.symbolic.statements import NUMBER, Statement, as_int, shown

KIND = "count"
MAX_TERMS = 100_000

_ELLIPSIS = r"(?:\.\.\.|\u2026|\\[lc]?dots)"
_ITEM = rf"(?:{NUMBER}|{_ELLIPSIS})"
_NOUN = (
    r"(?:such\s+\w+|of\s+them|(?:distinct\s+|different\s+|possible\s+)?"
    r"(?:numbers?|values?|integers?|elements?|terms?|items?|solutions?|divisors?|factors?|"
    r"multiples?|primes?|digits?|entries|members?))\b"
)
_COUNT = re.compile(
    r"(?:\bare|\bis|\bwere|\bi\.\s?e\.,?|\bnamely,?|:)\s*:?\s*"
    rf"(?P<list>{_ITEM}(?:\s*,\s*(?:and\s+)?{_ITEM})+(?:\s*,?\s*and\s+{NUMBER})?)"
    r"\s*[.;,]?\s*(?:\(|\s)*(?:so\s+|thus\s+|hence\s+|therefore\s+)?"
    r"(?:there\s+are|that(?:'s|\s+is|\s+makes|\s+gives)|this\s+(?:gives|makes)(?:\s+us)?|"
    r"we\s+have|for\s+a\s+total\s+of|a\s+total\s+of|in\s+total,?|total\s*:?)\s+"
    rf"(?P<count>{NUMBER})\s+{_NOUN}",
    re.IGNORECASE,
)


# Before the list in its sentence: it shows only some of the items.
_PARTIAL = re.compile(
    r"\b(?:for\s+example|for\s+instance|e\.\s?g\.|such\s+as|including|includes?|like|some|"
    r"a\s+few|among|first\s+few|start\s+with|starting\s+with)\b",
    re.IGNORECASE,
)


def count_statements(plain: str) -> Iterator[Statement]:
    for m in _COUNT.finditer(plain):
        sentence = max(plain.rfind(". ", 0, m.start()), plain.rfind("\n", 0, m.start()), 0)
        if _PARTIAL.search(plain, sentence, m.start("list")):
            continue
        listed = m.group("list")
        claimed = as_int(m.group("count"))

        def decide(listed: str = listed, claimed: int = claimed) -> Decision:
            return _decide(listed, claimed)

        yield Statement(
            KIND,
            shown(plain, m.start("list"), m.end()),
            m.start("list"),
            m.end(),
            " ".join(listed.split()),
            str(claimed),
            decide,
        )


def _items(listed: str) -> list[int | None]:
    """The numbers in order, None where the list has "..."."""
    out: list[int | None] = []
    for piece in re.findall(rf"{NUMBER}|{_ELLIPSIS}", listed):
        out.append(None if not piece[0].isdigit() else as_int(piece))
    return out


def _decide(listed: str, claimed: int) -> Decision:
    items = _items(listed)
    gaps = items.count(None)
    if gaps == 0:
        numbers = [x for x in items if x is not None]
        if len(set(numbers)) != len(numbers):
            return Decision(None, "a number is listed twice", listed, str(claimed), KIND)
        return _verdict(len(numbers), claimed, "listed", listed)
    if gaps > 1:
        return Decision(None, "more than one '...'", listed, str(claimed), KIND)
    cut = items.index(None)
    head = [x for x in items[:cut] if x is not None]
    tail = [x for x in items[cut + 1 :] if x is not None]
    terms = _pattern_terms(head, tail)
    if terms is None:
        return Decision(None, "no pattern we can follow to the end", listed, str(claimed), KIND)
    return _verdict(terms, claimed, "on the pattern", listed)


def _verdict(count: int, claimed: int, how: str, listed: str) -> Decision:
    reason = f"{count} numbers {how}" + ("" if count == claimed else f", not {claimed}")
    return Decision(count == claimed, reason, str(count), str(claimed), KIND)


def _pattern_terms(head: list[int], tail: list[int]) -> int | None:
    """How many terms from head[0] to tail[-1] follow the steps head shows; None if unsure."""
    if len(head) < 3 or not tail:
        return None
    steps = [b - a for a, b in zip(head, head[1:], strict=False)]
    if any(s <= 0 for s in steps) or tail != sorted(tail) or tail[0] <= head[-1]:
        return None
    cycle = None
    for period in (1, 2, 3):
        shown_twice = len(steps) >= 2 * period if period > 1 else len(steps) >= 2
        if shown_twice and all(steps[i] == steps[i % period] for i in range(len(steps))):
            cycle = steps[:period]
            break
    if cycle is None:
        return None
    terms, value, i = set(head), head[0], 0
    count = 1
    while value < tail[-1]:
        value += cycle[i % len(cycle)]
        i += 1
        count += 1
        terms.add(value)
        if count > MAX_TERMS:
            return None
    if value != tail[-1] or any(t not in terms for t in tail):
        return None
    return count
