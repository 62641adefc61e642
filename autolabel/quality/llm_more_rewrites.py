"""Round 14 of the metamorphic stress, continued (``llm_rewrites.py`` is near its size): more
ways LLM solutions lay out the same numbers: units after each number in math, a subtraction
as adding a negative, ``\\div`` for a fraction of two numbers, "·" in prose, a result in
``\\mathbf{}``, ``\\displaystyle`` in inline math. :data:`LLM_MORE` joins
``metamorphic.REWRITES``.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .written_rewrites import _prose_lines
from .written_rewrites import in_math as _in_math

# A numbers-only sum in math: "3 + 4 = 7" (no operator, script or digit around it).
_MATH_SUM = re.compile(
    r"(?<![\w.^_{}\\*/+\-])(\d+(?:\s*\+\s*\d+)+\s*=\s*\d+)(?![\w.^_{}]|\s*[-+*/^\\(])"
)


def _math_unit_inside(text: str) -> str:
    """A unit after each number of a sum in math: "3 + 4 = 7" as
    "3\\text{ cm} + 4\\text{ cm} = 7\\text{ cm}"."""
    return _in_math(
        text,
        lambda m: _MATH_SUM.sub(
            lambda s: re.sub(r"\d+", lambda n: n.group(0) + "\\text{ cm}", s.group(1)), m
        ),
    )


def _minus_parens(text: str) -> str:
    """A subtraction of a number as adding its negative, in math: "9 - 4" as "9 + (-4)" (not
    after an operator, a power or a script, nor before a power, a product or a fraction)."""
    return _in_math(
        text,
        lambda m: re.sub(
            r"(?<=\d) - (\d+)(?![\d.^!A-Za-z\\%]|\s*(?:[*/^(]|\\(?:times|cdot|div|frac)))",
            r" + (-\1)",
            m,
        ),
    )


def _obelus(text: str) -> str:
    """A fraction of two numbers standing alone as a division: "\\frac{12}{4}" as "(12 \\div
    4)" in math (parenthesized: a division sign binds as a product does)."""
    return _in_math(
        text,
        lambda m: re.sub(
            r"(?<![\d^_/}])\\[dt]?frac\{(\d+)\}\{(\d+)\}(?![\d^])", r"(\1 \\div \2)", m
        ),
    )


def _prose_cdot(text: str) -> str:
    """A prose product's "*" as a centred dot: "3 * 4 = 12" as "3·4 = 12"."""
    return _prose_lines(text, lambda line: re.sub(r"(?<=\d) ?\* ?(?=\d)", "\u00b7", line))


def _bold_math_result(text: str) -> str:
    """A math region's last result in bold: "$1 + 2 = 3$" as "$1 + 2 = \\mathbf{3}$"."""
    return _in_math(
        text, lambda m: re.sub(r"(=\s*)(-?\d+(?:\.\d+)?)(\s*)$", r"\1\\mathbf{\2}\3", m)
    )


def _displaystyle(text: str) -> str:
    """Inline math set in display style: "$\\frac{1}{2} = 0.5$" as "$\\displaystyle \\frac{1}{2}
    = 0.5$"."""
    return re.sub(
        r"(?<![\\$])\$(?!\$)(?=[^$]*\\frac)([^$]+?)(?<!\\)\$(?!\$)", r"$\\displaystyle \1$", text
    )


LLM_MORE: dict[str, Callable[[str], str]] = {
    "math_unit_inside": _math_unit_inside,
    "minus_parens": _minus_parens,
    "obelus": _obelus,
    "prose_cdot": _prose_cdot,
    "bold_math_result": _bold_math_result,
    "displaystyle": _displaystyle,
}
