"""An equation restated after an operation the text names (kind ``rearranging``, issue 25
round 10).

"Rearranging terms, we get $x^2 - 16x + 32 = 0$", "Multiply both sides by 20: $3(v + c) =
10c$", "Expanding both sides gives ...", "Simplifying the left side, we get ...": the text
says the new equation comes from the one before it by moving, collecting, expanding,
simplifying, factoring, cancelling, or adding, subtracting, multiplying or dividing both
sides by the same thing. Each of those keeps the equation: the two must be the same polynomial
equation up to a constant factor (rewriting.same_equation, as for "$A = 0$ becomes $B = 0$").
The equation before is the math segment just before the words, in the step or, where the
step opens with them, the last one of the step before.

Read only where the words name such an operation right before the new equation (at most
:data:`MAX_GAP` characters between the two); not where they bring in anything else: another
equation ("add the two equations", "subtract the first from the second", "from (1)"),
a substitution or a value ("substituting", "plug", "using", "since", "recall"), a power or a
root taken of both sides ("squaring", "square root", "cube", "log"), or an operation on one
thing that is not both sides ("subtract 3", "divide by x" without "both sides"). Both
equations must have the same letters (a substitution changes them) and be polynomial of one
degree ("divide both sides by x" changes the degree and is not read); the equation before
must not itself be a fact or a hypothesis brought in ("since $xy = 12$", "if $a = 2$"). A gap
that says "becomes", "simplifies to", ... is the rewriting kind's (rewriting.py), not this one's.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from autolabel.symbolic.chains import Chain, display
from autolabel.symbolic.compare import CONSTANT_LIKE
from autolabel.symbolic.rewriting import (
    JOIN,
    equation_sides,
    paired_runs,
    same_equation,
    symbols_of,
)
from autolabel.symbolic.rewriting import KIND as REWRITING
from autolabel.symbolic.segments import Segment, looks_like_prose, split_segments
from autolabel.symbolic.statements import Statement

KIND = "rearranging"
MAX_GAP = 90

_OPEN = r"(?:\$\$|\$|\\\(|\\\[)?\s*$"
# The operation as a verb ("rearranging", "simplified", "multiply both sides"), never a noun
# ("the second factor gives $x - 7 = 0$", "the expansion has"): a noun's equation is no
# restatement of the one before.
_CUE = re.compile(
    r"\b(?:rearrang(?:e|es|ed|ing)|rewrit(?:e|es|ten|ing)|isolat(?:e|es|ed|ing)|"
    r"factor(?:ed|ing|is(?:e|ed|ing)|iz(?:e|ed|ing))|factor\s+out|"
    r"cancel(?:s|ed|led|ing|ling)?|"
    r"clear(?:s|ed|ing)?\s+(?:the\s+)?(?:denominators?|fractions?)|cross[- ]multipl(?:y|ied|ying)|"
    r"reorganiz(?:e|ed|ing)|regroup(?:s|ed|ing)?|group(?:s|ed|ing)?\s+(?:like\s+)?terms|"
    r"transpos(?:e|ed|ing)|tak(?:e|es|ing)\s[^.]{0,20}\s+to\s+the\s+other\s+side|"
    r"put(?:s|ting)?\s+everything\s+on\s+one\s+side|simplif(?:y|ies|ied|ying)|"
    r"(?:combin|collect)(?:e|es|ed|ing|s)?\s+like\s+terms|"
    r"mov(?:e|es|ed|ing)\s+(?:all\s+|every\s+|the\s+)?terms?|bring(?:s|ing)?\s+(?:all\s+)?terms|"
    r"subtract(?:s|ed|ing)?|add(?:s|ed|ing)?|multipl(?:y|ies|ied|ying)|divid(?:e|es|ed|ing)|"
    r"expand(?:s|ed|ing)?|distribut(?:e|es|ed|ing)|complet(?:e|es|ed|ing)\s+the\s+square)"
    r"\b[^.$\\]{0,60}?(?:we\s+(?:get|have|obtain|find)|gives?|yields?|results?\s+in|becomes|:|,)?"
    r"\s*" + _OPEN,
    re.IGNORECASE,
)
# Words that bring in something besides the equation before.
_OTHER = re.compile(
    r"substitut|plug|equations?\s*\(?\d|\(\d+\)|second\s+equation|first\s+equation|"
    r"both\s+equations|two\s+equations|the\s+equations|from\s+(?:the\s+)?(?:second|first)|"
    r"squar|sqrt|root|cube|take\s+the|log|recall|using|since|given|known|we\s+know",
    re.IGNORECASE,
)
# The equation before is itself brought in as a fact or a hypothesis ("Since $xy = 12$,
# simplifying gives ..."): the words may apply to another equation.
_LEAD = re.compile(
    r"\b(?:since|using|use|given|because|if|when|where|let|suppose|assume|recall)\b"
    r"[^.:;]*$",
    re.IGNORECASE,
)
# Squares and cubes that are no operation on both sides: completing the square, expanding a
# cube ("Expand the cube and simplify: $x^3 + y^3 + 27 - 27x - \dots = 3$").
_NOT_A_POWER = re.compile(
    r"complet(?:e|es|ed|ing)\s+the\s+square|expand(?:s|ed|ing)?\s+the\s+(?:square|cube)\b",
    re.IGNORECASE,
)
_ON_BOTH = re.compile(r"subtract|\badd|multipl|divid", re.IGNORECASE)
_BOTH_SIDES = re.compile(r"\b(?:both|each)\s+sides?\b", re.IGNORECASE)


def _said(words: str) -> bool:
    """``words``, right before an equation, name an operation that keeps the equation."""
    if (
        len(words) > MAX_GAP
        or not _CUE.search(words)
        or _OTHER.search(_NOT_A_POWER.sub(" ", words))
    ):
        return False
    if JOIN.match(words):
        return False  # "becomes", "simplifies to": the rewriting kind's
    return not (_ON_BOTH.search(words) and not _BOTH_SIDES.search(words))


def _equations(prepared: str) -> list[Segment]:
    return [
        s for s in split_segments(prepared) if s.kind == "math" and not looks_like_prose(s.text)
    ]


def rearranging_statements(
    prepared: str, previous_step: Callable[[], tuple[list[Chain], str]]
) -> list[Statement]:
    segments = _equations(prepared)
    found: list[Statement] = []
    for n in range(1, len(segments)):
        first, second = segments[n - 1], segments[n]
        gap = prepared[first.offset + len(first.text) : second.offset]
        lead = prepared[max(0, first.offset - 40) : first.offset]
        if _said(gap) and not _LEAD.search(lead):
            for a, b in paired_runs(segments[:n], prepared, segments[n:], prepared):
                found.extend(_pair(a, prepared, b, prepared))
    kind = _opening(prepared[: segments[0].offset]) if segments else None
    if kind is None:
        return found
    before = previous_step()[1]
    earlier = _equations(before) if before else []
    if not earlier or _LEAD.search(before[max(0, earlier[-1].offset - 40) : earlier[-1].offset]):
        return found
    # An operation named or "which simplifies to:" after a block of equations: each equation
    # of the step before's last block becomes the one in the same place of the step's first
    # block; blocks of different lengths pair nothing.
    for first, second in paired_runs(earlier, before, segments, prepared):
        found.extend(_pair(first, before, second, prepared, kind))
    return found


def _opening(words: str) -> str | None:
    """The kind a step's opening words give its first equation against the step before's last:
    an operation named (this kind), or "which simplifies to", "This becomes" (rewriting's
    join, which within a step is rewriting.py's to read)."""
    if _said(words):
        return KIND
    if len(words) <= MAX_GAP and JOIN.match(words):
        return REWRITING
    return None


def _pair(
    first: Segment, first_text: str, second: Segment, prepared: str, kind: str = KIND
) -> list[Statement]:
    a, b = equation_sides(first, first_text), equation_sides(second, prepared)
    if a is None or b is None or len(a) != 2 or len(b) != 2:
        return []
    names = symbols_of(a)
    if not names or names != symbols_of(b) or names & CONSTANT_LIKE:
        return []
    if any(n.startswith("text:") for n in names):
        return []
    lhs = " = ".join(display(s.text) for s in a)
    rhs = " = ".join(display(s.text) for s in b)
    start, end = second.offset, second.offset + len(second.text)
    text = f"{lhs} {'rearranged as' if kind == KIND else 'becomes'} {rhs}"
    return [Statement(kind, text, start, end, lhs, rhs, lambda: same_equation(a, b, kind))]
