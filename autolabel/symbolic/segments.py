"""Split a step into math segments and prose, with pylatexenc.

Math segments are ``$...$``, ``$$...$$``, ``\\(...\\)``, ``\\[...\\]`` and math environments
(equation, align, gather, ...), found at any depth (inside ``\\textbf{...}``, lists). The rest
is prose, where plain-text arithmetic lives ("2 x 75 = 150 beans").

Dollars: LaTeX writers use ``$`` as a math delimiter and ``\\$`` for money; GSM8K-style text
uses a bare ``$`` for money. :func:`dollars_are_currency` decides per text, and currency
dollars are replaced (same length) so pylatexenc does not pair them. An unescaped ``%`` is a
LaTeX comment, which would swallow the rest of the line; it is replaced the same way.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from pylatexenc.latexwalker import (
    LatexEnvironmentNode,
    LatexMathNode,
    LatexWalker,
)

from autolabel.symbolic.tokens import CUR_MARK, PCT_MARK

MATH_ENVIRONMENTS = frozenset(
    {
        "equation",
        "equation*",
        "align",
        "align*",
        "aligned",
        "alignat",
        "alignat*",
        "gather",
        "gather*",
        "gathered",
        "multline",
        "multline*",
        "eqnarray",
        "eqnarray*",
        "split",
        "displaymath",
        "math",
        "flalign",
        "flalign*",
    }
)


@dataclass(frozen=True)
class Segment:
    kind: str  # "math" or "prose"
    text: str
    offset: int  # where ``text`` starts in the prepared step text


_UNESCAPED_DOLLAR = re.compile(r"(?<!\\)\$")
_MATH_MARK = re.compile(r"(?<!\\)\$|\\\(|\\\[|\\begin\b")
_UNESCAPED_PERCENT = re.compile(r"(?<!\\)%")
# LaTeX spacing in a formula ("x^2\\;+\\;41", "5k~+~1", "x\\,+\\,1"): only space, never a
# boundary, or "41 is prime" and "1 \\equiv 3" are read out of the formula. One inside a digit
# group ("2\\,013", "10,\\!080") is a thousands separator and stays; "~" only beside + or -
# (elsewhere, "~5" or "=~ 5", it may mean "about").
_SPACING = re.compile(r"(?<!\\)\\[;:!>, ]|(?<=\S)~(?=[+\-])|(?<=[+\-])~(?=\S)")
_DIGIT_GROUP_AFTER = re.compile(r"\d{3}(?!\d)")


def _blank_spacing(m: re.Match[str]) -> str:
    """Spaces for a spacing command, unless it sets off a digit group ("10,\\!080", "2\\,013")."""
    text, start, end = m.string, m.start(), m.end()
    if start and text[start - 1] in "0123456789," and _DIGIT_GROUP_AFTER.match(text, end):
        return m.group(0)
    return " " * (end - start)


def dollars_are_currency(text: str) -> bool:
    """True when the unescaped ``$`` signs in ``text`` are money, not math delimiters.

    A delimiter shows itself by closing something: a ``$`` right after a non-space character
    and not followed by a digit (``$x$.``, ``$\\frac12$ of``). Money dollars are followed by
    the amount (``$15 +$23=$38``).
    """
    positions = [m.start() for m in _UNESCAPED_DOLLAR.finditer(text)]
    if not positions or "$$" in text:
        return False
    for i in positions:
        before = text[i - 1] if i > 0 else " "
        after = text[i + 1 : i + 3]
        followed_by_amount = bool(re.match(r"\d|\.\d", after))
        if not before.isspace() and before not in "($" and not followed_by_amount:
            return False
        if _FORMULA_AFTER.match(text, i + 1):
            return False  # "$ a_1 = 1 $": a formula opens after it, money never does
    return True


# Right after a "$" and a space: a formula (a command, or a letter with a script or a relation
# or operator after it), which opens math; money is followed by its amount.
_FORMULA_AFTER = re.compile(r"[ \t]+(?:\\[A-Za-z]|[A-Za-z](?:[_^]|\s*[=+<>]))")


# A Markdown list item's marker at the start of a line ("- 10 = 2 * 5"): not a minus sign.
_LIST_MARKER = re.compile(r"^([ \t]*)[-*+\u2022]([ \t]+)", re.MULTILINE)


def _blank_list_marker(m: re.Match[str]) -> str:
    return m.group(1) + " " + m.group(2)


def list_markers(text: str) -> frozenset[int]:
    """Where a list item's marker stands in ``text`` (the same places in ``prepare(text)``,
    which keeps every length but blanks the markers)."""
    return frozenset(m.end(1) for m in _LIST_MARKER.finditer(text))


def prepare(text: str) -> str:
    """Replace currency ``$`` and unescaped ``%`` with same-length placeholders, a list
    item's ``-`` and LaTeX spacing in a formula (``\\;``, ``~``) with spaces."""
    text = _LIST_MARKER.sub(_blank_list_marker, text)
    text = _SPACING.sub(_blank_spacing, text)
    text = _UNESCAPED_PERCENT.sub(PCT_MARK, text)
    if dollars_are_currency(text):
        text = _UNESCAPED_DOLLAR.sub(CUR_MARK, text)
    return text


def split_segments(text: str) -> list[Segment]:
    """Math segments and prose pieces of a prepared text, in order."""
    return list(_split_segments(text))


@functools.lru_cache(maxsize=8)  # the chain and statement finders both read a step's segments
def _split_segments(text: str) -> tuple[Segment, ...]:
    return tuple(_split(text))


def _split(text: str) -> list[Segment]:
    if not _MATH_MARK.search(text):
        return [Segment("prose", text, 0)]  # no delimiters: skip the LaTeX parser
    spans: list[tuple[int, int]] = []
    try:
        nodes, _, _ = LatexWalker(text, tolerant_parsing=True).get_latex_nodes(pos=0)
        _collect_math(nodes, text, spans)
    except Exception:  # pylatexenc gave up: no math segments, dollars are not math
        return [Segment("prose", text.replace("$", " "), 0)]
    segments: list[Segment] = []
    cursor = 0
    for start, end in sorted(spans):
        if start < cursor:
            continue
        if start > cursor:
            segments.append(Segment("prose", text[cursor:start], cursor))
        segments.append(Segment("math", text[start:end], start))
        cursor = _span_end(text, start, end)
    if cursor < len(text):
        segments.append(Segment("prose", text[cursor:], cursor))
    return segments


def _span_end(text: str, start: int, end: int) -> int:
    # Skip the closing delimiter after a math body.
    for delim in ("$$", "\\]", "\\)", "$"):
        if text.startswith(delim, end):
            return end + len(delim)
    m = re.compile(r"\\end\{[^}]*\}").match(text, end)
    return m.end() if m else end


def _collect_math(nodes: list | None, text: str, spans: list[tuple[int, int]]) -> None:
    for node in nodes or []:
        if node is None:
            continue
        if isinstance(node, LatexMathNode):
            open_d, close_d = node.delimiters
            start = node.pos + len(open_d)
            end = node.pos + node.len
            if text.startswith(close_d, end - len(close_d)) and end - len(close_d) >= start:
                end -= len(close_d)
            else:
                continue  # unclosed: not a math segment we trust
            spans.append((start, end))
            continue
        if isinstance(node, LatexEnvironmentNode) and node.environmentname in MATH_ENVIRONMENTS:
            body = [n for n in node.nodelist or [] if n is not None]
            if body:
                spans.append((body[0].pos, body[-1].pos + body[-1].len))
            continue
        children = getattr(node, "nodelist", None)
        if children:
            _collect_math(children, text, spans)
        argd = getattr(node, "nodeargd", None)
        if argd is not None and getattr(argd, "argnlist", None):
            _collect_math(argd.argnlist, text, spans)


_PROSE_WORDS = re.compile(r"(?<![\\A-Za-z])[A-Za-z]{3,}\s+[A-Za-z]{3,}(?![A-Za-z])")
_TEXT_GROUP = re.compile(r"\\(?:text|mathrm|textbf|mbox|textit|operatorname)\s*\{[^{}]*\}")


def looks_like_prose(math_text: str) -> bool:
    """A "math" segment holding running words came from mispaired dollars."""
    stripped = _TEXT_GROUP.sub(" ", math_text)
    stripped = re.sub(r"\\[A-Za-z]+", " ", stripped)
    return bool(_PROSE_WORDS.search(stripped))
