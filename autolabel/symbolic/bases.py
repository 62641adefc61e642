"""Numerals in a base the step or its problem names: "In base 8, $7 + 1 = 10$" is true.

A writer working in base b often drops the subscripts ("$4 + 1 = 10$" in base 5). Where the
step or the problem names a base from 2 to 9 ("base 8", "base-5", "base five", a subscript
``123_8``, "binary", "ternary", "octal"), a claim false in decimal that holds when every
whole-number literal is read in that base is left undecided, never refuted. A literal with a
digit too large for the base cannot be read there, and then the claim is decided as written.
"""

from __future__ import annotations

import dataclasses
import re

import sympy

from autolabel.symbolic import ast
from autolabel.symbolic.evaluate import EvalError, exact

_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9}
_NAMED = re.compile(r"\bbase[\s-]*(\d{1,2}|two|three|four|five|six|seven|eight|nine)\b", re.I)
_SUBSCRIPT = re.compile(r"\d_\{?\s*(\d{1,2})\s*\}?")
# "In binary, 1 + 1 = 10" (symbolic-1.12)
_BASE_WORDS = {"binary": 2, "ternary": 3, "octal": 8}
_WORDED = re.compile(r"\b(binary|ternary|octal)\b", re.I)


def stated_bases(*texts: str | None) -> frozenset[int]:
    """The bases from 2 to 9 that ``texts`` name."""
    found: set[int] = set()
    for text in texts:
        if not text:
            continue
        for m in _NAMED.finditer(text):
            word = m.group(1).lower()
            found.add(_WORDS[word] if word in _WORDS else int(word))
        found.update(int(m.group(1)) for m in _SUBSCRIPT.finditer(text))
        found.update(_BASE_WORDS[m.group(1).lower()] for m in _WORDED.finditer(text))
    return frozenset(b for b in found if 2 <= b <= 9)


def in_base(node: ast.Node, base: int) -> ast.Node | None:
    """``node`` with every whole-number literal read in ``base``; None when one has a digit
    too large for it (or is not written as plain digits)."""
    if isinstance(node, ast.Num):
        if node.base is not None or node.decimals is not None:
            return node
        digits = node.text.strip()
        if not digits.isdigit() or any(int(d) >= base for d in digits):
            return None
        return dataclasses.replace(node, value=type(node.value)(int(digits, base)))
    changes = {}
    for f in dataclasses.fields(node):  # type: ignore[arg-type]
        child = getattr(node, f.name)
        if isinstance(child, ast.Node):
            read = in_base(child, base)
            if read is None:
                return None
            changes[f.name] = read
    return dataclasses.replace(node, **changes) if changes else node  # type: ignore[type-var]


def holds_in_a_base(
    left: ast.Node, right: ast.Node, bases: frozenset[int], percent: str
) -> int | None:
    """A base of ``bases`` in which ``left = right`` holds exactly, if any."""
    for base in sorted(bases):
        a, b = in_base(left, base), in_base(right, base)
        if a is None or b is None:
            continue
        try:
            if sympy.simplify(exact(a, percent=percent) - exact(b, percent=percent)) == 0:
                return base
        except (EvalError, ZeroDivisionError, ValueError, TypeError):
            continue
    return None
