"""ProcessBench (QwenLM/ProcessBench): `label` is the 0-based index of the first wrong step,
-1 when every step is correct. Steps before it are +1, it is −1, steps after are unlabeled.
A `thinking` list (steplab's export of reasoning steps) marks the reasoning trace's steps."""

from typing import Any

from .fields import Row
from .ids import problem_id, solution_id
from .thinking import thinking_flags
from .types import ParsedProblem, ParsedRow, ParsedSolution, ParsedStep


def first_error_labels(first_error: int, count: int) -> list[int | None]:
    if first_error == -1:
        return [1] * count
    return [1] * first_error + [-1] + [None] * (count - first_error - 1)


def parse(data: dict[str, Any], row: Row) -> ParsedRow:
    text = row.string(data, "problem")
    steps = row.strings(data, "steps")
    first_error = row.integer(data, "label")
    if not -1 <= first_error < len(steps):
        raise row.error(
            "label",
            f"first-error index {first_error} is not -1 or a step index (0..{len(steps) - 1})",
        )
    row_id = data.get("id")
    if row_id is not None and not isinstance(row_id, str | int):
        row.text(row_id, "id")
    subset = str(row_id).split("-", 1)[0] if row_id is not None else ""
    external_id = (
        f"processbench:{row_id}"
        if row_id is not None
        else "processbench:" + solution_id(text, steps)
    )
    labels = first_error_labels(first_error, len(steps))
    solution = ParsedSolution(
        external_id=external_id,
        steps=[
            ParsedStep(text=t.strip(), label=v, thinking=thinking)
            for t, v, thinking in zip(
                steps, labels, thinking_flags(row, data, len(steps)), strict=True
            )
        ],
        generator=row.string(data, "generator", optional=True),
        answer_correct=row.boolean(data, "final_answer_correct", optional=True),
        source="processbench",
        metadata={"processbench": {"id": row_id, "subset": subset, "label": first_error}},
        label_agent="processbench",
        label_annotator="processbench",
        finish_reason="found_error" if first_error >= 0 else "solution",
    )
    problem = ParsedProblem(
        text=text,
        external_id=problem_id(text),
        source=f"processbench:{subset}" if subset else "processbench",
    )
    return ParsedRow(line=row.line, problem=problem, solutions=[solution])
