"""Words in parentheses that label a number inside a computation: "7995 (total cookies) -
2595 (rainbow cookies) = 4500", ``100 (\\text{first day}) + 150 (\\text{second day}) = 250``,
"180 minutes (before dinner) + 80 minutes (homework) = 260 minutes".

The label names what the number counts; the computation is the numbers. Left in, the label
splits a run of prose arithmetic in two or makes a math side "a quantity in words", and the
claim is not read. :func:`blank_labels` replaces each such label with spaces (same length, so
every position still points into the step's prepared text, where the hedge rules and the
claim's shown text read the label as written: "(wrong)" still hedges).

A label is only words (letters, spaces, commas, apostrophes, hyphens, "&"), optionally in
``\\text{...}``, with a word of three letters or more, right after a number or a number and
up to two unit words; never "\\(" (a math delimiter), and never "(mod 5)" or the like.
"""

from __future__ import annotations

import re

_WORDS = r"[A-Za-z][A-Za-z ,'&\-]{0,58}"
_LABEL = re.compile(
    r"(?<=\d)(?P<lead>%?[ \t]*(?:[A-Za-z]+[ \t]+){0,2}?)"
    rf"(?P<label>(?<!\\)\((?:[ \t]*\\text\s*\{{{_WORDS}\}}[ \t]*|[ \t]*{_WORDS})\))"
)
_WORD = re.compile(r"[A-Za-z]{3,}")
# Not a label: a modulus, or words that question the number (the hedge rules read what is
# after a claim, and a blanked label would be inside it).
_NOT_A_LABEL = re.compile(
    r"\b(?:p?mod|modulo|wrong|incorrect\w*|errors?|mistake\w*|typo|not|false|approx\w*|"
    r"about|around|roughly|nearly|almost|round\w*|estimat\w*|oops|wait|assum\w*|suppos\w*|"
    r"if|hypothetic\w*|guess\w*|actually|instead)\b",
    re.IGNORECASE,
)


def blank_labels(text: str) -> str:
    """``text`` with every worded label after a number replaced by spaces."""
    if "(" not in text:
        return text
    return _LABEL.sub(_blank, text)


def _blank(m: re.Match[str]) -> str:
    label = m["label"]
    if not _WORD.search(label) or _NOT_A_LABEL.search(label):
        return m.group(0)
    return m["lead"] + " " * len(label)
