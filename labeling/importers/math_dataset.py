"""MATH (hendrycks/math; the MATH-500 test split of PRM800K): problems with a reference
solution and answer, no candidate solution. `unique_id` is the problem's id."""

from typing import Any

from .fields import Row
from .ids import problem_id
from .types import ParsedProblem, ParsedRow


def parse(data: dict[str, Any], row: Row) -> ParsedRow:
    text = row.string(data, "problem")
    unique_id = row.string(data, "unique_id", optional=True)
    meta = {
        key: row.string(data, key, optional=True)
        for key in ("subject", "level", "unique_id")
        if key in data
    }
    problem = ParsedProblem(
        text=text,
        external_id=f"math:{unique_id}" if unique_id else problem_id(text),
        answer=row.string(data, "answer", optional=True),
        reference_solution=row.string(data, "solution", optional=True),
        source="math",
        metadata={"math": meta} if meta else {},
    )
    return ParsedRow(line=row.line, problem=problem)
