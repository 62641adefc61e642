"""Cutting a solution written as one string into steps, by a project's StepSplit rule."""

import re
from typing import Any

from labeling.models.project import StepSplit
from labeling.patterns import compile_user_pattern

_BLANK_LINE = re.compile(r"\n[ \t\r\f\v]*\n")
# A "Step k:" (or "Step k.") marker at the start of the text or after whitespace, optionally
# in Markdown bold or after a heading hash: "**Step 2:**", "## Step 3.".
_STEP_MARKER = re.compile(r"(?:^|(?<=\s))(?:\*\*|#+[ \t]*)?Step[ \t]+\d+[ \t]*[:.]")


def _clean(parts: list[str]) -> list[str]:
    return [part.strip() for part in parts if part.strip()]


def _split_on(pattern: Any, text: str) -> list[str]:
    """Split at each match, dropping the match (capture groups do not leak into the result)."""
    parts, start = [], 0
    for match in pattern.finditer(text):
        if match.end() == match.start() == start:
            continue
        parts.append(text[start : match.start()])
        start = match.end()
    parts.append(text[start:])
    return parts


def split_steps(text: str, rule: str, regex: str = "") -> list[str]:
    """The steps of `text` under `rule` (a StepSplit value), stripped, empties dropped.

    - line: one step per line;
    - paragraph: one step per blank-line-separated paragraph;
    - step_marker: a new step starts at each "Step k:" marker, which stays in the step's text;
      any text before the first marker is a step of its own;
    - regex: `regex` matches the separators between steps.
    Raises ValueError for an unknown rule or a missing / invalid regex.
    """
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if rule == StepSplit.LINE:
        return _clean(text.split("\n"))
    if rule == StepSplit.PARAGRAPH:
        return _clean(_BLANK_LINE.split(text))
    if rule == StepSplit.STEP_MARKER:
        cuts = [0, *(m.start() for m in _STEP_MARKER.finditer(text)), len(text)]
        return _clean([text[a:b] for a, b in zip(cuts, cuts[1:], strict=False)])
    if rule == StepSplit.REGEX:
        if not regex:
            raise ValueError("the regex step rule needs a regular expression")
        try:
            pattern = compile_user_pattern(regex)  # RE2: linear time whatever the pattern
        except ValueError as exc:
            raise ValueError(f"invalid step regex {regex!r}: {exc}") from exc
        return _clean(_split_on(pattern, text))
    raise ValueError(f"unknown step split rule {rule!r}")
