"""TRL stepwise supervision (e.g. trl-lib/math_shepherd, trl-lib/prm800k):
`{prompt, completions: [step, ...], labels: [bool, ...]}`; True is +1, False −1. A `thinking`
list (steplab's export of reasoning steps) marks the steps of the reasoning trace."""

from typing import Any

from .fields import Row, json_type
from .ids import problem_id, solution_id
from .thinking import thinking_flags
from .types import ParsedProblem, ParsedRow, ParsedSolution, ParsedStep


def parse(data: dict[str, Any], row: Row) -> ParsedRow:
    prompt = row.string(data, "prompt")
    completions = row.strings(data, "completions")
    labels = row.array(data, "labels")
    if len(labels) != len(completions):
        raise row.error("labels", f"{len(labels)} labels for {len(completions)} completions")
    for i, value in enumerate(labels):
        if not isinstance(value, bool):
            raise row.error(f"labels[{i}]", f"expected a bool, got {json_type(value)}")
    solution = ParsedSolution(
        external_id="trl:" + solution_id(prompt, completions),
        steps=[
            ParsedStep(text=t.strip(), label=1 if ok else -1, thinking=thinking)
            for t, ok, thinking in zip(
                completions, labels, thinking_flags(row, data, len(completions)), strict=True
            )
        ],
        source="trl",
        label_agent="trl",
        label_annotator="trl",
        finish_reason="solution",
    )
    problem = ParsedProblem(text=prompt, external_id=problem_id(prompt), source="trl")
    return ParsedRow(line=row.line, problem=problem, solutions=[solution])
