"""Refute only under every reading: a claim whose text admits several readings is false only
if it is false under each of them.

Most false refutations are misreadings: the checker reads a formula differently from its
author. Where a side's text admits more than one plausible reading, the parser marks a
*choice point* (parser.Parser.choose) and this module enumerates the readings
(:func:`side_readings`):

- ``a/bc``: ``(a/b)c`` or ``a/(bc)`` ("6/2(1+2)"); no usual reading;
- a number before a fraction: a mixed number or a product ("3\\frac12": 3.5 or 1.5); none;
- a root sign before an operator: over the number or over the rest ("√16 + 9"); none;
- ``-3^2``: ``-(3^2)`` by convention, ``(-3)^2`` as many write it; the usual one first;
- ``a + p%``: ``a + p/100``, or ``a`` increased by p percent (``a(1 + p/100)``, as price tags
  and calculators read it); the usual one first;
- a claim that the problem states word for word (:func:`quoted`): a quotation, not a result.

:func:`decide` decides a claim under every pair of its sides' readings (the claim kinds
that compare two sides share it: arithmetic, chain, percentage, order, ...): it fails only if
it fails under all of them; where a reading makes it hold, it is evidence (undecided, with
the reading named), not a refutation. A side with no usual reading (the parser's
:class:`~autolabel.symbolic.parser.Ambiguous`, once skipped) is now decided when every one of
its readings can be evaluated: it holds if it holds under all of them, fails if it fails
under all, and is undecided otherwise.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from dataclasses import replace

from autolabel.symbolic import ast
from autolabel.symbolic.chains import Side
from autolabel.symbolic.decisions import Decision
from autolabel.symbolic.evaluate import exact, show
from autolabel.symbolic.parser import NeedChoice, ParseError, parse_side
from autolabel.symbolic.tokens import PCT_MARK

MAX_READINGS = 8  # per side; a side with more is left as its usual reading (or undecided)
AMBIGUOUS = "ambiguous: "  # chains.make_side's error for a side with no usual reading


def side_readings(side: Side) -> list[Side] | None:
    """``side`` under each reading its text admits, the usual reading first where it has
    one; ``[side]`` where it admits one reading; None where some reading cannot be evaluated
    (or there are more than MAX_READINGS)."""
    if not side.tokens or (side.node is None and not side.error.startswith(AMBIGUOUS)):
        return None
    found: list[Side] = []
    pending: list[tuple[int, ...]] = [()]
    while pending:
        prefix = pending.pop()
        try:
            node, call_like = parse_side(side.tokens, side.mode, prefix)
        except NeedChoice as need:
            pending.extend(prefix + (k,) for k in reversed(range(need.options)))
            continue
        except (ParseError, RecursionError, ValueError, ArithmeticError):
            return None
        found.append(replace(side, node=node, info=ast.side_info(node, call_like=call_like)))
        if len(found) > MAX_READINGS:
            return None
    if len(found) == 1 and side.node is not None:
        return [side]
    return found


def _pairs(lefts: list[Side], rights: list[Side]) -> list[tuple[Side, Side]]:
    return [(a, b) for a in lefts for b in rights]


def decide(
    left: Side, right: Side, decide_one: Callable[[Side, Side], Decision]
) -> tuple[Decision, Side, Side] | None:
    """The claim ``left``/``right`` decided under every reading (``decide_one`` for one
    pair), and the pair of readings it is shown with; None where a side cannot be read."""
    usual = left.node is not None and right.node is not None
    if usual:
        first = decide_one(left, right)
        if first.holds is not False:
            return first, left, right  # holds or undecided as usually read: no other needed
    lefts, rights = side_readings(left), side_readings(right)
    if lefts is None or rights is None:
        if usual:  # another reading cannot be evaluated: it may be the author's
            return _undecided(first, "another reading of a side cannot be evaluated"), left, right
        return None
    pairs = _pairs(lefts, rights)
    if usual and len(pairs) == 1:
        return first, left, right
    decisions = [first if usual and n == 0 else decide_one(a, b) for n, (a, b) in enumerate(pairs)]
    shown = first if usual else decisions[0]
    a, b = pairs[0]
    if all(d.holds is False for d in decisions):
        note = f" (under each of {len(pairs)} readings)" if len(pairs) > 1 else ""
        return replace(shown, reason=shown.reason + note), a, b
    if all(d.holds is True for d in decisions):
        return replace(shown, reason=shown.reason + " (under every reading)"), a, b
    holding = next((p for p, d in zip(pairs, decisions, strict=True) if d.holds), None)
    if holding is not None:
        read = f"{_shown(holding[0])} = {_shown(holding[1])}"
        return _undecided(shown, f"holds under another reading ({read})"), a, b
    return _undecided(shown, "undecided under another reading"), a, b


def decide_sides(
    sides: list[Side], decide_one: Callable[..., Decision], limit: int = 16
) -> Decision:
    """A claim on several sides (a derivation's two equations: four sides) decided under
    every reading of each side (at most ``limit`` combinations, the usual ones first): fails
    only if it fails under each, holds only if it holds under each, else undecided (the
    decision under the usual readings, its reason naming the other reading)."""
    options = [side_readings(side) or [side] for side in sides]
    combos = itertools.islice(itertools.product(*options), limit)
    decisions = [decide_one(*combo) for combo in combos]
    first = decisions[0]
    if all(d.holds is first.holds for d in decisions):
        return first
    held = any(d.holds for d in decisions)
    reason = "holds under another reading" if held else "undecided under another reading"
    return _undecided(first, reason)


# What a claim's text keeps when compared with the problem's: no spaces, delimiters, sizing.
_NOISE = re.compile(r"\s+|\$|\\[()\[\]]|\\(?:left|right|displaystyle)\b|\\[,;!:]")


# One product sign for all ("2 \\cdot 5" in the problem is "2 \\times 5" in a step): symbolic-1.14
_TIMES = re.compile(r"\\(?:cdot|times)(?![a-zA-Z])|[*\u00d7\u00b7\u22c5]")


def _folded(text: str) -> str:
    text = _TIMES.sub("*", text.replace(PCT_MARK, "%"))
    return _NOISE.sub("", re.sub(r"\\[dt]frac", r"\\frac", text))


def quoted(claim_text: str, problem: str | None) -> bool:
    """The claim, as written, is a statement of the problem ("If $3 + 4 = 12$ in base b,
    ..."): quoted from it, not computed by the step, so read as a quotation it asserts
    nothing the step computed."""
    folded = _folded(claim_text)
    return bool(problem) and len(folded) >= 3 and folded in _folded(problem or "")


def _shown(side: Side) -> str:
    try:
        return show(exact(side.node))  # type: ignore[arg-type]
    except Exception:  # a reading's value is only shown
        return side.text


def _undecided(decision: Decision, reason: str) -> Decision:
    return Decision(None, reason, decision.lhs_value, decision.rhs_value, decision.kind)
