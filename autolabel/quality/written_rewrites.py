"""Round 8 of the metamorphic stress (issue 25): rewrites of the kinds people actually write.

Each rewrite keeps a correct step's meaning and changes only how it is written: sides of an
equation swapped, a step numbered ("Step 3:", "1. ... 2. ..."), results in Markdown bold,
"equals" for "=", a unit or a ``\\text{}`` word after a result, a parenthetical remark after
it, "about" / "(approximately)" with a rounded decimal, an escaped ``\\$`` price, "percent" as
"%", an improper fraction as a mixed number. :data:`WRITTEN` joins
``autolabel.quality.metamorphic.REWRITES``; a rewrite returns the text unchanged where it does
not apply, so a step it cannot rewrite safely is not counted as stressed by it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction

# Math in a step as written: $$...$$, $...$ (not an escaped \$), \(...\), \[...\].
MATH = re.compile(
    r"\$\$(?P<dd>.+?)\$\$|(?<![\\$])\$(?P<d>[^$]+?)(?<!\\)\$|\\\((?P<p>.+?)\\\)|\\\[(?P<b>.+?)\\\]",
    re.DOTALL,
)
# Inline math "$...$" (not an escaped "\$", not "$$").
_INLINE = re.compile(r"(?<![\\$])\$(?!\$)([^$]+?)(?<!\\)\$(?!\$)")
# Any math region, to tell prose lines from math lines.
_ANY_MATH = re.compile(r"\$|\\\(|\\\[")
# A prose result: "= 15" ending a sentence, a clause or the line.
_PROSE_RESULT = re.compile(r"(?<![=<>!])=(\s*)(\d[\d,]*(?:\.\d+)?)(?=\s*(?:[.,;]\s|[.]?$|\n))")


def in_math(text: str, change: Callable[[str], str]) -> str:
    """``change`` applied to the inside of each math region, the rest left as it is."""

    def inner(m: re.Match[str]) -> str:
        name = next(k for k, v in m.groupdict().items() if v is not None)
        start, end = m.span(name)
        return text[m.start() : start] + change(m.group(name)) + text[end : m.end()]

    return MATH.sub(inner, text)


def top_level_sides(math: str) -> list[str]:
    """``math`` split at each "=" outside braces and brackets (not "==", "<=", "\\neq")."""
    sides, depth, start = [], 0, 0
    for i, ch in enumerate(math):
        if ch in "{([":
            depth += 1
        elif ch in "})]":
            depth -= 1
        elif ch == "=" and depth == 0 and math[i - 1 : i] not in ("<", ">", "!", "=", "\\"):
            if math[i + 1 : i + 2] == "=":
                return [math]
            sides.append(math[start:i])
            start = i + 1
    return [*sides, math[start:]]


def _prose_lines(text: str, change: Callable[[str], str]) -> str:
    """``change`` applied to each line with no math in it, none in a display spanning lines,
    and no "$" (a price and math are told apart elsewhere)."""
    spans = [m.span() for m in MATH.finditer(text)]
    out, start = [], 0
    for line in text.split("\n"):
        end = start + len(line)
        in_math = any(a < end and start < b for a, b in spans)
        out.append(line if in_math or _ANY_MATH.search(line) else change(line))
        start = end + 1
    return "\n".join(out)


def _swapped_sides(text: str) -> str:
    """An inline equation with two sides written the other way round: "$a = b$" as "$b = a$"
    (not where a side holds a relation, an alignment or text)."""

    def swap(m: re.Match[str]) -> str:
        inner = m.group(1)
        if re.search(r"[<>&]|\\(?:le|ge|ne|neq|approx|text|quad|implies|Rightarrow)", inner):
            return m.group(0)
        sides = inner.split("=")
        if len(sides) != 2 or not all(s.strip() for s in sides):
            return m.group(0)
        return f"${sides[1].strip()} = {sides[0].strip()}$"

    return _INLINE.sub(swap, text)


def _step_prefix(text: str) -> str:
    """The step numbered as models number theirs: "Step 3: ..."."""
    if re.match(r"\s*(?:#+\s*)?\**\s*step\b", text, re.IGNORECASE):
        return text
    return "Step 3: " + text


def _numbered_lines(text: str) -> str:
    """A step of several lines as a numbered list: "1. ...", "2. ..." (not where a line
    already starts with a number, a list mark or a display)."""
    lines = text.split("\n")
    filled = [line for line in lines if line.strip()]
    if (
        len(filled) < 2
        or re.search(r"\\\[|\$\$|\\begin", text)
        or any(re.match(r"\s*(?:\d|[-*+#>|]|\\\[|\$\$|\\\]|&)", line) for line in filled)
    ):
        return text
    return numbered(lines, ".")


def numbered(lines: list[str], mark: str) -> str:
    """The lines joined as a list numbered "1<mark> ", "2<mark> ", ... (blank lines kept)."""
    out, n = [], 0
    for line in lines:
        if line.strip():
            n += 1
            line = f"{n}{mark} {line.lstrip()}"
        out.append(line)
    return "\n".join(out)


def _bold_results(text: str) -> str:
    """A prose result in Markdown bold: "3 + 4 = 7." as "3 + 4 = **7**."."""
    return _prose_lines(text, lambda line: _PROSE_RESULT.sub(r"=\1**\2**", line))


def _equals_word(text: str) -> str:
    """ "=" before a prose result as the word: "3 + 4 = 7" as "3 + 4 equals 7"."""
    return _prose_lines(text, lambda line: _PROSE_RESULT.sub(r"equals\1\2", line))


def _unit_word(text: str) -> str:
    """A unit word after a prose result: "= 7." as "= 7 units."."""
    return _prose_lines(text, lambda line: _PROSE_RESULT.sub(r"=\1\2 units", line))


def _text_word(text: str) -> str:
    """A ``\\text{}`` word after a result in inline math: "$3 + 4 = 7$" as
    "$3 + 4 = 7 \\text{ apples}$"."""

    def append(m: re.Match[str]) -> str:
        inner = re.sub(r"(=\s*-?\d+(?:\.\d+)?)\s*$", r"\1 \\text{ apples}", m.group(1))
        return f"${inner}$"

    return _INLINE.sub(append, text)


def _parenthetical(text: str) -> str:
    """A remark in parentheses after a prose result: "= 7." as "= 7 (see step 2)."."""
    return _prose_lines(text, lambda line: _PROSE_RESULT.sub(r"=\1\2 (see step 2)", line, count=1))


# "= 3.14159" (a result with 3 or more decimals), in prose or math.
_DECIMAL = re.compile(r"=(\s*)(\d+\.\d{3,})(?!\d)")


def _about(text: str) -> str:
    """A long decimal result rounded to 2 places with "about": "= 3.14159" as "= about 3.14"
    in prose (math is left as it is)."""
    return _prose_lines(
        text, lambda line: _DECIMAL.sub(lambda m: f"= about {float(m.group(2)):.2f}", line)
    )


def _approximately(text: str) -> str:
    """A long decimal result rounded to 2 places and said so after it: "= 3.14159" as
    "= 3.14 (approximately)", in prose."""
    return _prose_lines(
        text,
        lambda line: _DECIMAL.sub(
            lambda m: f"={m.group(1)}{float(m.group(2)):.2f} (approximately)", line
        ),
    )


def _escaped_dollar(text: str) -> str:
    """A price in prose written with an escaped dollar, as Markdown renderers need: "$12" as
    "\\$12" (lines with no math only)."""
    return "\n".join(
        line if MATH.search(line) else re.sub(r"(?<![\\\w])\$(?=\d)", r"\\$", line)
        for line in text.split("\n")
    )


def _percent_sign(text: str) -> str:
    """ "25 percent" as "25%", in prose."""
    return _prose_lines(text, lambda line: re.sub(r"(\d) ?percent\b", r"\1%", line))


def _mixed(value: Fraction, latex: bool) -> str:
    whole, rest = divmod(value.numerator, value.denominator)
    if latex:
        return f"{whole}\\frac{{{rest}}}{{{value.denominator}}}"
    return f"{whole} {rest}/{value.denominator}"


def _mixed_numbers(text: str) -> str:
    """An improper fraction standing as a result written as a mixed number: "= \\frac{5}{2}"
    as "= 2\\frac{1}{2}" in math, "= 5/2" as "= 2 1/2" in prose."""

    def latex(m: re.Match[str]) -> str:
        value = Fraction(int(m.group(2)), int(m.group(3)))
        if value.denominator == 1 or value < 1:
            return m.group(0)
        return m.group(1) + _mixed(value, True)

    def prose(m: re.Match[str]) -> str:
        value = Fraction(int(m.group(2)), int(m.group(3)))
        if value.denominator == 1 or value < 1:
            return m.group(0)
        return m.group(1) + _mixed(value, False)

    out = re.sub(
        r"(=\s*)\\[dt]?frac\{(\d+)\}\{(\d+)\}(?=\s*(?:\$|\\\)|\\\]|[.,;]|$))",
        latex,
        text,
        flags=re.MULTILINE,
    )
    return _prose_lines(
        out,
        lambda line: re.sub(r"((?<![=<>!])=\s*)(\d+)/(\d+)(?=\s*(?:[.,;]\s|[.]?$))", prose, line),
    )


# Prose arithmetic: numbers joined by "+" or "-", "=", a number ("3 + 4 = 7").
_PROSE_SUM = re.compile(
    r"(?<![\w.,$^*/=(])(\d+(?:\s*[-+]\s*\d+)+\s*=\s*\d+)(?![\w.,]\d|\s*[-+*/^=(%]|\w)"
)


def _unit_inside(text: str) -> str:
    """A unit after each number of a prose sum: "3 + 4 = 7" as "3 kg + 4 kg = 7 kg"."""
    return _prose_lines(
        text,
        lambda line: _PROSE_SUM.sub(
            lambda m: re.sub(r"\d+", lambda n: n.group(0) + " kg", m.group(1)), line
        ),
    )


def _x_times(text: str) -> str:
    """A prose product's "*" as the letter people type: "3 * 4 = 12" as "3 x 4 = 12"."""
    return _prose_lines(text, lambda line: re.sub(r"(?<=\d) \* (?=\d)", " x ", line))


def _inline_period(text: str) -> str:
    """Inline math ended by its sentence's period inside it: "$1 + 2 = 3$." as "$1 + 2 = 3.$"."""
    return re.sub(r"(?<![\\$])\$(?!\$)([^$]+?\d)(?<!\\)\$\.", r"$\1.$", text)


def _heading(text: str) -> str:
    """A bold heading line before the step, as chat models write: "**Step 3: Compute**"."""
    return "**Step 3: Compute the total**\n" + text


def _negative_parens(text: str) -> str:
    """A negative result in parentheses: "= -2" as "= (-2)"."""
    return re.sub(r"(=\s*)(-\d+(?:\.\d+)?)(?!\d|\.\d|\s*[-+*/^(])", r"\1(\2)", text)


# Prose arithmetic with any of + - * / and one "=": "3 * 5 = 15".
_PROSE_EQUATION = re.compile(
    r"(?<![\w.,$^*/=(+\-])(\d+(?:\.\d+)?(?:\s*[-+*/]\s*\d+(?:\.\d+)?)+)\s*=\s*(\d+(?:\.\d+)?)"
    r"(?![\w.,]\d|\s*[-+*/^=(%]|\w)"
)


def _whole(m: re.Match[str]) -> bool:
    """The match is all of its expression: nothing operator-like right before it."""
    before = m.string[: m.start()].rstrip()
    return not before or before[-1] not in "+-*/=x\u00d7()"


def _prose_swapped(text: str) -> str:
    """Prose arithmetic with its result first: "3 * 5 = 15" as "15 = 3 * 5"."""

    def swap(m: re.Match[str]) -> str:
        return f"{m.group(2)} = {m.group(1)}" if _whole(m) else m.group(0)

    return _prose_lines(text, lambda line: _PROSE_EQUATION.sub(swap, line))


def _labelled(text: str) -> str:
    """Prose arithmetic after a label and a colon: "3 * 5 = 15" as "Total: 3 * 5 = 15"."""

    def label(m: re.Match[str]) -> str:
        return f"Total: {m.group(0)}" if _whole(m) else m.group(0)

    return _prose_lines(text, lambda line: _PROSE_EQUATION.sub(label, line, count=1))


WRITTEN: dict[str, Callable[[str], str]] = {
    "swapped_sides": _swapped_sides,
    "step_prefix": _step_prefix,
    "numbered_lines": _numbered_lines,
    "bold_results": _bold_results,
    "equals_word": _equals_word,
    "unit_word": _unit_word,
    "text_word": _text_word,
    "parenthetical": _parenthetical,
    "about": _about,
    "approximately": _approximately,
    "escaped_dollar": _escaped_dollar,
    "percent_sign": _percent_sign,
    "mixed_numbers": _mixed_numbers,
    "unit_inside": _unit_inside,
    "x_times": _x_times,
    "inline_period": _inline_period,
    "heading": _heading,
    "negative_parens": _negative_parens,
    "prose_swapped": _prose_swapped,
    "labelled": _labelled,
}
