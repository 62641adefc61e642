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

A public PRM (Qwen2.5-Math-PRM, Math-Shepherd, a sequence classifier) is the same source with
a ``convention`` (and optionally ``backend: "vllm"`` and a server ``url``): its params and
scorer are autolabel.engines.prm_public's, its scores are thresholded and calibrated alike, and
its agent names the convention (``prm:qwen:<model>``), so its calibration is its own.

An item's scoring has ``prm_item_s`` wall seconds (AUTOLABEL_LIMITS, ``SolutionInput.limits``;
PRM_ITEM_S outside a run), as the other engines' items have theirs (autolabel.deadline): past
them the item fails "skipped: over budget: ..." and the rest of the chunk goes on. On a vLLM
server every request's timeout and retry is cut to what is left, each item of a prefetched
chunk on its own budget (VllmPoolingPRM.score_each); a local model stops at the first batch
boundary past the deadline (a forward pass is not interrupted), and a prefetched batch that
overran leaves its solutions to be scored one by one, each on its own budget.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from annotate.queues import Queue
from autolabel.calibration import calibrate
from autolabel.deadline import ItemDeadline
from autolabel.errors import BackendUnavailable, ItemSkipped

from . import prm_public
from .base import EngineResult, SolutionInput, StepSuggestion
from .params import agent_id, int_param

PARAMS = prm_public.ALL_KEYS

_scorers: dict[tuple[str, str | None], Any] = {}
_scorers_lock = threading.Lock()
# Probabilities scored ahead for a chunk (PrmEngine.prefetch), keyed by (scorer, problem, steps).
# An item whose scoring failed in the prefetch keeps its failure (over budget, a bad answer),
# so that it is not scored, and its budget spent, a second time.
_prefetched: OrderedDict[tuple[str, str, tuple[str, ...]], list[float] | Exception] = OrderedDict()
PREFETCH_KEEP = 4096
# Wall seconds of one item's scoring (AUTOLABEL_LIMITS["prm_item_s"]): a hanging or slow PRM
# server must not hold a chunk (its task's soft limit is 1800 s) on one solution.
PRM_ITEM_S = 300.0


def scorer_for(path: str, device: str | None = None) -> Any:
    """One scorer per (path, device) per process: loading a model is the slow part."""
    key = (path, device)
    with _scorers_lock:
        if key not in _scorers:
            from training.scorers import load_scorer

            _scorers[key] = load_scorer(path, device=device)
        return _scorers[key]


def scorer_of(params: dict[str, Any]) -> tuple[str, Any]:
    """(key, scorer) for checked params: steplab's trained PRM, or a public one."""
    if prm_public.convention_of(params) == "steplab":
        return params["path"], scorer_for(params["path"], params.get("device"))
    key = prm_public.scorer_key(params)
    with _scorers_lock:
        if (key, None) not in _scorers:
            _scorers[(key, None)] = prm_public.build_scorer(params)
        return key, _scorers[(key, None)]


def clear_scorer_cache() -> None:
    with _scorers_lock:
        for scorer in _scorers.values():
            close = getattr(scorer, "close", None)
            if close is not None:
                close()
        _scorers.clear()
        _prefetched.clear()


def _remember(
    key: tuple[str, str, tuple[str, ...]], probabilities: list[float] | Exception
) -> None:
    with _scorers_lock:
        _prefetched[key] = probabilities
        while len(_prefetched) > PREFETCH_KEEP:
            _prefetched.popitem(last=False)


def _recall(key: tuple[str, str, tuple[str, ...]]) -> list[float] | Exception | None:
    with _scorers_lock:
        return _prefetched.pop(key, None)


def item_deadline(solution: SolutionInput) -> ItemDeadline:
    """One item's scoring budget (prm_item_s)."""
    seconds = solution.limits.get("prm_item_s", PRM_ITEM_S)
    return ItemDeadline(seconds, limit="prm_item_s", spending="its scoring")


def threshold_param(params: dict[str, Any]) -> float:
    value = params.get("threshold", 0.5)
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value < 1:
        raise ValueError(f"threshold must be a number between 0 and 1, got {value!r}")
    return float(value)


def check_options(params: dict[str, Any]) -> None:
    """Every param but the model's whereabouts (a run's model_id becomes a path later)."""
    prm_public.check_options(params)
    threshold_param(params)


def check_params(params: dict[str, Any]) -> None:
    check_options(params)
    prm_public.check_required(params)


def agent_of(params: dict[str, Any]) -> tuple[str, str]:
    """(model, agent): a public PRM's agent names its convention."""
    model = prm_public.model_name(params)
    convention = prm_public.convention_of(params)
    if convention == "steplab":
        return model, agent_id("prm", model)
    return model, agent_id("prm", convention, model)


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
        batch instead of one per solution), or on a server each on its own budget; __call__
        then takes each one's probabilities (or its failure). Returns how many were kept."""
        check_params(params)
        todo = [s for s in solutions if s.steps]
        if not todo:
            return 0
        key, scorer = scorer_of(params)
        batch_size = int_param(params, "batch_size", 8)
        if hasattr(scorer, "score_each"):  # a server: one budget per item
            found = scorer.score_each(
                [(s.problem, list(s.steps)) for s in todo],
                batch_size,
                new_deadline=lambda: item_deadline(todo[0]),
            )
            kept = 0
            for solution, scored in zip(todo, found, strict=True):
                if not isinstance(scored, BackendUnavailable):  # retried at its call
                    _remember((key, solution.problem, solution.steps), scored)
                    kept += 1
            return kept
        kept = 0
        for start in range(0, len(todo), batch_size):
            kept += self._prefetch_batch(key, scorer, todo[start : start + batch_size], params)
        return kept

    @staticmethod
    def _prefetch_batch(
        key: str, scorer: Any, batch: list[SolutionInput], params: dict[str, Any]
    ) -> int:
        """One forward batch of a local model, on one item's budget: a batch that overruns it
        is dropped, its solutions scored one by one at their calls, each on its own."""
        too_long = getattr(scorer, "too_long", ())  # public scorers: skip, score the rest
        batch_size = int_param(params, "batch_size", 8)
        deadline = item_deadline(batch[0])
        while True:
            items = [(s.problem, list(s.steps)) for s in batch]
            try:
                scores = scorer.score_many(items, batch_size=batch_size, deadline=deadline)
                break
            except too_long as exc:  # that one fails alone when it is processed
                batch = batch[: exc.index] + batch[exc.index + 1 :]
            except ItemSkipped:
                return 0
        for solution, probabilities in zip(batch, scores, strict=True):
            _remember((key, solution.problem, solution.steps), probabilities)
        return len(batch)

    def __call__(self, solution: SolutionInput, params: dict[str, Any]) -> EngineResult:
        check_params(params)
        threshold = threshold_param(params)
        model, agent = agent_of(params)
        result = EngineResult(source="prm", agent=agent)
        if not solution.steps:
            return result
        key, scorer = scorer_of(params)
        probabilities = _recall((key, solution.problem, solution.steps))
        if isinstance(probabilities, Exception):
            raise probabilities  # its scoring failed in the prefetch: once is enough
        if probabilities is None:
            (probabilities,) = scorer.score_many(
                [(solution.problem, list(solution.steps))],
                batch_size=int_param(params, "batch_size", 8),
                deadline=item_deadline(solution),
            )
        evidence: dict[str, Any] = {"model": model, "threshold": threshold}
        if params.get("convention", "steplab") != "steplab":
            evidence["convention"] = params["convention"]
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
