"""Outcome rows for an implicit PRM: a project's solutions with a checked final answer.

Each solution whose `answer_correct` is known becomes `{id, problem, steps, answer_correct}`,
the row shape training.implicit reads. No step label is read, so a project whose solutions
only have answers checked (imported with final answers, or graded by the answer source) can
train one.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from labeling.models import Project, Solution, Step


def solution_outcome_rows(*, project: Project) -> Iterator[dict]:
    solutions = (
        Solution.objects.filter(project=project, answer_correct__isnull=False)
        .select_related("problem")
        .only("id", "external_id", "answer_correct", "problem__text")
        .order_by("id")
    )
    for chunk_start in range(0, solutions.count(), 500):
        chunk = list(solutions[chunk_start : chunk_start + 500])
        steps: dict[int, list[str]] = {s.pk: [] for s in chunk}
        for solution_id, text in (
            Step.objects.filter(solution_id__in=steps).order_by("solution_id", "index")
        ).values_list("solution_id", "text"):
            steps[solution_id].append(text)
        for solution in chunk:
            if steps[solution.pk]:
                yield {
                    "id": solution.external_id or str(solution.pk),
                    "problem": solution.problem.text,
                    "steps": steps[solution.pk],
                    "answer_correct": solution.answer_correct,
                }


def write_outcome_rows(*, project: Project, path: Path) -> int:
    count = 0
    with path.open("w", encoding="utf-8") as fh:
        for row in solution_outcome_rows(project=project):
            fh.write(json.dumps(row) + "\n")
            count += 1
    return count
