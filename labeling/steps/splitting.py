"""Cutting a solution written as one string into steps, by a StepSplit rule (a project's
default, or an import's own), and marking the steps of its `<think>` reasoning trace.

Every rule runs in time linear in the text: fixed patterns, RE2 for a user's regex
(labeling.steps.patterns), escaped literals for a step tag, one scan for sentences
(labeling.steps.sentences)."""

import re
from dataclasses import dataclass
from typing import Any

from labeling.models.project import STEP_TAG_MAX, StepSplit
from labeling.steps.patterns import compile_user_pattern
from labeling.steps.sentences import split_sentences

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


# `<think>` and `</think>` (DeepSeek-R1, Qwen3 and QwQ write their reasoning between them).
_THINK = re.compile(r"<(/?)think>", re.IGNORECASE)
# A tag written as an XML element's opening or closing tag: `<step>` or `</step>`.
_ELEMENT = re.compile(r"</?([A-Za-z_][\w.:-]{0,60})>")


@dataclass(frozen=True, slots=True)
class StepRule:
    """How a solution given as one string becomes steps: a StepSplit value and the regex
    (rule `regex`) or tag (rule `step_tags`) it needs."""

    split: str = StepSplit.LINE
    regex: str = ""
    tag: str = ""

    def check(self) -> "StepRule":
        """The rule itself, or ValueError naming what is wrong (a sentence)."""
        if self.split not in StepSplit.values:
            raise ValueError(
                f"unknown step rule {self.split!r}; one of {', '.join(StepSplit.values)}"
            )
        if self.split == StepSplit.REGEX:
            if not self.regex:
                raise ValueError("the regex step rule needs a regular expression")
            try:
                compile_user_pattern(self.regex)
            except ValueError as exc:
                raise ValueError(f"invalid step regex {self.regex!r}: {exc}") from exc
        if self.split == StepSplit.STEP_TAGS:
            tag_pattern(self.tag)
        return self

    def field_of_error(self) -> str:
        """The field a ValueError from `check` is about."""
        return {StepSplit.REGEX: "step_split_regex", StepSplit.STEP_TAGS: "step_split_tag"}.get(
            self.split, "step_split"
        )


def tag_pattern(tag: str) -> Any:
    """The separators of a step tag, compiled: the literal itself, or for an element's tag
    (`<step>` or `</step>`) both its opening and closing tags. A tag made of word characters
    at an end (Math-Shepherd's `ки`) does not match inside a word. ValueError for an empty or
    over-long tag."""
    tag = tag.strip()
    if not tag:
        raise ValueError("the step_tags rule needs a step tag (for example <extra_0> or ки)")
    if len(tag) > STEP_TAG_MAX:
        raise ValueError(f"a step tag has at most {STEP_TAG_MAX} characters")
    if element := _ELEMENT.fullmatch(tag):
        name = re.escape(element.group(1))
        return re.compile(f"</?{name}>")
    before = r"(?<!\w)" if re.match(r"\w", tag) else ""
    after = r"(?!\w)" if re.match(r"\w", tag[-1]) else ""
    return re.compile(before + re.escape(tag) + after)


def split_steps(text: str, rule: str, regex: str = "", tag: str = "") -> list[str]:
    """The steps of `text` under `rule` (a StepSplit value), stripped, empties dropped.

    - line: one step per line;
    - paragraph: one step per blank-line-separated paragraph;
    - step_marker: a new step starts at each "Step k:" marker, which stays in the step's text;
      any text before the first marker is a step of its own;
    - regex: `regex` matches the separators between steps;
    - sentence: one step per sentence (labeling.steps.sentences: not cut at "e.g.", "Dr.", 3.14,
      list markers or inside math);
    - step_tags: `tag` (a model's step separator, see tag_pattern) separates steps and is
      removed from their text.
    Raises ValueError for an unknown rule or a missing / invalid regex or tag.
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
    if rule == StepSplit.SENTENCE:
        return split_sentences(text)
    if rule == StepSplit.STEP_TAGS:
        return _clean(tag_pattern(tag).split(text))
    raise ValueError(f"unknown step split rule {rule!r}")


def think_parts(text: str) -> list[tuple[str, bool]]:
    """`text` in order as (part, is_reasoning) around its `<think>...</think>` blocks.

    - `<think>A</think>B`: A is reasoning, B the answer; text before `<think>` is answer;
    - `A</think>B` with no `<think>` before (chat templates that put `<think>` in the
      prompt): A is reasoning;
    - an unclosed `<think>` (a truncated generation): the rest of the text is reasoning;
    - a stray `<think>` inside a block or `</think>` outside one is dropped.
    Without tags the whole text is one answer part.
    """
    parts: list[tuple[str, bool]] = []
    inside, start, seen = False, 0, False
    for match in _THINK.finditer(text):
        closing = bool(match.group(1))
        if closing and not inside and not seen:
            inside = True  # A</think>: A was reasoning
        parts.append((text[start : match.start()], inside))
        start, seen = match.end(), True
        inside = not closing
    parts.append((text[start:], inside))
    return [(part, thinking) for part, thinking in parts if part.strip()]


def split_solution(text: str, rule: StepRule) -> list[tuple[str, bool]]:
    """The steps of a solution written as one string, each with whether it is a step of the
    reasoning trace: each part of think_parts split by `rule` (a step never spans the end of
    a `<think>` block). ValueError as split_steps."""
    return [
        (step, thinking)
        for part, thinking in think_parts(text)
        for step in split_steps(part, rule.split, rule.regex, rule.tag)
    ]
