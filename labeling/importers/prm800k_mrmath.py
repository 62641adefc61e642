"""ReasonEval's MR-MATH rows (GAIR-NLP/ReasonEval): PRM800K test solutions with their
PRM800K step ratings. Each step is a list of strings (one element in the real data)."""

from typing import Any

from .fields import Row, json_type
from .ids import problem_id
from .types import ParsedProblem, ParsedRow, ParsedSolution, ParsedStep


def parse(data: dict[str, Any], row: Row) -> ParsedRow:
    question = row.string(data, "question")
    raw_steps = row.array(data, "model_output_step_format")
    ratings = row.array(data, "rating")
    if len(ratings) != len(raw_steps):
        raise row.error("rating", f"{len(ratings)} ratings for {len(raw_steps)} steps")
    steps = []
    for k, parts in enumerate(raw_steps):
        at = f"model_output_step_format[{k}]"
        if isinstance(parts, str):
            parts = [parts]
        if not isinstance(parts, list) or not parts:
            raise row.error(at, f"expected a non-empty list of strings, got {json_type(parts)}")
        for j, part in enumerate(parts):
            row.text(part, f"{at}[{j}]")
        steps.append(
            ParsedStep(
                text="\n".join(parts).strip(),
                label=row.rating(ratings[k], f"rating[{k}]"),
            )
        )
    row_id = row.get(data, "id")
    if isinstance(row_id, bool) or not isinstance(row_id, str | int):
        raise row.error("id", "expected a string or an integer")
    solution = ParsedSolution(
        external_id=f"prm800k_mrmath:{row_id}",
        steps=steps,
        generator=row.string(data, "generator", optional=True),
        source="prm800k_mrmath",
        metadata={"prm800k_mrmath": {"id": row_id}},
        label_agent="prm800k_mrmath",
        label_annotator="prm800k_mrmath",
        finish_reason="solution",
    )
    problem = ParsedProblem(
        text=question,
        external_id=problem_id(question),
        answer=row.string(data, "ground_truth_answer", optional=True),
        source="prm800k_mrmath",
    )
    return ParsedRow(line=row.line, problem=problem, solutions=[solution])
