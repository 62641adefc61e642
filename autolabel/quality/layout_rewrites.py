"""Round 16 of the metamorphic stress (issue 25): layout and the prose around math.

How chat models lay a correct step out, beyond the notations of rounds 8 and 14: LaTeX
environments (``align*``, ``array`` with ``&=&``, ``cases``), ``\\quad \\text{and} \\quad``
between two equations, ``\\,`` around operators, a product written by juxtaposition, a display
on lines of its own; Markdown (bullets "- " and "* ", a bold "**Step 3:**" label, "1)"
lists, code spans and fences, a table row, italic results, an "**Answer:**" line, a boxed
result in a sentence); prose around the math (a remark "(since 12 > 0)", numbers that are no
claim before an equation: a time "3:45", a date, a ratio "3:4", a range "1–10", an ordinal
"2nd"; an en dash for minus, prices with cents). :data:`LAYOUT` joins
``metamorphic.REWRITES``; a rewrite returns the text unchanged where it does not apply.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Callable

from .written_rewrites import (
    _PROSE_EQUATION,
    _PROSE_RESULT,
    _prose_lines,
    _whole,
    numbered,
    top_level_sides,
)
from .written_rewrites import MATH as _MATH
from .written_rewrites import in_math as _in_math

# A display: \[ ... \] or $$ ... $$.
_DISPLAY = re.compile(r"\\\[(.+?)\\\]|\$\$(.+?)\$\$", re.DOTALL)
# Inline math "$...$" (not "$$", not an escaped "\$").
_INLINE = re.compile(r"(?<![\\$])\$(?!\$)([^$]+?)(?<!\\)\$(?!\$)")
# An equation fit to be laid out again: one "=" chain, no text, alignment or relation in it.
_PLAIN_SIDE = re.compile(r"[^&<>]*")


def _chain(math: str, least: int) -> list[str] | None:
    """The sides of ``math`` (at least ``least``), or None where it is not a plain chain."""
    if re.search(r"\\(?:begin|text|quad|Rightarrow|implies|le|ge|ne|approx|pm)|\\\\|&", math):
        return None
    sides = [s.strip() for s in top_level_sides(math)]
    if len(sides) < least or not all(sides) or not all(_PLAIN_SIDE.fullmatch(s) for s in sides):
        return None
    return sides


def _display_change(layout: Callable[[list[str]], str]) -> Callable[[str], str]:
    """Each display chain of three or more sides laid out by ``layout`` (its delimiters too)."""

    def change(m: re.Match[str]) -> str:
        inner = m.group(1) if m.group(1) is not None else m.group(2)
        trail = re.search(r"[.,]\s*$", inner)
        body = inner[: trail.start()] if trail else inner
        sides = _chain(body, 3)
        return m.group(0) if sides is None else layout(sides) + (trail.group(0) if trail else "")

    return lambda text: _DISPLAY.sub(change, text)


def _align_star(sides: list[str]) -> str:
    """``\\begin{align*} a &= b \\\\ &= c \\end{align*}`` with no math delimiters around."""
    return (
        "\\begin{align*}\n" + f"{sides[0]} &= " + " \\\\\n&= ".join(sides[1:]) + "\n\\end{align*}"
    )


def _array(sides: list[str]) -> str:
    """``\\[\\begin{array}{rcl} a &=& b \\\\ &=& c \\end{array}\\]``."""
    rows = [f"{sides[0]} &=& {sides[1]}"] + [f"&=& {side}" for side in sides[2:]]
    return "\\[\\begin{array}{rcl}\n" + " \\\\\n".join(rows) + "\n\\end{array}\\]"


# Two inline equations joined by "and": "$x = 2$ and $y = 3$".
_PAIR = re.compile(r"(?<![\\$])\$([^$]+?)\$( and |, and )\$([^$]+?)(?<!\\)\$(?!\$)")


def _pair_change(join: Callable[[str, str], str]) -> Callable[[str], str]:
    def change(m: re.Match[str]) -> str:
        first, second = m.group(1).strip(), m.group(3).strip()
        if _chain(first, 2) is None or _chain(second, 2) is None:
            return m.group(0)
        return "$" + join(first, second) + "$"

    return lambda text: _PAIR.sub(change, text)


def _quad_and(first: str, second: str) -> str:
    return f"{first} \\quad \\text{{and}} \\quad {second}"


def _cases(first: str, second: str) -> str:
    return f"\\begin{{cases}} {first} \\\\ {second} \\end{{cases}}"


def _thin_space(text: str) -> str:
    """``\\,`` around "=", "+", ``\\times`` and ``\\cdot`` in math."""
    return _in_math(
        text,
        lambda m: re.sub(
            r"\s*(?<![<>!\\])(=|\+|\\times(?![a-z])|\\cdot(?![a-z]))(?!=)\s*", r"\\,\1\\,", m
        ),
    )


def _juxtapose(text: str) -> str:
    """A product by juxtaposition in math: "3 \\cdot x" as "3x", ")\\cdot(" as ")("."""

    def change(m: str) -> str:
        m = re.sub(
            r"(?<![\d.^_{])(\d+)\s*\\(?:cdot|times)(?![a-z])\s*(?=[a-zA-Z](?![a-zA-Z]))", r"\1", m
        )
        return re.sub(r"\)\s*\\(?:cdot|times)(?![a-z])\s*\(", ")(", m)

    return _in_math(text, change)


# Two or more displays in a row, nothing but space or punctuation between them.
_DISPLAY_RUN = re.compile(r"\\\[(?:(?!\\\]).)+?\\\](?:[\s,.;]*\\\[(?:(?!\\\]).)+?\\\])+", re.DOTALL)


def _displays_joined(env: str) -> Callable[[str], str]:
    """Displays of one equation each in a row, as the rows of one ``env`` (``align*``: no
    delimiters, "&=" aligned; ``cases``: in ``\\[ \\]``)."""

    def change(m: re.Match[str]) -> str:
        rows = []
        for inner in re.findall(r"\\\[(.+?)\\\]", m.group(0), re.DOTALL):
            inner = re.sub(r"[.,]\s*$", "", inner.strip())
            sides = _chain(inner, 2)
            if sides is None or len(sides) != 2:
                return m.group(0)
            rows.append(sides)
        if env == "align*":
            body = " \\\\\n".join(f"{a} &= {b}" for a, b in rows)
            return f"\\begin{{align*}}\n{body}\n\\end{{align*}}"
        body = " \\\\\n".join(f"{a} = {b}" for a, b in rows)
        return f"\\[\\begin{{{env}}}\n{body}\n\\end{{{env}}}\\]"

    return lambda text: _DISPLAY_RUN.sub(change, text)


def _display_inline(text: str) -> str:
    """A display of one equation ``\\[ a = b \\]`` written inline as ``$a = b$``."""

    def change(m: re.Match[str]) -> str:
        inner = m.group(1).strip()
        return m.group(0) if _chain(inner, 2) is None else f" ${inner}$ "

    return re.sub(r"\\\[(.+?)\\\]", change, text, flags=re.DOTALL)


def _display_lines(text: str) -> str:
    """An inline equation ending a sentence set as a display on lines of its own: "so
    $a = b$." as "so\\n$$\\na = b\\n$$"."""

    def change(m: re.Match[str]) -> str:
        return m.group(0) if _chain(m.group(1), 2) is None else f"\n$$\n{m.group(1).strip()}\n$$\n"

    return re.sub(r"(?<![\\$])\$(?!\$)([^$]+?)(?<!\\)\$(?!\$)\.?(?=\s|$)", change, text)


def _list_ready(text: str) -> bool:
    """A step that a list mark can open each line of: no display spanning lines, no line that
    already opens with a mark, a number or an alignment."""
    lines = [line for line in text.split("\n") if line.strip()]
    return bool(lines) and not (
        re.search(r"\\\[|\$\$|\\begin", text)
        or any(re.match(r"\s*(?:[-*+#>|&]|\d+[.)]|\\\]|\\\[)", line) for line in lines)
    )


def _bullets(mark: str) -> Callable[[str], str]:
    """Each line of a step as a Markdown bullet: "- 3 + 4 = 7" ("- " or "* ")."""

    def rewrite(text: str) -> str:
        if not _list_ready(text):
            return text
        return "\n".join(
            mark + line.lstrip() if line.strip() else line for line in text.split("\n")
        )

    return rewrite


def _numbered_paren(text: str) -> str:
    """A step of several lines as a list numbered "1)", "2)", ..."""
    lines = text.split("\n")
    if len([line for line in lines if line.strip()]) < 2 or not _list_ready(text):
        return text
    return numbered(lines, ")")


def _bold_label(text: str) -> str:
    """A bold label opening the step: "**Step 3:** ..."."""
    if re.match(r"\s*(?:#+\s*)?\**\s*step\b", text, re.IGNORECASE):
        return text
    return "**Step 3:** " + text.lstrip()


def _code_spans(text: str) -> str:
    """Plain arithmetic as a code span: "$3 + 4 = 7$" and prose "3 + 4 = 7" as "`3 + 4 = 7`"."""
    if "\\$" in text or "`" in text:
        return text
    out = re.sub(r"(?<![\\$])\$([\d\s+\-*/=.,()]+=[\d\s+\-*/=.,()]+)(?<!\\)\$(?!\d)", r"`\1`", text)
    if out != text:
        return out

    def span(m: re.Match[str]) -> str:
        return f"`{m.group(0)}`" if _whole(m) else m.group(0)

    return _prose_lines(text, lambda line: _PROSE_EQUATION.sub(span, line))


def _code_fence(text: str) -> str:
    """A step of prose arithmetic and no math in a fenced code block."""
    if _MATH.search(text) or "$" in text or "`" in text or not _PROSE_EQUATION.search(text):
        return text
    return "```\n" + text.strip() + "\n```"


def _table_rows(text: str) -> str:
    """Each prose line with an equation as a row of a Markdown table under a header."""
    found = []

    def row(line: str) -> str:
        m = _PROSE_EQUATION.search(line)
        if not m or not _whole(m) or "|" in line:
            return line
        header = "" if found else "| Item | Calculation |\n|---|---|\n"
        found.append(line)
        head = line[: m.start()].strip(" :-") or "Calculation"
        return f"{header}| {head} | {line[m.start() :].strip()} |"

    return _prose_lines(text, row)


def _italic_results(text: str) -> str:
    """A prose result in Markdown italics: "= 7." as "= *7*."."""
    return _prose_lines(text, lambda line: _PROSE_RESULT.sub(r"=\1*\2*", line))


# The last whole-number result of a step, in prose or math: "= 12" at a sentence's end.
_LAST_RESULT = re.compile(r"=\s*(\d+)(?:\s*\$|\s*\\\)|\s*\\\])?\s*[.]?\s*$")


def _answer_line(text: str) -> str:
    """A step ending with a result "= 12" given an "**Answer:** 12" line after it."""
    m = _LAST_RESULT.search(text)
    return text if not m else text.rstrip() + f"\n\n**Answer:** {m.group(1)}"


def _boxed_sentence(text: str) -> str:
    """A step ending with a result "= 12" followed by "So the result is $\\boxed{12}$."."""
    m = _LAST_RESULT.search(text)
    return text if not m else text.rstrip() + f" So the result is $\\boxed{{{m.group(1)}}}$."


def _since_remark(text: str) -> str:
    """A remark about a positive prose result: "= 7." as "= 7 (since 7 > 0)."."""

    def remark(m: re.Match[str]) -> str:
        if not re.search(r"[1-9]", m.group(2)):  # "0 > 0" is false
            return m.group(0)
        return f"={m.group(1)}{m.group(2)} (since {m.group(2)} > 0)"

    return _prose_lines(text, lambda line: _PROSE_RESULT.sub(remark, line, count=1))


# Numbers that are no claim, as prose puts them before an equation.
_CONTEXTS = (
    "At 3:45 pm, ",
    "On 2024-03-15, ",
    "With the ratio 3:4 in mind, ",
    "For days 1\u201310, ",
    "For the 2nd part, ",
    "On 12/25, ",
)


def _context(text: str) -> str:
    """A phrase with numbers that claim nothing (a time, a date, a ratio, a range, an
    ordinal; chosen by the text) before the step's first prose equation."""
    prefix = _CONTEXTS[zlib.crc32(text.encode()) % len(_CONTEXTS)]
    done = []

    def put(line: str) -> str:
        for m in _PROSE_EQUATION.finditer(line):
            opens = re.search(r"(?:^|[.:;!?]\s+)$", line[: m.start()])
            if not done and _whole(m) and opens:
                done.append(1)
                return line[: m.start()] + prefix + line[m.start() :]
        return line

    return _prose_lines(text, put)


def _en_dash_minus(text: str) -> str:
    """A minus in prose arithmetic typed as an en dash: "10 - 4 = 6" as "10 – 4 = 6"."""
    return _prose_lines(
        text, lambda line: re.sub(r"(?<=\d) - (?=\d[\d.]*\s*(?:[-+*/=]|$))", " \u2013 ", line)
    )


def _cents(text: str) -> str:
    """Whole prices with cents, grouped: "$1200" as "$1,200.00" (lines with no math)."""
    if re.search(r"\\[(\[]|\$(?!\d)", text):  # math, or a "$" that is no price
        return text
    return re.sub(r"(?<![\\\w])\$(\d+)(?![\d.,]\d|\d)", lambda m: f"${int(m.group(1)):,}.00", text)


LAYOUT: dict[str, Callable[[str], str]] = {
    "align_star": _display_change(_align_star),
    "array_rcl": _display_change(_array),
    "quad_and": _pair_change(_quad_and),
    "cases_pair": _pair_change(_cases),
    "thin_space": _thin_space,
    "juxtapose": _juxtapose,
    "display_lines": _display_lines,
    "displays_align": _displays_joined("align*"),
    "displays_gathered": _displays_joined("gathered"),
    "display_inline": _display_inline,
    "dash_bullets": _bullets("- "),
    "star_bullets": _bullets("* "),
    "numbered_paren": _numbered_paren,
    "bold_label": _bold_label,
    "code_spans": _code_spans,
    "code_fence": _code_fence,
    "table_rows": _table_rows,
    "italic_results": _italic_results,
    "answer_line": _answer_line,
    "boxed_sentence": _boxed_sentence,
    "since_remark": _since_remark,
    "context_numbers": _context,
    "en_dash_minus": _en_dash_minus,
    "cents": _cents,
}
