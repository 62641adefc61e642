r"""Reading the earliest-error index out of a critic's free-form reply.

In order of trust: the last ``\boxed{...}``; an explicit "final answer / index is N";
sentences that attribute an error to "paragraph N" (the smallest such N); a "no error"
statement (-1); a reply that is just an integer. Anything else, and any index outside
-1..M-1, is unknown (None).
"""

from __future__ import annotations

import re

from autolabel.rollouts.grading import last_boxed

_INT = re.compile(r"^[+-]?\d+$")
_PARAGRAPH = re.compile(r"(?:paragraph|step|para)[\s_#-]*(?:index\s*)?(-?\d+)", re.I)
_EXPLICIT = re.compile(
    r"(?:final\s+answer|answer|index|earliest\s+error\s+(?:occurs\s+)?(?:is|at|in))"
    r"\s*(?:is|:|=)?\s*(?:\*\*)?\s*(?:paragraph[\s_]*)?(-?\d+)\b",
    re.I,
)
_ERROR_WORD = re.compile(r"\b(?:error|errors|incorrect|wrong|mistake|flawed|invalid)\b", re.I)
_NEGATED = re.compile(
    r"\b(?:no|not|without|free\s+of|n't|never)\b[^.;]{0,40}?"
    r"\b(?:error|errors|incorrect|wrong|mistake|mistakes|flawed|invalid)\b",
    re.I,
)
_NO_ERROR = re.compile(
    r"\b(?:no\s+(?:errors?|mistakes?)\b|not\s+found|all\s+(?:the\s+)?(?:paragraphs|steps)\s+"
    r"(?:are\s+)?(?:correct|right|valid)|(?:the\s+)?(?:whole\s+|entire\s+)?solution\s+is\s+"
    r"(?:entirely\s+|completely\s+|fully\s+)?correct)",
    re.I,
)
_SENTENCE = re.compile(r"(?<=[.!?\n])\s+")
_NONE_WORDS = {"none", "noerror", "notfound", "null", "n/a", "na"}


def _clean_boxed(content: str) -> str:
    content = re.sub(r"\\text\{([^{}]*)\}", r"\1", content)
    content = re.sub(r"\\(?:mathrm|textbf|mathbf)\{([^{}]*)\}", r"\1", content)
    content = content.replace("$", "").replace("\\", "")
    content = re.sub(r"(?i)paragraph|step|index", "", content)
    return re.sub(r"[\s_:#]+", "", content)


def _in_range(index: int, num_steps: int) -> int | None:
    return index if -1 <= index < num_steps else None


def parse_first_error(reply: str, num_steps: int) -> int | None:
    """-1 for "no error", 0..M-1 for the earliest wrong paragraph, None when unclear."""
    text = reply.strip()
    if not text:
        return None
    boxed = last_boxed(text)
    if boxed is not None:
        content = _clean_boxed(boxed)
        if _INT.match(content):
            return _in_range(int(content), num_steps)
        if content.lower() in _NONE_WORDS:
            return -1
    explicit = _EXPLICIT.findall(text)
    if explicit:
        return _in_range(int(explicit[-1]), num_steps)
    flagged: list[int] = []
    for sentence in _SENTENCE.split(text):
        if _ERROR_WORD.search(sentence) and not _NEGATED.search(sentence):
            flagged.extend(int(m) for m in _PARAGRAPH.findall(sentence))
    if flagged:
        return _in_range(min(flagged), num_steps)
    if _NO_ERROR.search(text):
        return -1
    if _INT.match(text):
        return _in_range(int(text), num_steps)
    return None
