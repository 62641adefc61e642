"""Final-answer extraction and equivalence (math-verify + latex2sympy2_extended).

:func:`equivalent` runs in a worker process under a hard time limit (autolabel.timeouts);
math-verify's own signal-based timeouts are off there (they only work in a main thread).
It returns None when the pair cannot be decided: a side that does not parse, a timeout, or
a multiple-choice letter against a value.

Before math-verify, both sides are normalized: ``\\boxed{}`` and ``$`` removed, ``\\dfrac``
made ``\\frac``, degrees, ``\\$``, ``\\text{cm}``/"5 dollars" units (with an exponent:
``864 \\mbox{ inches}^2`` is 864) and ``\\left/\\right`` dropped; digits grouped with thin
spaces (``11,\\! 111,\\! 100``, ``11\\,111\\,100``) are read as one number, groups of exactly
three digits only, so ``(1,\\! 2)`` stays a pair. Then:

* multiple choice: letters are compared as letters ("(B)", "\\text{(B)}", "B");
* two plain numbers (integers, decimals, ``a/b``, ``\\frac{a}{b}``, with ``1,000`` commas) are
  compared exactly; a decimal with six or more digits also matches a fraction it rounds
  to (0.333333 ~ 1/3, as math-verify does), a shorter one must be exact (0.33 != 1/3);
* percentages: "50%" is tried both as 50 and as 0.5 (and so matches "50", "0.5", "1/2");
* otherwise math-verify: gold wrapped in ``$...$`` (a bare ``3*sqrt(2)`` can parse as 3),
  ``allow_set_relation_comp=True`` so intervals match inequalities, sets are unordered,
  tuples ordered.
"""

from __future__ import annotations

import re
from fractions import Fraction

from autolabel import timeouts

ANSWER_CHECK_VERSION = "answer-1.0+math-verify-0.9.0"

timeouts.register_preload("autolabel.answers")
timeouts.register_preload("math_verify")  # workers import it before any clock starts

_MV_LOADED = False


def _math_verify():  # imported lazily: about 0.5 s, paid once per worker
    global _MV_LOADED
    import math_verify
    from math_verify import grader, parser

    if not _MV_LOADED:
        # We enforce our own (hard) limit; silence the one-time "timeouts disabled" warning.
        grader.TIMEOUT_WARNING_SHOWN = True
        parser.TIMEOUT_WARNING_SHOWN = True
        _MV_LOADED = True
    return math_verify


# --- extraction ---------------------------------------------------------------------------


def last_boxed(text: str) -> str | None:
    """Content of the last ``\\boxed{...}`` / ``\\fbox{...}`` with balanced braces."""
    best = None
    for m in re.finditer(r"\\(?:boxed|fbox)\s*\{", text):
        depth, i = 1, m.end()
        while i < len(text) and depth:
            if text[i] == "{":
                depth += 1
            elif text[i] == "}":
                depth -= 1
            i += 1
        if depth == 0:
            best = text[m.end() : i - 1]
    if best is None:
        bare = re.findall(r"\\boxed\s+([^\s$]+)", text)  # \boxed 5
        if bare:
            best = bare[-1]
    return best


_FINAL_ANSWER = re.compile(
    r"final answer(?:\s*is|\s*:)\s*:?\s*(?:the final answer is\s*)?(.+?)"
    r"(?:\.\s*I hope it is correct\.?)?\s*$",
    re.IGNORECASE | re.MULTILINE,
)
_ANSWER_IS = re.compile(r"\bthe answer is\s*:?\s*(.+?)\s*$", re.IGNORECASE | re.MULTILINE)
_HASHES = re.compile(r"^\s*####\s*(.+?)\s*$", re.MULTILINE)
_A_LINE = re.compile(r"^\s*A:\s*(.+?)\s*$", re.MULTILINE)
_ANSWER_HEADER = re.compile(r"^#\s*Answer\s*\n+\s*(.+?)\s*$", re.MULTILINE | re.IGNORECASE)
_ANSWER_LINE = re.compile(r"^\s*\**answer\**\s*:\s*(.+?)\s*$", re.MULTILINE | re.IGNORECASE)


def _clean_extracted(answer: str) -> str | None:
    answer = answer.strip()
    boxed = last_boxed(answer)
    if boxed is not None:
        answer = boxed
    answer = answer.strip()
    answer = answer.removesuffix(".").strip()  # a sentence's full stop; no number ends in "."
    if len(answer) >= 2 and answer.startswith("$") and answer.endswith("$"):
        answer = answer.strip("$").strip()
    for opener, closer in (("\\(", "\\)"), ("\\[", "\\]")):
        if answer.startswith(opener) and answer.endswith(closer):
            answer = answer[len(opener) : -len(closer)].strip()
    return answer or None


def extract_final_answer(text: str) -> str | None:
    """The final answer a solution states, or None.

    In order: the last ``\\boxed{...}``; GSM8K ``#### N``; "Final Answer: The final answer is
    X"; PRM800K's "# Answer" block; "The answer is X"; "Answer: X"; a GSM8K model
    solution's last "A: X" line.
    """
    if not text:
        return None
    boxed = last_boxed(text)
    if boxed is not None and boxed.strip():
        return _clean_extracted(boxed)
    for pattern in (_HASHES, _FINAL_ANSWER, _ANSWER_HEADER, _ANSWER_IS, _ANSWER_LINE, _A_LINE):
        matches = list(pattern.finditer(text))
        if matches:
            return _clean_extracted(matches[-1].group(1))
    return None


# --- normalization ------------------------------------------------------------------------

_UNIT_WORDS = (
    r"(?:dollars?|cents?|units?|degrees?|cm|mm|km|m|meters?|inches|inch|feet|foot|ft|"
    r"miles?|hours?|minutes?|seconds?|days?|weeks?|years?|pounds?|lbs?|kg|g|grams?|"
    r"square|sq|cubic|cups?|people|students?|apples?|ways?|points?|items?)"
)


# Digits grouped in threes with LaTeX thin spaces: "11,\! 111,\! 100" (a comma, then a
# negative thin space that cancels math mode's space after it) and "11\,111\,100". A group
# is exactly three digits, so "(1,\! 2)" stays a pair; ",\," and ", " may separate a list.
_THIN_GROUPED = re.compile(r"(?<=\d),\s*(?:\\!\s*)+(?=\d{3}(?!\d))")
_THIN_SPACED = re.compile(r"(?<=\d)(?:\\[!,])+(?=\d{3}(?!\d))")
# A unit in \text{...}/\mbox{...}, one or more unit words, with an optional exponent:
# "864 \mbox{ inches}^2", "12\text{ sq ft}", "5\,\text{cm}^{3}".
_TEXT_UNIT = re.compile(
    r"\\(?:text|mbox|mathrm|textbf)\s*\{\s*"
    + _UNIT_WORDS
    + r"(?:\s+"
    + _UNIT_WORDS
    + r")*\s*\}(?:\s*\^\s*(?:\{\s*\d\s*\}|\d))?"
)
_TRAILING_SPACE = re.compile(r"(?:\s|\\[!,;: ]|~)+$")  # left where a unit was dropped


def normalize_answer(answer: str) -> str:
    s = answer.strip()
    boxed = last_boxed(s)
    if boxed is not None:
        s = boxed
    s = s.strip().strip("$").strip()
    s = re.sub(r"^\\\(|\\\)$|^\\\[|\\\]$", "", s).strip()
    s = s.replace("\\dfrac", "\\frac").replace("\\tfrac", "\\frac")
    s = s.replace("\\left", "").replace("\\right", "").replace("{,}", ",")
    s = _THIN_GROUPED.sub(",", s)  # 11,\! 111,\! 100 -> 11,111,100
    s = _THIN_SPACED.sub("", s)  # 11\,111\,100 -> 11111100
    s = s.replace("\\!", "")
    s = re.sub(r"\^\s*\{?\\circ\}?|°|\\degree", "", s)
    s = s.replace("\\$", "").replace("$", "")
    s = _TEXT_UNIT.sub("", s)
    s = _TRAILING_SPACE.sub("", s)
    s = re.sub(r"(?<=[\d}])\s*(?:\\ |~|\\,)*" + _UNIT_WORDS + r"\b(?:\^?\d)?\s*$", "", s)
    s = re.sub(r"\s+", " ", s).strip()
    s = re.sub(r"\.$", "", s).strip()
    return s


_CHOICE = re.compile(r"^\(?\s*([A-Ea-e])\s*\)?(?:\s|$|[.:)])")
_TEXT_WRAP = re.compile(r"^\\(?:text|textbf|mathrm|mbox)\s*\{(.*)\}$")


def _choice_letter(s: str) -> str | None:
    inner = s
    m = _TEXT_WRAP.match(inner)
    if m:
        inner = m.group(1).strip()
    if re.fullmatch(r"\(?\s*[A-Ea-e]\s*\)?", inner):
        return re.sub(r"[^A-Ea-e]", "", inner).upper()
    m = _CHOICE.match(inner)
    if m and inner[:1] == "(":
        return m.group(1).upper()
    return None


_PLAIN_NUMBER = re.compile(r"^(-?)\s*(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)$")
_PLAIN_FRACTION = re.compile(r"^(-?)\s*(?:\\frac\{(\d+)\}\{(\d+)\}|(\d+)\s*/\s*(\d+))$")


def _plain_rational(s: str) -> tuple[Fraction, int | None] | None:
    """A plain number as written: its value and its count of decimals (None: exact form)."""
    m = _PLAIN_NUMBER.match(s)
    if m:
        digits = m.group(2).replace(",", "")
        decimals = len(digits.split(".")[1]) if "." in digits else None
        value = Fraction(digits)
        return (-value if m.group(1) else value), decimals
    m = _PLAIN_FRACTION.match(s)
    if m:
        num = int(m.group(2) or m.group(4))
        den = int(m.group(3) or m.group(5))
        if den == 0:
            return None
        value = Fraction(num, den)
        return (-value if m.group(1) else value), None
    return None


def _exact_compare(p: str, g: str) -> bool | None:
    a, b = _plain_rational(p), _plain_rational(g)
    if a is None or b is None:
        return None
    (va, da), (vb, db) = a, b
    if va == vb:
        return True
    for (value, decimals), other in (((va, da), vb), ((vb, db), va)):
        if decimals is not None and decimals >= 6:
            unit = Fraction(1, 10**decimals)
            if abs(other - value) <= unit / 2:
                return True
    return False


def _percent_variants(s: str) -> list[str]:
    if "%" not in s:
        return [s]
    bare = s.replace("\\%", "").replace("%", "").strip()
    plain = _plain_rational(bare)
    if plain is not None:
        value = plain[0] / 100
        return [bare, f"{value.numerator}/{value.denominator}"]
    return [bare, f"({bare})/100"]


def _verify(p: str, g: str) -> bool | None:
    mv = _math_verify()
    gold = mv.parse(f"${g}$", parsing_timeout=None)
    pred = mv.parse(f"${p}$", parsing_timeout=None)
    if not gold or not pred:
        return None
    return bool(mv.verify(gold, pred, allow_set_relation_comp=True, timeout_seconds=None))


def _words_only(s: str) -> str | None:
    m = _TEXT_WRAP.match(s)
    inner = (m.group(1) if m else s).strip()
    if re.fullmatch(r"[A-Za-z][A-Za-z ]*[A-Za-z]", inner):
        return inner.lower()
    return None


def equivalent_local(predicted: str, gold: str) -> bool | None:
    """The comparison itself, in this process (no time limit of its own)."""
    if not predicted or not predicted.strip() or not gold or not gold.strip():
        return None
    p, g = normalize_answer(predicted), normalize_answer(gold)
    if not p or not g:
        return None
    gold_letter = _choice_letter(g)
    if gold_letter is not None:
        pred_letter = _choice_letter(p)
        return None if pred_letter is None else pred_letter == gold_letter
    words_p, words_g = _words_only(p), _words_only(g)
    if words_g is not None and len(words_g) > 1 and words_p is not None:
        return words_p == words_g
    results: list[bool | None] = []
    for pv in _percent_variants(p):
        for gv in _percent_variants(g):
            result = _exact_compare(pv, gv)
            if result is None:
                result = _verify(pv, gv)
            if result:
                return True
            results.append(result)
    if any(r is False for r in results):
        return False
    return None


def equivalent(predicted: str, gold: str, *, timeout_s: float = 3.0) -> bool | None:
    """Is ``predicted`` the same answer as ``gold``? None when it cannot be decided in time."""
    try:
        return timeouts.call_with_time_limit(equivalent_local, predicted, gold, timeout_s=timeout_s)
    except (timeouts.TimeLimitExceeded, timeouts.WorkerError):
        return None
