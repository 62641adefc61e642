"""PRMBench (ssmisya/PRMBench): a PRM800K solution modified by GPT-4o to contain errors.

The solution imported is `modified_process` for `modified_question`; `error_steps` are
**1-based** and get −1, every other step +1 (PRMBench scores all steps this way). Error step
numbers past the end of the process occur in the real data; they are dropped and kept in
metadata (`error_steps_out_of_range`). The original question and process are kept in metadata.
"""

from typing import Any

from .fields import Row, json_type
from .ids import problem_id, solution_id
from .types import ParsedProblem, ParsedRow, ParsedSolution, ParsedStep

_META_KEYS = (
    "idx",
    "classification",
    "question",
    "original_question",
    "original_process",
    "modified_steps",
    "error_steps",
    "reason",
    "ground_truth",
    "original_response",
)


def _step_numbers(row: Row, data: dict[str, Any], key: str) -> list[int]:
    numbers = row.array(data, key)
    for i, value in enumerate(numbers):
        if isinstance(value, bool) or not isinstance(value, int):
            raise row.error(f"{key}[{i}]", f"expected an integer, got {json_type(value)}")
        if value < 1:
            raise row.error(f"{key}[{i}]", f"step numbers are 1-based, got {value}")
    return numbers


def parse(data: dict[str, Any], row: Row) -> ParsedRow:
    text = row.string(data, "modified_question")
    process = row.strings(data, "modified_process")
    errors = _step_numbers(row, data, "error_steps")
    _step_numbers(row, data, "modified_steps")
    idx = row.string(data, "idx", optional=True)
    classification = row.string(data, "classification", optional=True)
    wrong = {n - 1 for n in errors}
    steps = [
        ParsedStep(text=t.strip(), label=-1 if i in wrong else 1) for i, t in enumerate(process)
    ]
    meta = {key: data[key] for key in _META_KEYS if key in data}
    out_of_range = [n for n in errors if n > len(process)]
    if out_of_range:
        meta["error_steps_out_of_range"] = out_of_range
    external_id = (
        f"prmbench:{classification}:{idx}" if idx else "prmbench:" + solution_id(text, process)
    )
    solution = ParsedSolution(
        external_id=external_id,
        steps=steps,
        source=f"prmbench:{classification}" if classification else "prmbench",
        metadata={"prmbench": meta},
        label_agent="prmbench",
        label_annotator="prmbench",
        finish_reason="solution",
    )
    problem = ParsedProblem(
        text=text,
        external_id=problem_id(text),
        answer=row.string(data, "ground_truth", optional=True),
        source="prmbench",
    )
    return ParsedRow(line=row.line, problem=problem, solutions=[solution])
