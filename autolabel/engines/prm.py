"""The prm source: a trained PRM scores every step.

The scorer follows the model's kind, read from its directory (training.scorers.load_scorer):
training.score.PRMScorer for a pointwise or pairwise PRM, training.implicit.ImplicitPRMScorer
for an implicit PRM trained from outcome labels (its step score is sigmoid of the step's
implicit reward, so the same threshold applies; PrmModel.kind shows which).

Params, checked by autolabel.services before a run is created (which resolves ``model_id``,
a registered PrmModel, to its ``path`` and ``model`` name; the engine only sees a path)::

    {"path": "/models/prm", "threshold": 0.5, "batch_size": 8}

A step whose probability of being correct is at least ``threshold`` gets +1, else −1. Its
score is how often such a verdict of this model was right at that probability, when the model
was measured (autolabel.calibration: bins written by ``bench/label_quality.py --calibrate
--sources prm``), else the probability itself, marked unmeasured; the probability is kept in
the evidence (``probability``, ``raw_score``). The solution's metadata gets a summary under
"prm" that the active-learning queue order reads (training_runs.active_learning): the minimum
step probability, the predicted first error, how far the minimum is from the threshold, and
whether the answer is a "convincing wrong" one (PRM800K): every step rated correct but the
final answer wrong.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from annotate.queues import Queue
from autolabel.calibration import calibrate

from .base import EngineResult, SolutionInput, StepSuggestion
from .params import agent_id, check_keys, int_param

PARAMS = {"model_id", "model", "path", "threshold", "batch_size", "device"}

_scorers: dict[tuple[str, str | None], Any] = {}
_scorers_lock = threading.Lock()
# Probabilities scored ahead for a chunk (PrmEngine.prefetch), keyed by (path, problem, steps).
_prefetched: OrderedDict[tuple[str, str, tuple[str, ...]], list[float]] = OrderedDict()
PREFETCH_KEEP = 4096


def scorer_for(path: str, device: str | None = None) -> Any:
    """One scorer per (path, device) per process: loading a model is the slow part."""
    key = (path, device)
    with _scorers_lock:
        if key not in _scorers:
            from training.scorers import load_scorer

            _scorers[key] = load_scorer(path, device=device)
        return _scorers[key]


def clear_scorer_cache() -> None:
    with _scorers_lock:
        _scorers.clear()
        _prefetched.clear()


def _remember(key: tuple[str, str, tuple[str, ...]], probabilities: list[float]) -> None:
    with _scorers_lock:
        _prefetched[key] = probabilities
        while len(_prefetched) > PREFETCH_KEEP:
            _prefetched.popitem(last=False)


def _recall(key: tuple[str, str, tuple[str, ...]]) -> list[float] | None:
    with _scorers_lock:
        return _prefetched.pop(key, None)


def threshold_param(params: dict[str, Any]) -> float:
    value = params.get("threshold", 0.5)
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value < 1:
        raise ValueError(f"threshold must be a number between 0 and 1, got {value!r}")
    return float(value)


def check_params(params: dict[str, Any]) -> None:
    check_keys(params, PARAMS, engine="prm")
    if not isinstance(params.get("path"), str) or not params["path"]:
        raise ValueError("prm params need a path (or a model_id, resolved to one)")
    threshold_param(params)
    int_param(params, "batch_size", 8)


def summary(
    probabilities: list[float], *, threshold: float, answer_correct: bool | None, model: str
) -> dict[str, Any]:
    """Solution.metadata["prm"]: what the queue's active-learning order sorts on."""
    lowest = min(probabilities)
    first_error = next((i for i, p in enumerate(probabilities) if p < threshold), None)
    return {
        "model": model,
        "threshold": threshold,
        "min_probability": round(lowest, 6),
        "first_error": first_error,
        "uncertainty": round(abs(lowest - threshold), 6),
        "convincing_wrong": None
        if answer_correct is None
        else (answer_correct is False and first_error is None),
    }


class PrmEngine:
    name = "prm"
    queue = Queue.GPU

    def prefetch(self, solutions: Sequence[SolutionInput], params: dict[str, Any]) -> int:
        """Score a chunk's solutions in padded batches of `batch_size` (one forward pass per
        batch instead of one per solution); __call__ then takes each one's probabilities."""
        check_params(params)
        todo = [s for s in solutions if s.steps]
        if not todo:
            return 0
        scorer = scorer_for(params["path"], params.get("device"))
        items = [(s.problem, list(s.steps)) for s in todo]
        scores = scorer.score_many(items, batch_size=int_param(params, "batch_size", 8))
        for solution, probabilities in zip(todo, scores, strict=True):
            _remember((params["path"], solution.problem, solution.steps), probabilities)
        return len(todo)

    def __call__(self, solution: SolutionInput, params: dict[str, Any]) -> EngineResult:
        check_params(params)
        threshold = threshold_param(params)
        model = str(params.get("model") or params["path"])
        result = EngineResult(source="prm", agent=agent_id("prm", model))
        if not solution.steps:
            return result
        probabilities = _recall((params["path"], solution.problem, solution.steps))
        if probabilities is None:
            scorer = scorer_for(params["path"], params.get("device"))
            (probabilities,) = scorer.score(
                solution.problem,
                [list(solution.steps)],
                batch_size=int_param(params, "batch_size", 8),
            )
        evidence = {"model": model, "threshold": threshold}
        result.suggestions = [
            StepSuggestion(
                step_index=i,
                value=1 if p >= threshold else -1,
                score=float(p),
                evidence={"probability": round(float(p), 6), **evidence},
            )
            for i, p in enumerate(probabilities)
        ]
        result.solution_evidence = summary(
            probabilities, threshold=threshold, answer_correct=solution.answer_correct, model=model
        )
        # The verdict is the model's probability against the threshold; its score is then how
        # often such a verdict was right (the probability stays in evidence).
        return calibrate(result)
