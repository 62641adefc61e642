"""Per-step estimates from rollouts, and the evidence that lets a label be recomputed."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from autolabel.engines.base import StepSuggestion
from autolabel.prompts import RolloutPrompt

from .grading import answers_match, extract_final_answer
from .sampler import RolloutBatch

PromptFor = Callable[[Sequence[str]], RolloutPrompt]  # steps so far -> prompt
SAMPLE_CHARS = 600


@dataclass(frozen=True)
class StepEstimate:
    step_index: int
    value: int  # +1: some rollout from this prefix reaches the gold answer; -1: none does
    method: str  # "mc", "binary_search" or "final_answer"
    correct: int | None = None
    total: int | None = None
    unknown: int = 0
    inferred: bool = False  # binary search: implied by a later successful probe, not sampled
    cached: bool = False
    sample_correct: str | None = None
    sample_wrong: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def score(self) -> float | None:
        return self.correct / self.total if self.total else None

    @classmethod
    def from_batch(cls, step_index: int, batch: RolloutBatch, method: str) -> StepEstimate:
        return cls(
            step_index=step_index,
            value=1 if batch.n_correct > 0 else -1,
            method=method,
            correct=batch.n_correct,
            total=batch.total,
            unknown=batch.n_unknown,
            cached=batch.cached,
            sample_correct=batch.first(True),
            sample_wrong=batch.first(False),
        )


@dataclass(frozen=True)
class FinalAnswer:
    text: str | None
    correct: bool | None  # None: no final answer, or the check could not decide


def final_answer_of(steps: Sequence[str], final_answer: str, gold: str) -> FinalAnswer:
    """The solution's own final answer (given, or extracted from its steps), checked."""
    text = final_answer.strip() or extract_final_answer("\n".join(steps)) or None
    if text is None:
        return FinalAnswer(None, None)
    return FinalAnswer(text, answers_match(text, gold))


def final_estimate(step_index: int, final: FinalAnswer) -> StepEstimate:
    """The last step is labeled by the solution's own final answer (as in Math-Shepherd)."""
    assert final.correct is not None
    return StepEstimate(
        step_index=step_index,
        value=1 if final.correct else -1,
        method="final_answer",
        correct=int(final.correct),
        total=1,
        extra={"final_answer": final.text},
    )


def truncate(text: str | None, limit: int = SAMPLE_CHARS) -> str | None:
    if text is None or len(text) <= limit:
        return text
    half = limit // 2
    return f"{text[:half]} … {text[-half:]}"


def to_suggestion(
    estimate: StepEstimate, *, completer: str, sampling: dict[str, Any], grader: str
) -> StepSuggestion:
    evidence: dict[str, Any] = {
        "method": estimate.method,
        "correct": estimate.correct,
        "total": estimate.total,
        "unknown": estimate.unknown,
        "completer": completer,
        "sampling": sampling,
        "grader": grader,
    }
    if estimate.inferred:
        evidence["inferred"] = True
    if estimate.cached:
        evidence["cached"] = True
    if estimate.sample_correct is not None:
        evidence["sample_correct"] = truncate(estimate.sample_correct)
    if estimate.sample_wrong is not None:
        evidence["sample_wrong"] = truncate(estimate.sample_wrong)
    evidence.update(estimate.extra)
    return StepSuggestion(
        step_index=estimate.step_index,
        value=estimate.value,
        score=estimate.score,
        evidence=evidence,
    )
