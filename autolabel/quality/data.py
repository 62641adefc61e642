"""Labeled solutions read through the importers' parsers (labeling.importers), no database.

The truth of a step is its imported label folded to two values: −1 wrong, 0 or +1 correct
(PRM800K's 0 is "not wrong, no progress"), None unknown (ProcessBench steps after the first
error, unrated PRM800K steps, PRMBench steps after the first error that are not in
`error_steps`).

PRMBench's importer gives +1 to every step not in `error_steps`, as PRMBench scores them, but
`error_steps` lists the steps GPT-4o's modification made wrong, not every wrong step: the steps
after a modified one carry its wrong value on (`prmbench:missing_condition:prm_train_p1_388`:
step 7 "Which is $9596$" is marked, step 8 "So $98 * 102 = 9596$" is +1). After the first
error a PRMBench +1 says only "no new error was introduced here", so the harness treats it as
unknown; a step marked wrong there stays −1 (the dataset does say it is wrong).
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


NO_DOMAIN = "(none)"
# The domain of a dataset format's rows when a row names none (steplab rows may name theirs).
FORMAT_DOMAINS = {
    **dict.fromkeys(
        ("prm800k", "prm800k_mrmath", "processbench", "prmbench", "math_shepherd", "gsm8k", "math"),
        "math",
    ),
    "messages": "agent",
}


def domain_of(fmt: str, row_domain: str, default: str = "") -> str:
    """A row's own domain, else the caller's default, else its format's, else NO_DOMAIN."""
    return row_domain or default or FORMAT_DOMAINS.get(fmt, NO_DOMAIN)


def truth_of(label: int | None) -> int | None:
    return None if label is None else (-1 if label < 0 else 1)


def known_truth(dataset: str, labels: list[int | None]) -> tuple[int | None, ...]:
    """Per step −1, +1 or None (see the module's docstring) from the imported labels."""
    truth = [truth_of(label) for label in labels]
    if dataset == "prmbench" and -1 in truth:
        first = truth.index(-1)
        truth = [t if i <= first or t == -1 else None for i, t in enumerate(truth)]
    return tuple(truth)


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
    # Step.metadata per step and Problem.metadata as the import would store them (agent,
    # embodied and citation checkers read them).
    step_metadata: tuple[dict[str, Any], ...] = ()
    problem_metadata: dict[str, Any] = field(default_factory=dict)
    domain: str = NO_DOMAIN  # the problem's (domain_of)

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
            step_metadata=self.step_metadata or tuple({} for _ in self.steps),
            problem_metadata=self.problem_metadata,
        )


def read_labeled(
    path: str | os.PathLike[str], *, limit: int | None = None, domain: str = ""
) -> list[LabeledSolution]:
    """The first `limit` solutions of a file in any format the importers read; `domain`:
    that of rows that name none (else their format's, see domain_of)."""
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
                truth=known_truth(rows.format, [step.label for step in solution.steps]),
                final_answer=solution.final_answer,
                answer_correct=solution.answer_correct,
                metadata=solution.metadata,
                step_metadata=tuple(step.metadata for step in solution.steps),
                problem_metadata=row.problem.metadata,
                domain=domain_of(rows.format, row.problem.domain, domain),
            )
            for row in rows
            for solution in row.solutions
            if solution.steps
        )
        return list(islice(solutions, limit))
