"""Relation chains (``a = b = c``) and their sides, shared by the math and prose finders."""

from __future__ import annotations

from dataclasses import dataclass, field

from autolabel.symbolic import ast
from autolabel.symbolic.parser import Ambiguous, ParseError, parse_side
from autolabel.symbolic.tokens import CUR_MARK, LB, LP, PCT_MARK, RB, RP, Token


@dataclass
class Side:
    tokens: list[Token]
    text: str
    start: int
    end: int
    node: ast.Node | None = None
    info: ast.SideInfo | None = None
    error: str = ""
    mode: str = "math"  # how its tokens were read (tokens.tokenize), for readings.py


@dataclass
class Chain:
    sides: list[Side]
    relations: list[str]  # between consecutive sides: "=", "~"
    source: str  # "math", "prose" or "annotation"
    approximate: bool = False  # the chain has a "≈"
    notes: list[str] = field(default_factory=list)
    claim_text: str | None = None  # for made-up two-side chains: how to show the claim
    pattern: bool = False  # has "..." ("S = a + b = a^2 + b^2 = ..."): a pattern, not algebra
    kind: str | None = None  # the claim kind when the finder knows it better ("verbal")


def display(text: str) -> str:
    return text.replace(PCT_MARK, "%").replace(CUR_MARK, "$")


def make_side(tokens: list[Token], mode: str, source_text: str, offset: int = 0) -> Side:
    """Parse ``tokens`` (positions into ``source_text`` shifted by ``offset``) as one side."""
    if not tokens:
        return Side([], "", 0, 0, error="empty")
    start, end = tokens[0].start, tokens[-1].end
    text = display(source_text[start - offset : end - offset]).strip()
    side = Side(tokens, text, start, end, mode=mode)
    try:
        node, call_like = parse_side(tokens, mode)
    except Ambiguous as exc:
        side.error = f"ambiguous: {exc}"
        return side
    except ParseError as exc:
        side.error = f"not parsed: {exc}"
        return side
    except (RecursionError, ValueError, ArithmeticError) as exc:
        side.error = f"not parsed: {type(exc).__name__}"
        return side
    side.node = node
    side.info = ast.side_info(node, call_like=call_like)
    return side


def depth_split(tokens: list[Token], is_cut: object) -> list[list[Token]]:
    """Split at tokens where ``is_cut(token)`` holds, outside braces and parentheses."""
    parts: list[list[Token]] = [[]]
    depth = 0
    for tok in tokens:
        if tok.kind in (LB, LP):
            depth += 1
        elif tok.kind in (RB, RP):
            depth -= 1
        if depth <= 0 and is_cut(tok):  # type: ignore[operator]
            parts.append([])
            continue
        parts[-1].append(tok)
    return parts


def balanced(tokens: list[Token]) -> bool:
    depth = 0
    for tok in tokens:
        if tok.kind in (LB, LP):
            depth += 1
        elif tok.kind in (RB, RP):
            depth -= 1
            if depth < 0:
                return False
    return depth == 0
