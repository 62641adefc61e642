r"""Is a rollout's final answer the gold answer?

Uses ``autolabel.answers`` (``extract_final_answer`` and ``equivalent``, with a hard time
limit) when that module exists. Until it lands, a plain fallback compares the last
``\boxed{}`` with the gold answer after light normalization, and says so in its version
string, which every rollout label records.
"""

from __future__ import annotations

import importlib
import importlib.util
import re
from types import ModuleType

FALLBACK_VERSION = "steplab-boxed-exact-1"
CHECK_TIMEOUT_S = 3.0


def _answers() -> ModuleType | None:
    # find_spec, not try/except ImportError: a broken answers module must fail loudly.
    if importlib.util.find_spec("autolabel.answers") is None:
        return None
    return importlib.import_module("autolabel.answers")


def grader_version() -> str:
    answers = _answers()
    if answers is None:
        return FALLBACK_VERSION
    return str(getattr(answers, "ANSWER_CHECK_VERSION", "autolabel.answers"))


def last_boxed(text: str) -> str | None:
    r"""The content of the last ``\boxed{...}`` (or ``\fbox{...}``), braces balanced."""
    start = max(text.rfind("\\boxed"), text.rfind("\\fbox"))
    if start == -1:
        return None
    brace = text.find("{", start)
    if brace == -1:
        return None
    depth = 0
    for i in range(brace, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return text[brace + 1 : i]
    return None


def _normalize(answer: str) -> str:
    answer = re.sub(r"\\text\{([^{}]*)\}", r"\1", answer)
    answer = answer.replace("$", "").replace("\\!", "").replace("\\,", "")
    answer = re.sub(r"\\[dt]frac", r"\\frac", answer)
    answer = re.sub(r"\s+", "", answer).rstrip(".")
    return answer


def extract_final_answer(text: str) -> str | None:
    answers = _answers()
    if answers is not None:
        return answers.extract_final_answer(text)
    return last_boxed(text)


def answers_match(predicted: str, gold: str) -> bool | None:
    """True / False, or None when the check could not decide (timeout, unparseable)."""
    answers = _answers()
    if answers is not None:
        return answers.equivalent(predicted, gold, timeout_s=CHECK_TIMEOUT_S)
    return _normalize(predicted) == _normalize(gold)


def grade(text: str, gold: str) -> bool | None:
    """The final answer in ``text`` against ``gold``; no answer at all counts as wrong."""
    predicted = extract_final_answer(text)
    if predicted is None or not predicted.strip():
        return False
    return answers_match(predicted, gold)
