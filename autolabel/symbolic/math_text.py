"""Relation chains inside one LaTeX math segment.

A segment is cut into lines at ``\\\\`` (``&`` dropped; a line that starts with a relation
continues the previous line's chain, as in ``a &= b \\\\ &= c``), then into chains at
separators outside groups (``,`` ``;`` ``\\quad`` ``\\Rightarrow`` ``\\text{and}`` ...), then into
sides at relations. A chain with ``\\ne``, ``\\equiv``, ``\\in`` or the like is dropped whole: its
equalities are usually conditions, not computations; so is a chain with an order relation
unless every side is a number (then it compares numbers: see :mod:`inequalities`).
"""

from __future__ import annotations

import re

from autolabel.symbolic.chains import Chain, Side, depth_split, make_side
from autolabel.symbolic.inequalities import ORDER, numeric_sides, relation_of
from autolabel.symbolic.segments import Segment
from autolabel.symbolic.tokens import (
    CMD,
    ELLIPSIS,
    LB,
    NUM,
    PUNCT,
    RB,
    REL,
    SEP,
    SPACE,
    Token,
    Unwrapper,
    tokenize,
)

_UNWRAP = {"boxed", "displaystyle", "textstyle", "scriptstyle", "fbox", "mathbf", "bm"}
_DROP_WITH_ARG = {"label", "tag", "hspace", "vspace", "phantom", "color"}
_DROP = {"nonumber", "notag", "limits", "hline", "cr"}
_ALIGN_ENVS = {"aligned", "align", "align*", "gathered", "split", "alignedat", "gather"}
_TEXT = {"text", "textrm", "mathrm", "textbf", "mbox", "textit", "mathit", "operatorname"}
_SEPARATOR_WORDS = {
    "and",
    "or",
    "so",
    "then",
    "thus",
    "hence",
    "therefore",
    "where",
    "when",
    "whence",
    "if",
    "iff",
    "since",
    "because",
    "for",
    "with",
    "which",
    "gives",
    "we get",
    "i.e.",
    "ie",
    "implies",
    "but",
    "also",
    "or equivalently",
    "as",
    "is",
    "means",
    "yields",
    "becomes",
    "so that",
    "such that",
    "and so",
    "and thus",
    "otherwise",
    "else",
    "let",
}


def _group_end(tokens: list[Token], i: int) -> int:
    """Index just past the group that starts at ``tokens[i]`` (an LB), or -1."""
    depth = 0
    for j in range(i, len(tokens)):
        if tokens[j].kind == LB:
            depth += 1
        elif tokens[j].kind == RB:
            depth -= 1
            if depth == 0:
                return j + 1
    return -1


def _group_text(tokens: list[Token], i: int, end: int) -> str:
    return "".join((" " if t.space_before else "") + t.text for t in tokens[i + 1 : end - 1])


def prepared_tokens(tokens: list[Token]) -> list[Token] | None:
    """Drop spacing and markup, unwrap \\boxed{}, mark text separators. None: skip segment."""
    out: list[Token] = []
    i = 0
    braces = Unwrapper(_UNWRAP)
    while i < len(tokens):
        tok = tokens[i]
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        if tok.kind == SPACE:
            i += 1
            continue
        if tok.kind == PUNCT and tok.value == "." and (nxt is None or nxt.kind in (SEP, SPACE)):
            i += 1  # a sentence's full stop inside the display
            continue
        if tok.kind == CMD and tok.value in ("begin", "end") and nxt is not None and nxt.kind == LB:
            end = _group_end(tokens, i + 1)
            if end < 0:
                return None
            name = _group_text(tokens, i + 1, end).strip()
            if name not in _ALIGN_ENVS:
                return None  # cases, matrices, arrays: not equalities we read
            out.append(Token(SEP, "\\\\", tok.start, tokens[end - 1].end, "\\\\"))
            i = end
            continue
        if braces.opens(tokens, i):
            i += 2
            continue
        if tok.kind == CMD and tok.value in _DROP_WITH_ARG and nxt is not None and nxt.kind == LB:
            end = _group_end(tokens, i + 1)
            i = end if end > 0 else i + 1
            continue
        if tok.kind == CMD and tok.value in _DROP:
            i += 1
            continue
        if tok.kind == CMD and tok.value in _TEXT and nxt is not None and nxt.kind == LB:
            end = _group_end(tokens, i + 1)
            if end < 0:
                return None
            content = _group_text(tokens, i + 1, end)
            words = content.strip().strip(",.;:").strip().lower()
            if not words:
                i = end
                continue
            if (
                words in _SEPARATOR_WORDS
                or any(ch in content for ch in ",;:")
                or len(words.split()) > 3
            ):
                out.append(Token(SEP, content, tok.start, tokens[end - 1].end, "text_sep"))
                i = end
                continue
            out.extend(tokens[i:end])
            i = end
            continue
        if braces.keeps(tok):
            out.append(tok)
        i += 1
    return out


def segment_tokens(segment: Segment) -> list[Token]:
    """The math segment's tokens, at their positions in the step's text."""
    tokens = tokenize(segment.text, "math")
    for tok in tokens:
        tok.start += segment.offset
        tok.end += segment.offset
    return tokens


def math_chains(segment: Segment, source_text: str) -> list[Chain]:
    prepared = prepared_tokens(segment_tokens(segment))
    if prepared is None:
        return []
    chains: list[Chain] = []
    previous_last: list[Token] | None = None
    for line in depth_split(prepared, lambda t: t.kind == SEP and t.value == "\\\\"):
        line = [t for t in line if not (t.kind == SEP and t.value == "&")]
        if not line:
            continue
        if line[0].kind == REL and previous_last:
            line = previous_last + line
        pieces = depth_split(line, lambda t: t.kind == SEP)
        for k, piece in enumerate(pieces):
            if _joins_lists(line, pieces, k):
                chains.extend(_item_chains(line, pieces, k, source_text))
                continue
            relations = [i for i, t in enumerate(piece) if t.kind == REL]
            if relations and k + 1 < len(pieces) and _group_follows(line, pieces[k + 1]):
                piece = piece[: relations[-1]]
            chain = _chain(piece, source_text)
            if chain is not None:
                chains.append(chain)
        previous_last = depth_split(pieces[-1], lambda t: t.kind == REL)[-1]
    return chains


# The kind of the claims read item by item: a reader of its own earns its −1 through the gate.
ITEM_LIST = "item_list"


def _comma_before(line: list[Token], piece: list[Token]) -> bool:
    at = next(i for i, t in enumerate(line) if t is piece[0])
    before = [t for t in line[:at] if t.kind != SPACE]
    return bool(before) and before[-1].kind == SEP and before[-1].value == ","


def _group_follows(line: list[Token], piece: list[Token]) -> bool:
    """The piece after a comma is a group of three digits led by a zero: the last side's
    thousands after a stray space ("90^3 = 729, 000"), not a list's next item (round 14)."""
    first = next((t for t in piece if t.kind != SPACE), None)
    return (
        first is not None
        and first.kind == NUM
        and re.fullmatch(r"0\d\d", first.text) is not None
        and _comma_before(line, piece)
    )


def _joins_lists(line: list[Token], pieces: list[list[Token]], k: int) -> bool:
    """Piece k's "=" joins two comma lists, item by item ("1^2, 2^2, 3^2 = 1, 4, 9"): its
    sides are a list's last item and the next list's first, no claim (symbolic-1.12)."""
    if not 0 < k < len(pieces) - 1 or not all(pieces[j] for j in (k - 1, k, k + 1)):
        return False
    if any(t.kind == REL for t in pieces[k - 1] + pieces[k + 1]):
        return False
    return _comma_before(line, pieces[k]) and _comma_before(line, pieces[k + 1])


def _items(line: list[Token], pieces: list[list[Token]], k: int, step: int) -> list[list[Token]]:
    """The comma list's items next to piece k, going back (step -1) or on (step 1)."""
    items, j = [], k + step
    while 0 <= j < len(pieces) and pieces[j] and not any(t.kind == REL for t in pieces[j]):
        if not _comma_before(line, pieces[j + 1] if step < 0 else pieces[j]):
            break
        items.append(pieces[j])
        j += step
    return items[::-1] if step < 0 else items


def _item_chains(
    line: list[Token], pieces: list[list[Token]], k: int, source_text: str
) -> list[Chain]:
    """ "a, b, c = x, y, z" read item by item (a = x, b = y, c = z, kind ITEM_LIST) when both
    lists have as many items; no claim otherwise."""
    parts = depth_split(pieces[k], lambda t: t.kind == REL)
    top = [relation_of(t) for t in top_level_relations(pieces[k])]
    if len(parts) != 2 or top != ["="]:
        return []
    left = [*_items(line, pieces, k, -1), parts[0]]
    right = [parts[1], *_items(line, pieces, k, 1)]
    if len(left) != len(right):
        return []
    chains = []
    for a, b in zip(left, right, strict=True):
        sides = [make_side(a, "math", source_text), make_side(b, "math", source_text)]
        text = f"{sides[0].text} = {sides[1].text}"
        chains.append(Chain(sides, ["="], "math", claim_text=text, kind=ITEM_LIST))
    return chains


def _chain(tokens: list[Token], source_text: str) -> Chain | None:
    relations = [t.value for t in tokens if t.kind == REL]
    if not relations:
        return None
    parts = depth_split(tokens, lambda t: t.kind == REL)
    # Relations inside groups are not cuts; count only top-level ones.
    top = [relation_of(t) for t in top_level_relations(tokens)]
    if len(top) != len(parts) - 1:
        return None
    if any(r not in ("=", "~") and r not in ORDER for r in top):
        return None  # \ne, \equiv, \in: conditions, not computations
    sides: list[Side] = [make_side(p, "math", source_text) for p in parts]
    if any(r in ORDER for r in top) and not numeric_sides(sides):
        return None  # "n > 5", "1 \le k \le 9": conditions and ranges
    return Chain(
        sides=sides,
        relations=top,
        source="math",
        approximate="~" in top,
        pattern=any(t.kind == ELLIPSIS for t in tokens),
    )


def top_level_relations(tokens: list[Token]) -> list[Token]:
    depth, found = 0, []
    for tok in tokens:
        if tok.kind in ("LB", "LP"):
            depth += 1
        elif tok.kind in ("RB", "RP"):
            depth -= 1
        elif tok.kind == REL and depth <= 0:
            found.append(tok)
    return found
