"""The judge engine: a generative critic names the earliest wrong step (ProcessBench prompt).

Params (all optional but ``backend``, which must be a chat-capable backend: "openai" or
"transformers", see autolabel.completers.config)::

    {
      "backend": {...},
      "votes": 1,            # samples per solution; the majority index wins
      "temperature": 0.0,    # 0.7 by default when votes > 1
      "top_p": 1.0, "max_tokens": 1024, "seed": 0
    }

A verdict's score is the share of votes that agree with it (kept in evidence as ``raw_score``)
mapped to how often such a verdict of this critic was right, when it was measured
(autolabel.calibration), else that share itself, marked unmeasured.

An unreadable reply gives no suggestions; the result's ``evidence`` keeps the raw replies.

An item's votes (every model call, retries included) share ``judge_item_s`` wall seconds
(AUTOLABEL_LIMITS, ``SolutionInput.limits``; JUDGE_ITEM_S outside a run): past them the item is
skipped, "skipped: over budget: ..." (autolabel.deadline).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from annotate.queues import Queue
from autolabel.calibration import calibrate
from autolabel.completers import completer_from_config
from autolabel.deadline import ItemDeadline
from autolabel.judge import PROMPT_VERSION, judge_solution, verdict_suggestions

from .base import EngineResult, SolutionInput
from .params import agent_id, check_keys, float_param, int_param, seed_param

PARAMS = {"backend", "votes", "temperature", "top_p", "max_tokens", "seed"}
RAW_CHARS = 2000
# Wall seconds of one item's judge calls (AUTOLABEL_LIMITS["judge_item_s"]).
JUDGE_ITEM_S = 600.0


@dataclass
class JudgeResult(EngineResult):
    """An EngineResult with the critic's raw replies, for a reply that gave no labels."""

    evidence: dict[str, Any] = field(default_factory=dict)


def sampling_of(params: dict[str, Any]) -> dict[str, Any]:
    """The judge's sampling params, checked (also when a run is created: engines/checks.py)."""
    votes = int_param(params, "votes", 1, maximum=64)
    return {
        "votes": votes,
        "temperature": float_param(params, "temperature", 0.7 if votes > 1 else 0.0, maximum=2.0),
        "top_p": float_param(params, "top_p", 1.0, maximum=1.0),
        "max_tokens": int_param(params, "max_tokens", 1024, maximum=131_072),
        "seed": seed_param(params),
    }


class JudgeEngine:
    name = "judge"
    queue = Queue.ROLLOUTS
    source = "judge"

    def __call__(self, solution: SolutionInput, params: dict[str, Any]) -> JudgeResult:
        check_keys(params, PARAMS, engine="judge")
        if "backend" not in params:
            raise ValueError("judge params need a backend")
        if params["backend"].get("kind") == "scripted":
            raise ValueError("the judge needs a chat backend (openai or transformers)")
        sampling = sampling_of(params)
        votes = sampling["votes"]
        deadline = ItemDeadline(
            solution.limits.get("judge_item_s", JUDGE_ITEM_S),
            limit="judge_item_s",
            spending="its judge calls",
        )
        critic = completer_from_config(params["backend"])
        verdict = judge_solution(
            critic,
            solution.problem,
            solution.steps,
            votes=votes,
            temperature=sampling["temperature"],
            top_p=sampling["top_p"],
            max_tokens=sampling["max_tokens"],
            seed=sampling["seed"],
            deadline=deadline,
        )
        suggestions = verdict_suggestions(
            verdict, len(solution.steps), model=critic.id, sampling=sampling
        )
        evidence: dict[str, Any] = {
            "model": critic.id,
            "prompt": PROMPT_VERSION,
            "first_error": verdict.first_error,
            "votes": verdict.votes,
        }
        if verdict.first_error is None:
            evidence["unparsed"] = True
            evidence["replies"] = [r[:RAW_CHARS] for r in verdict.replies]
        result = JudgeResult(
            source=self.source,
            agent=agent_id("judge", critic.id),
            suggestions=suggestions,
            evidence=evidence,
        )
        return calibrate(result)  # the vote share mapped to how often such a verdict was right
