"""The engine interface: pure functions from a solution to step suggestions. No Django."""

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol


@dataclass(frozen=True)
class SolutionInput:
    problem: str
    gold_answer: str
    steps: tuple[str, ...]
    final_answer: str = ""
    # Machine suggestions already stored for this solution, {"source:agent": [value per step]};
    # filled only for engines that combine other sources (consensus).
    suggestions: dict[str, tuple[int | None, ...]] = field(default_factory=dict)
    # A code problem's tests (Problem.metadata["tests"]), in any shape the code engine reads.
    tests: Any = None
    # Solution.answer_correct as stored when the engines start (None: unknown).
    answer_correct: bool | None = None
    # Step.metadata per step (agent trajectories: kind, name, arguments, tool_call_id) and
    # Problem.metadata (an agent problem's `tools`).
    step_metadata: tuple[dict[str, Any], ...] = ()
    problem_metadata: dict[str, Any] = field(default_factory=dict)
    # The operator's caps in force (autolabel.limits.limits(): AUTOLABEL_LIMITS over the
    # defaults), filled by the worker; an engine that finds none uses the defaults. The code
    # source reads its per-item sandbox budget here (labeling/rules/code_tests.py).
    limits: Mapping[str, float] = field(default_factory=dict)


# Evidence-only suggestions (value None, `evidence["kind"]` one of these): what a check found,
# shown on the step, never a rating. A value is a rating only where the label-quality harness
# (bench/label_quality.py) measured it to predict the label; a symbolic "verified" step is
# correct no more often than steps overall, and passing tests are unmeasured on labeled data.
CHECKS_OUT = "checks out"
TESTS_PASS = "tests pass"
# A logged signal the rest of the log contradicts (subgoal: a success in a failed episode).
CONTRADICTS_OUTCOME = "contradicts outcome"
# A symbolic claim failed, but its kind has not earned a −1 (autolabel/calibration/kinds.py):
# the failed claims are shown on the step with their kind's measured precision, not rated.
DOUBTFUL = "doubtful"
EVIDENCE_KINDS = (CHECKS_OUT, TESTS_PASS, CONTRADICTS_OUTCOME, DOUBTFUL)


@dataclass(frozen=True)
class StepSuggestion:
    step_index: int
    value: int | None
    score: float | None = None
    evidence: dict[str, Any] = field(default_factory=dict)


@dataclass
class EngineResult:
    source: str
    agent: str
    suggestions: list[StepSuggestion] = field(default_factory=list)
    # Engines that judge the final answer set this; it fills Solution.answer_correct.
    answer_correct: bool | None = None
    final_answer: str | None = None
    # Evidence about the whole solution (e.g. whether sources agreed); kept in its metadata.
    solution_evidence: dict[str, Any] = field(default_factory=dict)
    # Steps this run decided carry nothing from this agent: a row an earlier run left there
    # (a verdict a newer checker no longer gives) is removed. Steps left out of both lists
    # keep what they had (an engine that ran out of time on them says nothing new).
    withdrawn: list[int] = field(default_factory=list)


class Engine(Protocol):
    name: str
    queue: str

    def __call__(self, solution: SolutionInput, params: dict[str, Any]) -> EngineResult: ...
