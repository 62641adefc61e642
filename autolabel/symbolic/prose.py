"""Plain-text arithmetic in prose: "2 x 75 = 150 beans", "$12 + $5 = $17", "20% of 50 = 10".

Words are classified first: ``x`` between numbers is a times sign, a word right after a
number is a unit ("3 hours * 4"), ``of`` after a percentage multiplies, a single letter next
to an operator is a variable ("3p + e = 124"). A *run* is then a maximal stretch of numbers,
operators, units and ``=`` signs on one line. The sides at the two ends of a run are dropped
when the text around them may belong to the expression ("Day 1 = ...", "twice 3 + 4 = ...",
"3 hours and 20 minutes", "1 1/2", "1.636... bags", "... + 10 = 55"), because reading only
part of an expression is how a correct step gets refuted.
"""

from __future__ import annotations

import re

from autolabel.symbolic.chains import Chain, Side, balanced, make_side
from autolabel.symbolic.inequalities import ORDER, numeric_sides, relation_of
from autolabel.symbolic.segments import Segment
from autolabel.symbolic.tokens import (
    CMD,
    CUR,
    ELLIPSIS,
    FACT,
    IDENT,
    LB,
    LP,
    NUM,
    OP,
    PCT,
    POW,
    PUNCT,
    RB,
    REL,
    RP,
    SEP,
    SPACE,
    SUB,
    UNIT,
    WORD,
    Token,
    Unwrapper,
    tokenize,
)
from autolabel.symbolic.units import CONNECTORS, CONNECTORS_AFTER, NOT_UNITS, normalize_unit
from autolabel.symbolic.verbal import KIND as VERBAL
from autolabel.symbolic.verbal import ends_clause, is_verbal, relation_word
from autolabel.symbolic.verbal import operator_word as verbal_operator

_MATHY = {NUM, OP, POW, FACT, PCT, CUR, LP, RP, LB, RB, UNIT, IDENT}
_MATHY_CMDS = {"frac", "dfrac", "tfrac", "sqrt", "pi", "binom", "dbinom", "circ"}
_CLAUSE_END = {".", "?", "!", ":", ";", ","}
# Words before a lone number that start a clause rather than name it ("Day 1", "Step 2").
_CLAUSE_WORDS = frozenset(
    {"so", "thus", "then", "hence", "therefore", "and", "but", "that", "means", "since"}
)


def _significant(tokens: list[Token]) -> list[Token]:
    """Drop spaces; a line break becomes a barrier token; unwrap \\boxed{...}."""
    out: list[Token] = []
    braces = Unwrapper(("boxed", "textbf", "mathbf"))
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if tok.kind == SPACE:
            if tok.newline:
                out.append(Token(SEP, "\n", tok.start, tok.end, "\n"))
            i += 1
            continue
        if braces.opens(tokens, i):
            i += 2
            continue
        if braces.keeps(tok):
            out.append(tok)
        i += 1
    return out


def _kind(toks: list[Token], j: int) -> str | None:
    return toks[j].kind if 0 <= j < len(toks) else None


def _classify_words(toks: list[Token]) -> list[Token]:
    out: list[Token] = []
    i = 0
    while i < len(toks):
        tok = toks[i]
        if tok.kind != WORD:
            out.append(tok)
            i += 1
            continue
        w = tok.value
        prev = out[-1] if out else None
        nxt = toks[i + 1] if i + 1 < len(toks) else None
        pk = prev.kind if prev else None
        nk = nxt.kind if nxt else None
        symmetric = nxt is not None and tok.space_before == nxt.space_before  # "2 x 3", "2x3"
        verbal = verbal_operator(toks, i, out) or relation_word(toks, i, out)
        if verbal is not None:
            out.append(verbal[0])
            i += verbal[1]
            continue
        if w == "x" and pk in (NUM, UNIT, RP, PCT) and nk in (NUM, CUR, LP) and symmetric:
            out.append(Token(OP, tok.text, tok.start, tok.end, "*", space_before=tok.space_before))
        elif w == "percent" and pk == NUM:
            out.append(Token(PCT, tok.text, tok.start, tok.end, space_before=tok.space_before))
        elif w == "of" and (pk == PCT or _after_fraction(out)):
            out.append(Token(OP, tok.text, tok.start, tok.end, "of", space_before=tok.space_before))
        elif (
            w == "per" and pk == NUM and nxt is not None and nxt.kind == WORD and _unit_word(nxt)
        ):  # "$8 per share"
            unit = "/" + normalize_unit(nxt.value)
            out.append(Token(UNIT, unit, tok.start, nxt.end, unit, space_before=tok.space_before))
            i += 2
            continue
        elif _rate_after_number(out, tok):  # "$194/meter", "$6.00/plate": as "per meter"
            slash = out.pop()
            unit = "/" + normalize_unit(w)
            out.append(Token(UNIT, unit, slash.start, tok.end, unit, space_before=False))
        elif _unit_position(out) and _unit_word(tok) and len(w) > 1:
            unit, used = _unit_phrase(toks, i)
            last = toks[i + used - 1]
            out.append(Token(UNIT, unit, tok.start, last.end, unit, space_before=tok.space_before))
            i += used
            continue
        elif len(w) == 1 and w.isascii() and w.isalpha():
            attached = pk == NUM and not tok.space_before
            near_op = nk in (OP, REL, POW, RP, FACT) or (
                pk in (OP, LP, POW) and nk not in (WORD, NUM)
            )
            if attached or near_op:
                out.append(
                    Token(
                        IDENT, tok.text, tok.start, tok.end, tok.text, space_before=tok.space_before
                    )
                )
            else:
                out.append(tok)
        else:
            out.append(tok)
        i += 1
    return out


def _rate_after_number(out: list[Token], tok: Token) -> bool:
    """A unit word written right after "number/", with no space: a rate, not a division."""
    return (
        len(out) >= 2
        and out[-1].kind == OP
        and out[-1].value == "/"
        and not out[-1].space_before
        and not tok.space_before
        and out[-2].kind == NUM
        and len(tok.value) > 1
        and _unit_word(tok)
    )


def _after_fraction(out: list[Token]) -> bool:
    return (
        len(out) >= 3
        and out[-1].kind == NUM
        and out[-2].kind == OP
        and out[-2].value == "/"
        and out[-3].kind == NUM
    )


def _unit_position(out: list[Token]) -> bool:
    """Right after a number, or after one unit word that follows a number."""
    if not out:
        return False
    if out[-1].kind == NUM:
        return True
    return (
        out[-1].kind == UNIT and len(out) >= 2 and out[-2].kind == NUM and " " not in out[-1].value
    )


def _unit_word(tok: Token) -> bool:
    w = tok.value
    return (
        w not in NOT_UNITS
        and "'" not in w
        and "\u2019" not in w
        and all(ch.isalpha() or ch == "-" for ch in w)
    )


def _unit_phrase(toks: list[Token], i: int) -> tuple[str, int]:
    """A unit starting at word ``i``: "hours", "pounds/section", "cups per bag"."""
    word = toks[i].value
    nxt = toks[i + 1] if i + 1 < len(toks) else None
    nxt2 = toks[i + 2] if i + 2 < len(toks) else None
    if (
        nxt is not None
        and nxt2 is not None
        and nxt.kind == OP
        and nxt.value == "/"
        and not nxt.space_before
        and nxt2.kind == WORD
        and not nxt2.space_before
    ):
        return normalize_unit(f"{word}/{nxt2.value}"), 3
    per = nxt is not None and nxt.kind == WORD and nxt.value == "per"
    if per and nxt2 is not None and nxt2.kind == WORD and _unit_word(nxt2):
        return normalize_unit(f"{word}/{nxt2.value}"), 3
    return normalize_unit(word), 1


def _order_between_numbers(toks: list[Token], j: int) -> bool:
    """``16 > 15``: an order relation with a number on each side (not "=>" or "->")."""
    if relation_of(toks[j]) not in ORDER or j == 0 or j + 1 >= len(toks):
        return False
    prev, nxt = toks[j - 1], toks[j + 1]
    if nxt.kind == OP and nxt.value == "-" and j + 2 < len(toks):
        nxt = toks[j + 2]
    return prev.kind in (NUM, RP, UNIT, PCT) and nxt.kind in (NUM, CUR, LP)


def _runs(toks: list[Token]) -> list[tuple[int, int]]:
    runs, start = [], None
    for j, tok in enumerate(toks):
        mathy = (
            tok.kind in _MATHY
            or (tok.kind == REL and tok.value == "=")
            or (tok.kind == REL and _order_between_numbers(toks, j))
            or (tok.kind == CMD and tok.value in _MATHY_CMDS)
        )
        if mathy and start is None:
            start = j
        elif not mathy and start is not None:
            runs.append((start, j))
            start = None
    if start is not None:
        runs.append((start, len(toks)))
    return runs


def _bare(tokens: list[Token]) -> bool:
    kinds = [t.kind for t in tokens if t.kind != UNIT]
    if kinds and kinds[0] == OP and tokens[0].value == "-":
        kinds = kinds[1:]
    if kinds and kinds[0] == CUR:
        kinds = kinds[1:]
    return kinds == [NUM]


def _split_sides(run: list[Token]) -> tuple[list[list[Token]], list[str]]:
    sides: list[list[Token]] = [[]]
    relations: list[str] = []
    for tok in run:
        if tok.kind == REL:
            sides.append([])
            relations.append(relation_of(tok))
        else:
            sides[-1].append(tok)
    return sides, relations


def _trim_first(side: list[Token]) -> list[Token]:
    while side and side[0].kind == LP and not balanced(side):
        side = side[1:]
    return side


def _trim_last(side: list[Token]) -> list[Token]:
    while side and side[-1].kind == RP and not balanced(side):
        side = side[:-1]
    return side


def _first_side_ok(side: list[Token], toks: list[Token], start: int) -> bool:
    if not side or not balanced(side):
        return False
    before = toks[start - 1] if start > 0 else None
    if side[0].kind == OP:
        clause_start = before is None or (
            before.kind in (SEP, PUNCT) and before.value in _CLAUSE_END | {"\n"}
        )
        if not (side[0].value == "-" and clause_start):
            return False
    if before is None:
        return True
    if not side[0].space_before and before.kind in (WORD, NUM, IDENT, UNIT, "OTHER"):
        return False  # glued to a word: "abc+3", "x2"
    if before.kind in (ELLIPSIS, REL, "OTHER"):
        return False  # "... + 10 = 55", "11 < 30 / 11 = 11", an unknown sign
    if before.kind == SUB:
        return False  # "a_3 = 2 * 3 + 1 = 7": the number names a term (symbolic-1.11)
    if before.kind == WORD and before.value in CONNECTORS:
        return False
    if before.kind == WORD and _bare(side) and before.value not in _CLAUSE_WORDS:
        return False  # "Day 1 = ...", "Step 2 = ..." (but "So 2 hours = 120 minutes")
    if before.kind == WORD and _label_dash(side, toks, start):
        return False  # "Step 2 - 7 × 2 = 14": a label, a dash, then the computation
    if before.kind == WORD and len(before.value) == 1:
        return False  # "$3.5/gallon x 2/5": a times sign we could not place
    if before.kind == WORD and _has_range(side) and _spaced_relation(toks, start):
        return False  # "Weeks 1-2 = 96 - 70" (but "goes 0-18,000=18,000" is a subtraction)
    before2 = toks[start - 2] if start >= 2 else None
    if (
        before.kind == WORD
        and before.value in ("and", "plus", "with")
        and before2 is not None
        and before2.kind in (NUM, UNIT)
    ):
        return False  # "3 hours and 20 minutes * 2"
    k = start - 1
    while k >= 0 and start - k <= 2 and toks[k].kind == WORD:
        k -= 1
    # "$3.5/gallon x 2/5": an operator whose operand is a word
    return not (k >= 0 and k < start - 1 and toks[k].kind == OP)


def _label_dash(side: list[Token], toks: list[Token], start: int) -> bool:
    """A capitalized word opening its clause, a whole number, and a spaced "-": the number is
    the label's ("Step 2 - 7 × 2 = 14", "Day 3 - 5 + 2 = 7"), the dash a separator (round 14)."""
    before, before2 = toks[start - 1], toks[start - 2] if start >= 2 else None
    opens = before2 is None or (before2.kind in (SEP, PUNCT) and before2.value in _CLAUSE_END)
    return (
        opens
        and before.text[:1].isupper()
        and before.value not in _CLAUSE_WORDS
        and len(side) >= 3
        and side[0].kind == NUM
        and side[0].decimals is None
        and side[1].kind == OP
        and side[1].value == "-"
        and side[1].space_before
        and side[2].space_before
    )


def _spaced_relation(toks: list[Token], start: int) -> bool:
    rel = next((t for t in toks[start:] if t.kind == REL), None)
    return rel is not None and rel.space_before


def _has_range(side: list[Token]) -> bool:
    """``3-4`` written without spaces between two integers: a range or a label."""
    for a, op, b in zip(side, side[1:], side[2:], strict=False):
        if (
            a.kind == NUM
            and b.kind == NUM
            and op.kind == OP
            and op.value == "-"
            and not op.space_before
            and not b.space_before
            and a.decimals is None
            and b.decimals is None
        ):
            return True
    return False


def _last_side_ok(side: list[Token], toks: list[Token], end: int) -> bool:
    if not side or not balanced(side):
        return False
    if side[-1].kind == OP:
        return False
    after = toks[end] if end < len(toks) else None
    after2 = toks[end + 1] if end + 1 < len(toks) else None
    if after is None:
        return True
    if not after.space_before and after.kind in (WORD, NUM, IDENT, "OTHER"):
        return False  # "6th", "5x"
    if after.kind in (ELLIPSIS, REL, "OTHER"):
        return False  # "1.636... bags", "= 5 < 7", an unknown sign
    if _comma(after) and after2 is not None and re.fullmatch(r"0\d\d", after2.text):
        return False  # "90^3 = 729, 000": a thousands group after a stray space (round 14)
    if after.kind == WORD and after.value in CONNECTORS_AFTER and side[-1].kind in (NUM, PCT):
        return False  # "= 3 times as many", "= 1.5 million"
    return not (
        after.kind == WORD
        and after.value in ("and", "plus")
        and after2 is not None
        and (after2.kind == NUM or after2.value in ("a", "one", "half", "quarter"))
    )


def _comma(tok: Token | None) -> bool:
    return tok is not None and tok.kind in (SEP, PUNCT) and tok.value == ","


def _list_item(toks: list[Token], j: int, step: int) -> bool:
    """From ``toks[j]`` going back (step -1) or on (step 1) to the next comma or the clause's
    end: an item of a list (something, and no relation in it)."""
    seen = False
    while 0 <= j < len(toks) and not _comma(toks[j]):
        tok = toks[j]
        if tok.kind == REL or (tok.kind in (SEP, PUNCT) and tok.value in _CLAUSE_END):
            return False
        seen = True
        j += step
    return seen and 0 <= j < len(toks)  # another comma: a list goes on


def _between_lists(toks: list[Token], start: int, end: int) -> bool:
    """The run's "=" joins the last item of a comma list and the first of another (symbolic-1.13,
    prose lists; math_text.py reads such lists item by item in math): "3+3=6, 6+6=12" is no
    list, each of its items has a relation."""
    if start < 2 or end >= len(toks) - 1:
        return False
    if not (_comma(toks[start - 1]) and _comma(toks[end])):
        return False
    return _list_item(toks, start - 2, -1) and _list_item(toks, end + 1, 1)


def _run_together(side: list[Token]) -> bool:
    """Two expressions with no separator between them: a sign spaced from the term before
    it and attached to the number after it ("-14 = x + 2 -16 = x" is "-14 = x + 2", then
    "-16 = x")."""
    for k in range(1, len(side) - 1):
        op, after = side[k], side[k + 1]
        if (
            op.kind == OP
            and op.value in "+-"
            and op.space_before
            and not after.space_before
            and after.kind == NUM
            and side[k - 1].kind in (NUM, IDENT, RP, UNIT)
            and any(t.kind in (OP, IDENT) for t in side[: k - 1])  # "x + 2 -16", not "7 -2"
        ):
            return True
    return False


def prose_chains(segment: Segment, source_text: str) -> list[Chain]:
    tokens = tokenize(segment.text, "prose")
    for tok in tokens:
        tok.start += segment.offset
        tok.end += segment.offset
    toks = _classify_words(_significant(tokens))
    chains: list[Chain] = []
    for start, end in _runs(toks):
        run = toks[start:end]
        if not any(t.kind == REL for t in run):
            continue
        raw_sides, relations = _split_sides(run)
        if len(raw_sides) == 2 and _between_lists(toks, start, end):
            continue  # "1, 2, 4, 8, 16 = 2^0, 2^1, 2^2, 2^3, 2^4": lists, item by item
        keep: list[list[Token] | None] = list(raw_sides)
        keep[0] = _trim_first(raw_sides[0])
        if start >= 2 and _comma(toks[start - 1]) and _list_item(toks, start - 2, -1):
            keep[0] = None  # "The mean of 2, 4, 6 = 12/3 = 4": a list's last item (1.14)
        keep[-1] = _trim_last(raw_sides[-1])
        if not _first_side_ok(keep[0] or [], toks, start):
            keep[0] = None
        if not _last_side_ok(keep[-1] or [], toks, end):
            keep[-1] = None
        keep = [None if side and _run_together(side) else side for side in keep]
        verbal = any(is_verbal(t) for t in run)
        if verbal and not ends_clause(toks, end):
            keep[-1] = None  # "5 + 3 is 2 less than 10"
        sides: list[Side | None] = [make_side(s, "prose", source_text) if s else None for s in keep]
        chains.extend(_contiguous(sides, relations, VERBAL if verbal else None))
    return chains


def _contiguous(sides: list[Side | None], relations: list[str], kind: str | None) -> list[Chain]:
    """Chains made of consecutive usable sides (a dropped side breaks the chain); a chain
    with an order relation is kept only when it compares numbers."""
    chains: list[Chain] = []
    current: list[Side] = []
    links: list[str] = []
    for n, side in enumerate(sides + [None]):
        if side is not None and side.tokens:
            if current:
                links.append(relations[n - 1])
            current.append(side)
            continue
        ordered = any(r in ORDER for r in links)
        if len(current) >= 2 and (not ordered or numeric_sides(current)):
            chains.append(Chain(sides=current, relations=links, source="prose", kind=kind))
        current, links = [], []
    return chains
