"""The rollout engine: Monte-Carlo or binary-search step labels from a completion model.

Params (all optional but ``backend``)::

    {
      "backend": {...},               # see autolabel.completers.config
      "method": "mc",                 # or "binary_search"
      "n": 8,                         # rollouts per prefix (mc)
      "k": 8,                         # rollouts per probe (binary_search)
      "temperature": 0.7, "top_p": 1.0, "max_tokens": 512, "seed": 0,
      "stop": null,                   # extra stop strings
      "step_separator": "\\n",        # written after each step of the prefix
      "cache": true                   # reuse rollouts of an identical prefix and sampling
    }

A step's score is the share of its rollouts that reached the gold answer (kept in evidence as
``raw_score``) mapped to how often such a verdict of this agent was right, when it was measured
(autolabel.calibration), else that share itself, marked unmeasured.

The cache is the database (autolabel.models.RolloutCacheEntry) when Django is set up, else
one in-memory cache per engine.

An item's rollouts (every model call, retries included) share ``rollout_item_s`` wall seconds
(AUTOLABEL_LIMITS, ``SolutionInput.limits``; ROLLOUT_ITEM_S outside a run): past them the item
is skipped, "skipped: over budget: ..." (autolabel.deadline), with no label from a call cut short.
"""

from __future__ import annotations

import functools
from typing import Any

from annotate.queues import Queue
from autolabel.calibration import calibrate
from autolabel.completers import SamplingParams, completer_from_config
from autolabel.deadline import ItemDeadline
from autolabel.prompts import DEFAULT_SEPARATOR, default_stop, rollout_prompt
from autolabel.rollouts import (
    MemoryRolloutCache,
    RolloutCache,
    RolloutSampler,
    binary_search,
    final_answer_of,
    grader_version,
    monte_carlo,
    to_suggestion,
)

from .base import EngineResult, SolutionInput
from .params import agent_id, check_keys, float_param, int_param, seed_param, stop_param

METHODS = ("mc", "binary_search")
# Wall seconds of one item's rollouts (AUTOLABEL_LIMITS["rollout_item_s"]): a slow or stuck
# model server must not hold a chunk (its task's soft limit is 1800 s) on one solution.
ROLLOUT_ITEM_S = 1200.0
PARAMS = {
    "backend",
    "method",
    "n",
    "k",
    "temperature",
    "top_p",
    "max_tokens",
    "seed",
    "stop",
    "step_separator",
    "cache",
}


def _django_ready() -> bool:
    try:
        from django.apps import apps
        from django.conf import settings
    except ImportError:
        return False
    return settings.configured and apps.ready


def sampling_params(params: dict[str, Any], *, method: str, tokenizer: Any) -> SamplingParams:
    count_key = "k" if method == "binary_search" else "n"
    extra_stop = stop_param(params) or ()
    stop = tuple(dict.fromkeys((*(default_stop(tokenizer) or ()), *extra_stop))) or None
    return SamplingParams(
        n=int_param(params, count_key, 8),
        temperature=float_param(params, "temperature", 0.7),
        top_p=float_param(params, "top_p", 1.0),
        max_tokens=int_param(params, "max_tokens", 512),
        stop=stop,
        seed=seed_param(params),
    )


class RolloutEngine:
    name = "rollout"
    queue = Queue.ROLLOUTS
    source = "rollout"

    def __init__(self, *, cache: RolloutCache | None = None) -> None:
        self._cache = cache
        self._memory = MemoryRolloutCache()

    def cache_for(self, params: dict[str, Any]) -> RolloutCache | None:
        if not params.get("cache", True):
            return None
        if self._cache is not None:
            return self._cache
        if _django_ready():
            from autolabel.rollouts.db_cache import DbRolloutCache

            return DbRolloutCache()
        return self._memory

    def __call__(self, solution: SolutionInput, params: dict[str, Any]) -> EngineResult:
        check_keys(params, PARAMS, engine="rollout")
        method = params.get("method", "mc")
        if method not in METHODS:
            raise ValueError(f"method must be one of {METHODS}, got {method!r}")
        if "backend" not in params:
            raise ValueError("rollout params need a backend")
        gold = solution.gold_answer.strip()
        if not gold:
            raise ValueError("rollout labels need the problem's gold answer")
        separator = params.get("step_separator", DEFAULT_SEPARATOR)
        if not isinstance(separator, str):
            raise ValueError(f"step_separator must be a string, got {separator!r}")

        deadline = ItemDeadline(
            solution.limits.get("rollout_item_s", ROLLOUT_ITEM_S),
            limit="rollout_item_s",
            spending="its rollouts",
        )
        completer = completer_from_config(params["backend"], gold=gold)
        tokenizer = getattr(completer, "tokenizer", None)
        sampling = sampling_params(params, method=method, tokenizer=tokenizer)
        grader = grader_version()
        sampler = RolloutSampler(
            completer,
            sampling,
            gold=gold,
            cache=self.cache_for(params),
            grader_id=grader,
            deadline=deadline,
        )
        prompt_for = functools.partial(
            rollout_prompt, solution.problem, tokenizer=tokenizer, separator=separator
        )
        steps = list(solution.steps)
        final = final_answer_of(steps, solution.final_answer, gold)
        label = monte_carlo if method == "mc" else binary_search
        estimates = label(steps, sampler=sampler, prompt_for=prompt_for, final=final)

        evidence_params = sampling.as_dict()
        suggestions = [
            to_suggestion(e, completer=completer.id, sampling=evidence_params, grader=grader)
            for e in estimates
        ]
        totals = {"sampled": sampler.sampled, "cached": sampler.from_cache}
        for s in suggestions:
            s.evidence["solution_rollouts"] = totals
        result = EngineResult(
            source=self.source,
            agent=agent_id(method, completer.id),
            suggestions=suggestions,
            answer_correct=final.correct,
            final_answer=final.text,
        )
        return calibrate(result)  # the MC share mapped to how often such a verdict was right
