"""Round 14 of the metamorphic stress (issue 25): how LLM solutions write math.

Qwen, Llama, DeepSeek and GPT solutions write the same mathematics in many notations that the
earlier rounds (``metamorphic.py``, ``written_rewrites.py``) did not cover: Unicode signs in
math (``−``, ``×``, ``·``, ``≤``, ``π``, ``√``, ``²``, ``°``, ``≡``), LaTeX written as plain text
("(1)/(2) × 3^2", "sqrt(16)"), ``**`` for powers, thousands as ``1{,}000`` or "1 000", large
numbers as ``1.5 \\times 10^{4}``, a decimal result restated as a percent (``= 0.25 = 25\\%``),
a chain's middle link rounded at a stated precision (``\\approx 0.33``), words in ``\\text{}``
between a chain's links, ``aligned`` displays, ``{n \\choose k}`` and ``C(n, k)``, ``=\\!``,
a product written ``3(4)``, a restated value tagged "(given)", assignments written bare ("so
x = 2, y = 3"). :data:`LLM_STYLE` joins ``metamorphic.REWRITES``; a rewrite returns the text
unchanged where it does not apply or could change the meaning.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from decimal import Decimal

from .written_rewrites import _prose_lines, top_level_sides
from .written_rewrites import in_math as _in_math

# Inline math "$...$" (not an escaped "\$", not "$$").
_INLINE = re.compile(r"(?<![\\$])\$(?!\$)([^$]+?)(?<!\\)\$(?!\$)")
# A "$" that may be a price ("$12 each", "\$5"): math is not unwrapped where one is.
_PRICE = re.compile(r"\\\$|(?<![\\\w$])\$\d[\d,.]*(?:\s|$)")


def _unicode_minus(text: str) -> str:
    """A minus sign as U+2212: " - 3" and "(-3" as " − 3" and "(−3" (not a hyphen in a word,
    not a range "2-3", not a Markdown list mark at a line's start)."""
    out = re.sub(r"(?<=[\w)}]) - (?=[\w(\\])", " \u2212 ", text)
    return re.sub(r"(?<=[(=\s])-(?=\d)(?<!^-)", "\u2212", out, flags=re.MULTILINE)


def _unicode_products(text: str) -> str:
    """In math, ``\\times`` as "×" and ``\\cdot`` as "·"."""
    return _in_math(
        text,
        lambda m: re.sub(
            r"\\cdot(?![a-z])\s*", "\u00b7 ", re.sub(r"\\times(?![a-z])\s*", "\u00d7 ", m)
        ),
    )


_SYMBOLS = {
    "le": "\u2264",
    "leq": "\u2264",
    "ge": "\u2265",
    "geq": "\u2265",
    "neq": "\u2260",
    "ne": "\u2260",
    "pi": "\u03c0",
    "approx": "\u2248",
    "equiv": "\u2261",
}


def _unicode_symbols(text: str) -> str:
    """In math, ``\\le``, ``\\neq``, ``\\pi``, ``\\approx``, ``\\equiv`` as their Unicode signs, and
    ``\\sqrt{16}`` as "√16" (``\\sqrt{a + b}`` as "√(a + b)")."""

    def change(m: str) -> str:
        m = re.sub(
            r"\\(" + "|".join(sorted(_SYMBOLS, key=len, reverse=True)) + r")(?![a-zA-Z])\s*",
            lambda n: _SYMBOLS[n.group(1)] + " ",
            m,
        )
        m = re.sub(r"\\sqrt\{(\d+)\}", "\u221a\\1", m)
        return re.sub(r"\\sqrt\{([^{}]+)\}", "\u221a(\\1)", m)

    return _in_math(text, change)


_SUPERSCRIPTS = str.maketrans(
    "0123456789", "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079"
)


def _superscripts(text: str) -> str:
    """A one-digit exponent as a Unicode superscript: "3^2", "3^{2}" as "3²"."""
    return re.sub(r"\^\{?(\d)\}?(?![\d}])", lambda m: m.group(1).translate(_SUPERSCRIPTS), text)


def _degree_sign(text: str) -> str:
    """``^\\circ`` and ``^{\\circ}`` as "°"."""
    return re.sub(r"\^\s*\{?\\circ\}?", "\u00b0", text)


def _congruence_plain(text: str) -> str:
    """``\\equiv`` as "≡" and ``\\pmod{n}`` as "(mod n)"."""
    out = re.sub(r"\\equiv(?![a-z])\s*", "\u2261 ", text)
    return re.sub(r"\\pmod\s*\{([^{}]+)\}", r"(\\text{mod } \1)", out)


def _double_star(text: str) -> str:
    """A power in prose as code writes it: "3^2" as "3 ** 2" (lines with no math)."""
    return _prose_lines(text, lambda line: re.sub(r"(?<=[\d)])\^(?=\(?\d)", " ** ", line))


# LaTeX that reads the same as plain text, in the order it is undone.
_PLAIN = [
    (re.compile(r"\\left|\\right"), ""),
    (re.compile(r"\\[dt]?frac\{(\d+)\}\{(\d+)\}"), r"(\1/\2)"),
    (re.compile(r"\\[dt]?frac\{([^{}]+)\}\{([^{}]+)\}"), r"((\1)/(\2))"),
    (re.compile(r"\\sqrt\{([^{}]+)\}"), r"sqrt(\1)"),
    (re.compile(r"\^\{([^{}]+)\}"), r"^(\1)"),
    (re.compile(r"\\times(?![a-z])"), "\u00d7"),
    (re.compile(r"\\cdot(?![a-z])"), "*"),
    (re.compile(r"\\div(?![a-z])"), "\u00f7"),
    (re.compile(r"\\%"), "%"),
    (re.compile(r"\\[,;!]"), " "),
]


def _plain_text(text: str) -> str:
    """Inline math written as plain text, as chat models write it without LaTeX:
    "$\\frac{3}{4} \\times 2^{10}$" as "(3/4) × 2^(10)" (only where nothing LaTeX is left,
    in lines with no "\\$" price)."""
    if _PRICE.search(text):
        return text

    def plain(m: re.Match[str]) -> str:
        inner = m.group(1)
        if re.search(r"\d\s*\\[dt]?frac", inner):
            return m.group(0)  # "2\frac{3}{4}" is a mixed number, "2(3/4)" a product
        for _ in range(3):
            for pattern, repl in _PLAIN:
                inner = pattern.sub(repl, inner)
        if re.search(r"[\\{}]", inner) or not re.search(r"\d", inner):
            return m.group(0)
        return re.sub(r"\s+", " ", inner).strip()

    return _INLINE.sub(plain, text)


_PLAIN_INT = re.compile(r"(?<![\d.,^_{#A-Za-z\\])(\d{4,9})(?![\d.,_}]|\^)")


def _brace_thousands(text: str) -> str:
    """Thousands in math grouped as TeX needs: "12345" as "12{,}345"."""
    return _in_math(
        text, lambda m: _PLAIN_INT.sub(lambda n: f"{int(n.group(1)):,}".replace(",", "{,}"), m)
    )


def _space_thousands(text: str) -> str:
    """Thousands in prose grouped by a space, as SI writes them: "12345" as "12 345"."""
    return _prose_lines(
        text,
        lambda line: _PLAIN_INT.sub(lambda n: f"{int(n.group(1)):,}".replace(",", " "), line),
    )


# A result that closes a math region: "= 15000".
_MATH_RESULT = re.compile(r"(=\s*)(\d+(?:\.\d+)?)(\s*)$")


def _scientific(value: str) -> str | None:
    digits = value.rstrip("0")
    zeros = len(value) - len(digits)
    if "." in value or len(value) < 4 or zeros < 2:
        return None
    exponent = len(value) - 1
    mantissa = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
    return f"{mantissa} \\times 10^{{{exponent}}}"


def _times_ten(text: str) -> str:
    """A round result of 4 or more digits in scientific notation: "= 15000" as
    "= 1.5 \\times 10^{4}" (in math)."""

    def change(m: str) -> str:
        r = _MATH_RESULT.search(m)
        if not r or (new := _scientific(r.group(2))) is None:
            return m
        return m[: r.start(2)] + new + r.group(3)

    return _in_math(text, change)


def _percent_link(text: str) -> str:
    """A decimal result between 0 and 1 restated as a percent: "= 0.25" as "= 0.25 = 25\\%" in
    math and "= 0.25 = 25%" in prose (at most 3 decimals, so the percent is exact)."""

    def percent(value: str) -> str | None:
        if not re.fullmatch(r"0\.\d{1,3}", value):
            return None
        return format(Decimal(value) * 100, "f").rstrip("0").rstrip(".")

    def in_math(m: str) -> str:
        r = _MATH_RESULT.search(m)
        if not r or (p := percent(r.group(2))) is None:
            return m
        return m[: r.end(2)] + f" = {p}\\%" + r.group(3)

    def in_prose(line: str) -> str:
        return re.sub(
            r"(?<![=<>!])(=\s*)(0\.\d{1,3})(?=\s*(?:[.,;]\s|[.]?$))",
            lambda r: r.group(0) + f" = {percent(r.group(2))}%",
            line,
        )

    return _prose_lines(_in_math(text, in_math), in_prose)


def _top_sides(math: str) -> list[str] | None:
    """``math`` split at each top-level "=" (None where it holds another relation)."""
    if re.search(
        r"[<>&]|\\(?:le|ge|ne|neq|approx|text|quad|begin|implies|Rightarrow|iff|to)"
        r"(?![a-z])|\\\\|==|\\!|\\[lL]ongrightarrow",
        math,
    ):
        return None
    sides = top_level_sides(math)
    return sides if all(s.strip() for s in sides) else None


def _chain_change(join: Callable[[list[str]], str | None]) -> Callable[[str], str]:
    """A rewrite of each math chain of three or more sides by ``join``."""

    def change(m: str) -> str:
        sides = _top_sides(m)
        if sides is None or len(sides) < 3:
            return m
        new = join([s.strip() for s in sides])
        return m if new is None else new

    return lambda text: _in_math(text, change)


def _rounded_middle(sides: list[str]) -> str | None:
    """A middle side that is a long decimal, rounded to 2 places and marked "≈"."""
    for i in range(1, len(sides) - 1):
        if re.fullmatch(r"\d+\.\d{3,}", sides[i]):
            rounded = f"{float(sides[i]):.2f}"
            return (
                " = ".join(sides[:i])
                + f" \\approx {rounded} \\text{{ (to 2 decimal places)}} = "
                + " = ".join(sides[i + 1 :])
            )
    return None


def _text_links(sides: list[str]) -> str:
    """Words in ``\\text{}`` between a chain's links: "a = b = c" as
    "a = b \\quad\\text{and so}\\quad b = c"."""
    parts = [f"{sides[0]} = {sides[1]}"]
    for before, after in zip(sides[1:], sides[2:], strict=False):
        parts.append(f"{before} = {after}")
    return " \\quad\\text{and so}\\quad ".join(parts)


def _bang_equals(text: str) -> str:
    """ "=" in math as "=\\!" (a negative thin space after it, as some LaTeX writes)."""
    return _in_math(text, lambda m: re.sub(r"(?<![<>!\\=])=(?!=)", r"=\\!", m))


def _aligned(text: str) -> str:
    """A display chain ``\\[a = b = c\\]`` as an ``aligned`` environment, one link a line."""

    def change(m: re.Match[str]) -> str:
        sides = _top_sides(m.group(2))
        if sides is None or len(sides) < 3:
            return m.group(0)
        sides = [s.strip() for s in sides]
        body = f"{sides[0]} &= " + " \\\\\n&= ".join(sides[1:])
        return f"{m.group(1)}\\begin{{aligned}}\n{body}\n\\end{{aligned}}{m.group(3)}"

    return re.sub(r"(\\\[\s*)(.+?)(\s*\\\])", change, text, flags=re.DOTALL)


def _choose(text: str) -> str:
    """``\\binom{n}{k}`` as ``{n \\choose k}``."""
    return re.sub(r"\\[dt]?binom\{([^{}]+)\}\{([^{}]+)\}", r"{\1 \\choose \2}", text)


def _count_c(text: str) -> str:
    """``\\binom{9}{7}`` in numbers as "C(9, 7)"."""
    return re.sub(r"\\[dt]?binom\{(\d+)\}\{(\d+)\}", r"C(\1, \2)", text)


def _paren_product(text: str) -> str:
    """A product of two numbers written "3(4)": ``3 \\times 4`` as ``3(4)`` in math (not where
    a power, a digit or a point follows the second factor)."""
    return _in_math(
        text,
        lambda m: re.sub(
            r"(?<![\d.^_{])(\d+)\s*\\(?:times|cdot)(?![a-z])\s*(\d+)(?![\d.^]|\s*[\^!])",
            r"\1(\2)",
            m,
        ),
    )


def _given(text: str) -> str:
    """A restated value tagged "(given)": the first "$x = 5$" as "$x = 5$ (given)"."""
    return re.sub(r"(\$[A-Za-z] = -?\d+(?:\.\d+)?\$)(?! \(given\))", r"\1 (given)", text, count=1)


def _bare_assignments(text: str) -> str:
    """Assignments written bare, as in "so x = 2, y = 3": "$x = 2$" as "x = 2"."""
    if _PRICE.search(text):
        return text
    return re.sub(r"(?<![\\$])\$([A-Za-z] = -?\d+(?:\.\d+)?)\$(?!\$)", r"\1", text)


def _dollar_math(text: str) -> str:
    """A price in math: in a step that writes prices ("\\$12" or "dollars"), a math result
    "= 15" as "= \\$15"."""
    if not re.search(r"\\\$\d|\bdollars?\b", text):
        return text

    def change(m: str) -> str:
        r = _MATH_RESULT.search(m)
        if not r or "%" in m or "^" in m:
            return m
        return m[: r.start(2)] + "\\$" + r.group(2) + r.group(3)

    return _in_math(text, change)


def _tag(text: str) -> str:
    """A display equation numbered as LaTeX numbers it: "\\[a = b\\]" as "\\[a = b \\tag{1}\\]"."""
    return re.sub(
        r"(\\\[)((?:(?!\\\]).)*=(?:(?!\\\]).)*?)(\s*)(\\\])",
        lambda m: (
            m.group(1) + m.group(2) + " \\tag{1}" + m.group(3) + m.group(4)
            if "\\tag" not in m.group(2) and "\\\\" not in m.group(2)
            else m.group(0)
        ),
        text,
        flags=re.DOTALL,
    )


def _equation_number(text: str) -> str:
    """A display equation numbered by hand after it: "\\[a = b\\]" as "\\[a = b \\quad (1)\\]"."""
    return _tag(text).replace("\\tag{1}", "\\quad (1)")


def _implies_join(text: str) -> str:
    """Two inline equations in a row joined by an arrow, as models chain them: "$2x = 4$, so
    $x = 2$" as "$2x = 4 \\Rightarrow x = 2$"."""
    return re.sub(
        r"(?<![\\$])\$([^$]*=[^$]*)(?<!\\)\$,? (?:so|thus|hence|which gives|giving) "
        r"\$([^$]*=[^$]*)(?<!\\)\$(?!\$)",
        r"$\1 \\Rightarrow \2$",
        text,
    )


_VULGAR = {"1/2": "\u00bd", "1/4": "\u00bc", "3/4": "\u00be", "1/3": "\u2153", "2/3": "\u2154"}


def _vulgar_fractions(text: str) -> str:
    """ "1/2" in prose as "½" (also in a mixed number: "2 1/2" as "2½")."""

    def change(line: str) -> str:
        line = re.sub(
            r"(?<=\d) (1/2|1/4|3/4|1/3|2/3)(?![\d/])", lambda m: _VULGAR[m.group(1)], line
        )
        return re.sub(
            r"(?<![\d/.])(1/2|1/4|3/4|1/3|2/3)(?![\d/.])", lambda m: _VULGAR[m.group(1)], line
        )

    return _prose_lines(text, change)


def _slash_fraction(text: str) -> str:
    """In math, a fraction of two numbers typed with a slash: "\\frac{3}{4}" as "3/4" (not
    after a digit, a script, a slash or a division sign, nor before a letter, a power, a
    parenthesis or a digit)."""
    return _in_math(
        text,
        lambda m: re.sub(
            r"(?<![\d^_/}])(?<!\\div )(?<!\\div)\\[dt]?frac\{(\d+)\}\{(\d+)\}"
            r"(?!\s*(?:[A-Za-z^(\d{]|\\(?:pi|sqrt|left|[a-z]*frac)))",
            r"\1/\2",
            m,
        ),
    )


def _boxed_equation(text: str) -> str:
    """The last inline equation of a step boxed whole: "$3 + 4 = 7$" as "$\\boxed{3 + 4 = 7}$"."""
    found = list(_INLINE.finditer(text))
    if not found or "=" not in found[-1].group(1) or "\\boxed" in found[-1].group(1):
        return text
    last = found[-1]
    return text[: last.start()] + f"$\\boxed{{{last.group(1).strip()}}}$" + text[last.end() :]


def _therefore(text: str) -> str:
    """ "Therefore, " before math as the sign: "Therefore, $x = 2$" as "$\\therefore x = 2$"."""
    return re.sub(r"\b(?:Therefore|Thus|Hence),? \$(?!\$)", r"$\\therefore ", text)


def _approx_for_equals(text: str) -> str:
    """ "≈" before an exact decimal result of 3 or more places: "= 0.125" as "\\approx 0.125"."""
    return _in_math(
        text, lambda m: re.sub(r"(?<![<>!\\=])=(\s*)(\d+\.\d{3,})(\s*)$", r"\\approx\1\2\3", m)
    )


def _trailing_zero(text: str) -> str:
    """A one-decimal result with a trailing zero, as prices are written: "= 2.5" as "= 2.50"."""
    return re.sub(r"(=\s*\$?)(\d+\.\d)(?![\d.])(?!\s*[-+*/^\\(])", r"\g<1>\g<2>0", text)


def _point_zero(text: str) -> str:
    """A whole result written as a float: "= 12" ending a sentence as "= 12.0"."""
    return _prose_lines(
        text, lambda line: _RESULT_END.sub(lambda m: m.group(1) + m.group(2) + ".0", line)
    )


_RESULT_END = re.compile(r"((?<![=<>!])=\s*)(\d+)(?=\s*(?:[,;]\s|\.\s|\.?$))")


def _frac_short(text: str) -> str:
    """TeX's short fractions: "\\frac{1}{2}" as "\\frac12" (one-digit parts)."""
    return re.sub(r"\\([dt]?frac)\{(\d)\}\{(\d)\}", r"\\\1\2\3", text)


def _sqrt_short(text: str) -> str:
    """TeX's short root: "\\sqrt{2}" as "\\sqrt2" (one digit)."""
    return re.sub(r"\\sqrt\{(\d)\}", r"\\sqrt\1", text)


def _leading_point(text: str) -> str:
    """A decimal below 1 without its zero: "0.5" as ".5" (not after a digit, a point or a sign
    of a number's own)."""
    return re.sub(r"(?<![\d.,])0(\.\d)", r"\1", text)


LLM_STYLE: dict[str, Callable[[str], str]] = {
    "unicode_minus": _unicode_minus,
    "unicode_products": _unicode_products,
    "unicode_symbols": _unicode_symbols,
    "superscripts": _superscripts,
    "degree_sign": _degree_sign,
    "congruence_plain": _congruence_plain,
    "double_star": _double_star,
    "plain_text": _plain_text,
    "brace_thousands": _brace_thousands,
    "space_thousands": _space_thousands,
    "times_ten": _times_ten,
    "percent_link": _percent_link,
    "rounded_middle": _chain_change(_rounded_middle),
    "text_links": _chain_change(_text_links),
    "bang_equals": _bang_equals,
    "aligned": _aligned,
    "choose": _choose,
    "count_c": _count_c,
    "paren_product": _paren_product,
    "given": _given,
    "bare_assignments": _bare_assignments,
    "dollar_math": _dollar_math,
    "tag": _tag,
    "equation_number": _equation_number,
    "implies_join": _implies_join,
    "vulgar_fractions": _vulgar_fractions,
    "slash_fraction": _slash_fraction,
    "boxed_equation": _boxed_equation,
    "therefore": _therefore,
    "approx_for_equals": _approx_for_equals,
    "trailing_zero": _trailing_zero,
    "point_zero": _point_zero,
    "frac_short": _frac_short,
    "sqrt_short": _sqrt_short,
    "leading_point": _leading_point,
}
