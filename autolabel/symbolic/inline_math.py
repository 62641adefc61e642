"""One equation split between math and prose: "150 + \\( x \\) = 500", "\\( x \\) = 350 - 150",
"$x$ = 12 - 5". The writer put only the letter in math delimiters, so the math segment is a
lone symbol and each prose piece is half an equation: nothing is read.

:func:`join_lone_symbols` blanks the delimiters around such a symbol (a letter, optionally
with a one-character subscript, or a number) when an operator or "=" joins it to the prose
on either side, so the prose finder reads the whole equation. The text keeps its length:
every position still points into the step's prepared text.
"""

from __future__ import annotations

import re

_SYMBOL = r"[ \t]*(?:[A-Za-z](?:_\{?[A-Za-z0-9]\}?)?|\d+(?:\.\d+)?)[ \t]*"
_OPERATOR = r"[=+\-*/×·−]"
_LONE = re.compile(
    rf"(?P<open>\\\(|(?<![\\$])\$(?!\$))(?P<symbol>{_SYMBOL})(?P<close>\\\)|(?<![\\$])\$(?!\$))"
)
_BEFORE = re.compile(rf"{_OPERATOR}[ \t]*$")
_AFTER = re.compile(rf"^[ \t]*{_OPERATOR}")


def join_lone_symbols(text: str) -> str:
    """``text`` with the math delimiters around a lone symbol inside an equation blanked."""
    if "\\(" not in text and "$" not in text:
        return text
    return _LONE.sub(lambda m: _join(text, m), text)


def _join(text: str, m: re.Match[str]) -> str:
    before = text[max(0, m.start() - 8) : m.start()]
    after = text[m.end() : m.end() + 8]
    if not (_BEFORE.search(before) or _AFTER.search(after)):
        return m.group(0)
    return " " * len(m["open"]) + m["symbol"] + " " * len(m["close"])
