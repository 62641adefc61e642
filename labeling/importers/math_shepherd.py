"""Math-Shepherd (peiyi9979/Math-Shepherd): `input` is the problem then steps "Step k: ...",
each followed by the tag " ки"; `label` is the same text with each tag replaced by "+" (the
step was judged correct by Monte-Carlo completion) or "-"."""

import re
from typing import Any

from .fields import Row
from .ids import problem_id, solution_id
from .types import ParsedProblem, ParsedRow, ParsedSolution, ParsedStep

TAG = " ки"
_FIRST_STEP = re.compile(r"(?:^|(?<=\s))Step 1\s*:")
_ANSWER = re.compile(r"The answer is:?\s*(.+?)\s*$", re.S)


def _signs(row: Row, segments: list[str], label: str) -> list[int]:
    """Read the +/- that replaces each tag in `label`, checking the text in between."""
    signs, pos = [], 0
    for k, segment in enumerate(segments):
        if label[pos : pos + len(segment)] != segment:
            raise row.error("label", f"does not match `input` before step tag {k + 1}")
        pos += len(segment)
        mark = label[pos : pos + 2]
        if mark not in (" +", " -"):
            raise row.error("label", f"expected ' +' or ' -' at step tag {k + 1}, got {mark!r}")
        signs.append(1 if mark == " +" else -1)
        pos += 2
    return signs


def parse(data: dict[str, Any], row: Row) -> ParsedRow:
    text_in = row.string(data, "input")
    label = row.string(data, "label")
    if TAG not in text_in:
        raise row.error("input", f"no step tag {TAG.strip()!r} in the text")
    *segments, tail = text_in.split(TAG)
    if tail.strip():
        raise row.error("input", "text after the last step tag")
    signs = _signs(row, segments, label)
    first = _FIRST_STEP.search(segments[0])
    if first is None:
        raise row.error("input", "cannot find 'Step 1:' to separate the problem from the steps")
    problem_text = segments[0][: first.start()].strip()
    segments[0] = segments[0][first.start() :]
    steps = [ParsedStep(text=s.strip(), label=v) for s, v in zip(segments, signs, strict=True)]
    answer = _ANSWER.search(steps[-1].text)
    task = row.string(data, "task", optional=True)
    solution = ParsedSolution(
        external_id="math_shepherd:" + solution_id(problem_text, [s.text for s in steps]),
        steps=steps,
        final_answer=answer.group(1) if answer else "",
        source="math_shepherd",
        metadata={"math_shepherd": {"task": task}},
        label_agent="math_shepherd",
        label_annotator="math_shepherd",
        finish_reason="solution",
    )
    problem = ParsedProblem(
        text=problem_text,
        external_id=problem_id(problem_text),
        source=f"math_shepherd:{task}" if task else "math_shepherd",
    )
    return ParsedRow(line=row.line, problem=problem, solutions=[solution])
