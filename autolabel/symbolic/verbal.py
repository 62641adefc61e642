"""Equalities and operators written in words.

In prose runs (used by :mod:`prose` while it classifies words):

* ``times``, ``plus``, ``minus`` between numbers and ``divided by`` / ``multiplied by`` are
  operators ("30 times 6 is 180");
* ``is``, ``equals``, ``is equal to``, ``gives``, ``makes``, ``comes to``, ``adds up to``
  (an adverb such as "indeed" may follow) and ``, which is`` are ``=`` when the words before
  end a computation (an operator, a power, a factorial: "210 + 91 is 300") or the words after
  start a part of a whole ("12 is 25% of 48", "5 is 1/4 of 20"). A lone number on the left
  ("the answer is 5", "Day 3 is 12") is never a claim.

A chain with such a relation is ``kind="verbal"`` and its last side must end the clause: a
comparison after it ("5 + 3 is 2 less than 10", "is 3 times as many") drops that side.

Across segments (:func:`verbal_chains`):

* a math segment's last expression followed by "is" / ", which is" and a value, in prose or
  in the next math segment ("$-6 + 0 - 35$, which is $-41$"), unless a word such as "of"
  ties the expression to something before it ("the reciprocal of $\\frac56$, which is ...");
* "multiplying A by B", "dividing A by B", "adding A and B", "subtracting A from B" followed
  by "gives", "is", "we get", "I should get" and a number ("Multiplying 7 by 6, I should get
  43 inches"). A division whose stated result is a whole number is skipped (quotient and
  remainder: "dividing 60 by 8, we get 7 with a remainder of 4");
* "the absolute value of $-35$ is $70$".
"""

from __future__ import annotations

import re

from autolabel.symbolic.boundaries import object_of_words, subject_of_clause
from autolabel.symbolic.chains import Chain, Side, make_side
from autolabel.symbolic.segments import Segment
from autolabel.symbolic.tokens import (
    CMD,
    CUR,
    FACT,
    LP,
    NUM,
    OP,
    PCT,
    POW,
    PUNCT,
    REL,
    RP,
    SEP,
    SPACE,
    UNIT,
    WORD,
    Token,
    tokenize,
)
from autolabel.symbolic.units import CONNECTORS_AFTER, NOT_UNITS, normalize_unit

KIND = "verbal"

_OPERATOR_WORDS = {"times": "*", "plus": "+", "minus": "-"}
_TWO_WORD_OPERATORS = {("divided", "by"): "/", ("multiplied", "by"): "*"}


def _word_set(text: str) -> frozenset[str]:
    return frozenset(text.split())


ADVERBS = _word_set(
    "indeed exactly just undoubtedly unquestionably clearly obviously simply precisely "
    "certainly definitely surely then also still now"
)
# Relation phrases, longest first; each a tuple of words.
_RELATIONS = (
    ("is", "equal", "to"),
    ("adds", "up", "to"),
    ("comes", "to"),
    ("gives", "us"),
    ("gives", "me"),
    ("is",),
    ("equals",),
    ("gives",),
    ("makes",),
)
# Words after the value of a verbal claim that make it part of a comparison or a larger
# expression: "is 2 less than 10", "is 3 times as many", "is 7 too many".
STOP_AFTER = CONNECTORS_AFTER | _word_set(
    "more less fewer greater smaller larger bigger higher lower longer shorter than as short "
    "away apart too off out over under up down"
)
_COMPUTING = {OP, POW, FACT}
_COMPUTING_CMDS = {"frac", "dfrac", "tfrac", "sqrt", "binom", "dbinom"}
_RUN_KINDS = {NUM, OP, POW, FACT, PCT, CUR, LP, RP, UNIT, "IDENT", "LB", "RB"}


def _words(toks: list[Token], i: int, count: int) -> tuple[str, ...]:
    return tuple(t.value if t.kind == WORD else "" for t in toks[i : i + count])


def operator_word(toks: list[Token], i: int, out: list[Token]) -> tuple[Token, int] | None:
    """``times``/``plus``/``minus``/``divided by``/``multiplied by`` between two numbers."""
    tok = toks[i]
    prev = out[-1] if out else None
    if prev is None or prev.kind not in (NUM, RP, PCT, UNIT):
        return None
    for (first, second), symbol in _TWO_WORD_OPERATORS.items():
        if _words(toks, i, 2) == (first, second) and _number_at(toks, i + 2):
            end = toks[i + 1].end
            return Token(OP, tok.text, tok.start, end, symbol, space_before=tok.space_before), 2
    symbol = _OPERATOR_WORDS.get(tok.value)
    if symbol is not None and _number_at(toks, i + 1):
        return Token(OP, tok.text, tok.start, tok.end, symbol, space_before=tok.space_before), 1
    return None


def _number_at(toks: list[Token], j: int) -> bool:
    """A number starts at ``j``: ``5``, ``$5``, ``-5``, ``(5``."""
    while j < len(toks) and (
        toks[j].kind in (CUR, LP) or (toks[j].kind == OP and toks[j].value == "-")
    ):
        j += 1
    return j < len(toks) and toks[j].kind == NUM


def relation_word(toks: list[Token], i: int, out: list[Token]) -> tuple[Token, int] | None:
    """A relation phrase at ``toks[i]`` that reads as ``=``; the REL token and words used.

    ``out`` holds the classified tokens before it; ``, which is`` drops the comma from it.
    """
    start = i
    comma = False
    if toks[i].kind == WORD and toks[i].value == "which" and out and out[-1].kind == SEP:
        if out[-1].value != ",":
            return None
        comma = True
        i += 1
    phrase = next((p for p in _RELATIONS if _words(toks, i, len(p)) == p), None)
    if phrase is None:
        return None
    j = i + len(phrase)
    while j < len(toks) and toks[j].kind == WORD and toks[j].value in ADVERBS:
        j += 1
    if phrase == ("is",) and _words(toks, j, 2) == ("equal", "to"):
        j += 2
    left = out[:-1] if comma else out
    if not _number_at(toks, j):
        return None
    if not (_ends_computation(left) or _part_of_whole(toks, j)):
        return None
    if comma:
        out.pop()
    first, last = toks[start], toks[j - 1]
    text = " ".join(t.text for t in toks[start:j])
    rel = Token(REL, text, first.start, last.end, "=", space_before=first.space_before)
    return rel, j - start


def _ends_computation(out: list[Token]) -> bool:
    """The tokens before end an expression with an operator in it ("210 + 91", "2^10")."""
    if not out or out[-1].kind not in (NUM, RP, "RB", PCT, UNIT, FACT):
        return False
    k = len(out) - 1
    while k >= 0 and (
        out[k].kind in _RUN_KINDS or (out[k].kind == CMD and out[k].value in _COMPUTING_CMDS)
    ):
        k -= 1
    run = out[k + 1 :]
    if k >= 0 and out[k].kind == REL:
        return False  # "a = b is c": leave chains of relations to the '=' rules
    return any(
        (t.kind in _COMPUTING or (t.kind == CMD and t.value in _COMPUTING_CMDS))
        and not (n == 0 and t.kind == OP and t.value == "-")
        for n, t in enumerate(run)
    )


def _part_of_whole(toks: list[Token], j: int) -> bool:
    """``25% of 48`` or ``1/4 of 20`` starts at ``j``."""
    kinds = [t.kind for t in toks[j : j + 5]]
    values = [t.value for t in toks[j : j + 5]]
    if kinds[:4] == [NUM, PCT, WORD, NUM] and values[2] == "of":
        return True
    return kinds[:5] == [NUM, OP, NUM, WORD, NUM] and values[1] == "/" and values[3] == "of"


def is_verbal(rel: Token) -> bool:
    return rel.kind == REL and rel.value == "=" and rel.text != "="


def ends_clause(toks: list[Token], end: int) -> bool:
    """After a verbal claim's value: nothing that makes it a comparison or a larger sum."""
    after = toks[end] if end < len(toks) else None
    return not (after is not None and after.kind == WORD and after.value in STOP_AFTER)


# --- across segments --------------------------------------------------------------------

_NUMBER = r"-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?![\d.,]\d)"
_VALUE = (
    rf"(?P<value>{_NUMBER})(?:\s+(?P<unit>[a-z]+))?"
    r"(?=(?:\$|\\\))?\s*(?:[.,;:!?)]|$|\s+(?P<next>[a-z]+)))"
)
_AFTER_MATH = re.compile(
    r"\s*(?:,\s*which\s+|\s+)(?:is(?:\s+equal\s+to)?|equals|gives(?:\s+us)?|makes)"
    r"(?P<adverbs>(?:\s+(?:" + "|".join(sorted(ADVERBS)) + r"))*)\s+",
    re.IGNORECASE,
)
_DELIMITERS = ("$$", "\\]", "\\)", "$")
_OPENERS = ("$$", "\\[", "\\(", "$")
_VERBAL_OP = re.compile(
    r"\b(?P<verb>multiply(?:ing)?|divid(?:e|ing)|add(?:ing)?|subtract(?:ing)?)\s+"
    r"(?P<a>" + _NUMBER + r")\s+(?P<prep>by|and|to|from)\s+(?P<b>" + _NUMBER + r")\s*,?\s*"
    r"(?:(?:I|we|you)\s+(?:should\s+|will\s+|would\s+|can\s+)?(?:get|obtain|have)|"
    r"gives?(?:\s+(?:us|me))?|results?\s+in|yields?|equals?|is|makes?)"
    r"(?:\s+(?:" + "|".join(sorted(ADVERBS)) + r"))*\s+\$?" + _VALUE,
    re.IGNORECASE,
)
_REMAINDER = re.compile(r"remainder|\bR\s*\d|\brem\b|left ?over|quotient", re.IGNORECASE)


_ABSOLUTE = re.compile(
    r"\babsolute\s+value\s+of\s+(?:\$|\\\()?\s*(?P<x>-?\s*\d[\d,]*(?:\.\d+)?)\s*"
    r"(?:\$|\\\))?\s*,?\s*(?:is|equals)(?:\s+(?:" + "|".join(sorted(ADVERBS)) + r"))*\s+"
    r"(?:\$|\\\()?\s*" + _VALUE,
    re.IGNORECASE,
)


def _absolute_values(prepared: str) -> list[Chain]:
    """ "the absolute value of $-35$ is $70$"."""
    chains = []
    for m in _ABSOLUTE.finditer(prepared):
        if (m.group("next") or "").lower() in STOP_AFTER:
            continue
        inner = m.group("x").replace(" ", "").replace(",", "")
        left = _synthetic_side(f"|{inner}|", m.start("x"), m.end("x"), mode="math")
        right = _prose_value(prepared, m)
        if left.node is None or right.node is None:
            continue
        text = prepared[m.start() : right.end].replace("$", "")
        chains.append(
            Chain(sides=[left, right], relations=["="], source="prose", kind=KIND, claim_text=text)
        )
    return chains


def verbal_chains(segments: list[Segment], prepared: str) -> list[Chain]:
    chains: list[Chain] = _absolute_values(prepared)
    for n, segment in enumerate(segments):
        if segment.kind == "math":
            nxt = segments[n + 1] if n + 1 < len(segments) else None
            chain = _math_then_value(segment, nxt, prepared)
            if chain is not None:
                chains.append(chain)
        else:
            chains.extend(_verbal_operations(segment, prepared))
    return chains


def _last_expression(segment: Segment) -> list[Token]:
    """The math segment's tokens after its last top-level relation or separator."""
    tokens = [t for t in tokenize(segment.text, "math") if t.kind != SPACE]
    depth, cut = 0, 0
    for k, tok in enumerate(tokens):
        if tok.kind in ("LB", LP):
            depth += 1
        elif tok.kind in ("RB", RP):
            depth -= 1
        elif depth == 0 and tok.kind in (REL, SEP):
            cut = k + 1
    for tok in tokens:
        tok.start += segment.offset
        tok.end += segment.offset
    out = tokens[cut:]
    while out and out[-1].kind == PUNCT:
        out = out[:-1]
    return out


def _math_then_value(segment: Segment, nxt: Segment | None, prepared: str) -> Chain | None:
    end = segment.offset + len(segment.text)
    close = next((d for d in _DELIMITERS if prepared.startswith(d, end)), None)
    if close is None or nxt is None or nxt.kind != "prose":
        return None
    m = _AFTER_MATH.match(prepared, end + len(close))
    if m is None:
        return None
    if object_of_words(prepared, segment.offset):
        return None  # "the reciprocal of $\frac56$, which is", "the mean of $a$ and $b$ is"
    relative = "which" in m.group(0).lower()  # "$X$, which is": said of X itself
    if not relative and not subject_of_clause(prepared, segment.offset):
        return None  # "the number of squares that divide $10^{10}$ is 36"
    left_tokens = _last_expression(segment)
    if not left_tokens or not _ends_computation(left_tokens):
        return None
    left = make_side(left_tokens, "math", prepared)
    right = _value_side(prepared, m.end())
    if right is None or left.info is None or left.info.symbols:
        return None
    return Chain(
        sides=[left, right],
        relations=["="],
        source="math",
        kind=KIND,
        claim_text=prepared[left.start : right.end].replace("$", "").strip(),
    )


def _value_side(text: str, pos: int) -> Side | None:
    """A number (with a unit) at ``pos``, in prose or in a math segment that starts there."""
    opener = next((o for o in _OPENERS if text.startswith(o, pos)), None)
    if opener is not None:
        body_start = pos + len(opener)
        closer = {"$$": "$$", "\\[": "\\]", "\\(": "\\)", "$": "$"}[opener]
        body_end = text.find(closer, body_start)
        if body_end < 0 or body_end - body_start > 80:
            return None
        tokens = [t for t in tokenize(text[body_start:body_end], "math") if t.kind != SPACE]
        for tok in tokens:
            tok.start += body_start
            tok.end += body_start
        side = make_side(tokens, "math", text)
        after = text[body_end + len(closer) :]
    else:
        m = _VALUE_AT.match(text, pos)
        if m is None:
            return None
        side = _prose_value(text, m)
        after = text[m.end() :]
    if side.info is None or side.info.symbols or side.info.ops > 1:
        return None
    first = re.match(r"\s*([A-Za-z]+)", after)
    if first and first.group(1).lower() in STOP_AFTER:
        return None
    return side


_VALUE_AT = re.compile(_VALUE, re.IGNORECASE)


def _prose_value(text: str, m: re.Match[str], offset: int = 0) -> Side:
    """The number of a ``_VALUE`` match, with its unit word when it is one ("43 inches")."""
    start, end = m.start("value"), m.end("value")
    tokens = [t for t in tokenize(m.group("value"), "prose") if t.kind != SPACE]
    unit = m.group("unit")
    if unit and unit.lower() not in NOT_UNITS and unit.lower() not in STOP_AFTER:
        name = normalize_unit(unit)
        at = m.start("unit") - start
        tokens.append(Token(UNIT, unit, at, at + len(unit), name, space_before=True))
        end = m.end("unit")
    side = make_side(tokens, "prose", m.string[start:end])
    side.start, side.end = offset + start, offset + end
    return side


def _verbal_operations(segment: Segment, prepared: str) -> list[Chain]:
    chains = []
    for m in _VERBAL_OP.finditer(segment.text):
        verb, prep = m.group("verb").lower(), m.group("prep").lower()
        a, b = m.group("a").replace(",", ""), m.group("b").replace(",", "")
        if (m.group("next") or "").lower() in STOP_AFTER:
            continue
        if verb.startswith("multipl") and prep == "by":
            expr = f"{a} * {b}"
        elif verb.startswith("divid") and prep == "by":
            if "." not in m.group("value") and _REMAINDER.search(segment.text, m.end()):
                continue
            expr = f"{a} / {b}"
        elif verb.startswith("add") and prep in ("and", "to"):
            expr = f"{a} + {b}"
        elif verb.startswith("subtract") and prep == "from":
            expr = f"{b} - {a}"
        else:
            continue
        start = segment.offset + m.start()
        left = _synthetic_side(expr, start, segment.offset + m.end("b"))
        right = _prose_value(segment.text, m, segment.offset)
        if left.node is None or right.node is None:
            continue
        text = prepared[start : right.end]
        chains.append(
            Chain(
                sides=[left, right],
                relations=["="],
                source="prose",
                kind=KIND,
                claim_text=text.replace("$", ""),
            )
        )
    return chains


def _synthetic_side(expr: str, start: int, end: int, mode: str = "prose") -> Side:
    tokens = [t for t in tokenize(expr, mode) if t.kind != SPACE]
    side = make_side(tokens, mode, expr)
    side.start, side.end = start, end
    return side
