"""Labeled solutions read through the importers' parsers (labeling.importers), no database.

The truth of a step is its imported label folded to two values: −1 wrong, 0 or +1 correct
(PRM800K's 0 is "not wrong, no progress"), None unknown (ProcessBench steps after the first
error, unrated PRM800K steps).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any

from autolabel.engines.base import SolutionInput

REPO = Path(__file__).resolve().parent.parent.parent


def _data_dir() -> Path:
    configured = os.environ.get("STEPLAB_SHARED_DATA")
    if configured:
        return Path(configured)
    beside = REPO.parent / "shared" / "data"
    return beside if beside.exists() else Path("/work/shared/data")


DATA_DIR = _data_dir()
# The labeled public samples (shared/data/README.md): ProcessBench, PRMBench, PRM800K.
DEFAULT_FILES = (
    "processbench_sample.jsonl",
    "prmbench_sample.jsonl",
    "prm800k_sample.jsonl",
    "prm800k_mrmath_redundant_sample.jsonl",
)


def truth_of(label: int | None) -> int | None:
    return None if label is None else (-1 if label < 0 else 1)


@dataclass(frozen=True)
class LabeledSolution:
    dataset: str  # the importer's format name
    ref: str  # the solution's external id
    problem: str
    gold_answer: str
    steps: tuple[str, ...]
    truth: tuple[int | None, ...]  # per step: −1 wrong, +1 correct, None unknown
    final_answer: str = ""
    answer_correct: bool | None = None
    metadata: dict[str, Any] = field(default_factory=dict)

    @property
    def first_error(self) -> int | None:
        """0-based first wrong step; −1 when every step is known correct; None if unknown."""
        for i, value in enumerate(self.truth):
            if value == -1:
                return i
        return -1 if all(v is not None for v in self.truth) else None

    def as_input(self) -> SolutionInput:
        """What autolabel.services._solution_input builds from the stored solution."""
        return SolutionInput(
            problem=self.problem,
            gold_answer=self.gold_answer,
            steps=self.steps,
            final_answer=self.final_answer,
            answer_correct=self.answer_correct,
            step_metadata=tuple({} for _ in self.steps),
        )


def read_labeled(
    path: str | os.PathLike[str], *, limit: int | None = None
) -> list[LabeledSolution]:
    """The first `limit` solutions of a file in any format the importers read."""
    from labeling.importers import open_rows  # needs Django's apps (PRM800K's FinishReason)

    path = Path(path)
    with open_rows(path, filename=path.name) as rows:
        solutions = (
            LabeledSolution(
                dataset=rows.format,
                ref=solution.external_id,
                problem=row.problem.text,
                gold_answer=row.problem.answer,
                steps=tuple(step.text for step in solution.steps),
                truth=tuple(truth_of(step.label) for step in solution.steps),
                final_answer=solution.final_answer,
                answer_correct=solution.answer_correct,
                metadata=solution.metadata,
            )
            for row in rows
            for solution in row.solutions
            if solution.steps
        )
        return list(islice(solutions, limit))
