"""GSM8K (openai/grade-school-math), two shapes.

- train/test rows `{question, answer}`: the answer is the reference solution, one step a line
  with `<<calc>>` annotations, ending in `#### N`. They make a problem and no solution.
- model solution rows `{question, ground_truth, <model>: {is_correct, solution}, ...}`: one
  problem and one solution per model key (the generator is the key), steps one a line, the
  final answer from the last `A: ...` line; `is_correct` is outcome-level only.
"""

from typing import Any

from .fields import Row
from .ids import problem_id, solution_id
from .types import ParsedProblem, ParsedRow, ParsedSolution, ParsedStep

_FIELDS = {"question", "ground_truth", "answer"}


def split_answer(text: str, mark: str) -> tuple[list[str], str]:
    """The non-empty lines before the last line starting with `mark`, and what follows it."""
    lines = [line.strip() for line in text.replace("\r\n", "\n").split("\n")]
    lines = [line for line in lines if line]
    if lines and lines[-1].startswith(mark):
        return lines[:-1], lines[-1][len(mark) :].strip()
    return lines, ""


def parse(data: dict[str, Any], row: Row) -> ParsedRow:
    question = row.string(data, "question")
    if "answer" in data:
        reference, answer = split_answer(row.string(data, "answer"), "####")
    else:
        reference, answer = split_answer(row.string(data, "ground_truth"), "A:")
    problem = ParsedProblem(
        text=question,
        external_id=problem_id(question),
        answer=answer,
        reference_solution="\n".join(reference),
        source="gsm8k",
    )
    solutions = []
    for key in data:
        if key in _FIELDS:
            continue
        model = row.mapping(data, key)
        lines, final = split_answer(row.string(model, "solution", key), "A:")
        solutions.append(
            ParsedSolution(
                external_id="gsm8k:" + solution_id(question, lines, key),
                steps=[ParsedStep(text=line) for line in lines],
                generator=key,
                final_answer=final,
                answer_correct=row.boolean(model, "is_correct", key, optional=True),
                source="gsm8k",
            )
        )
    return ParsedRow(line=row.line, problem=problem, solutions=solutions)
