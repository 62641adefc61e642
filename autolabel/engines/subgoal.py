"""Embodied episodes: replay the logged success signals and predicates. Never guesses +1.

Steps carry `metadata` from the embodied importer (labeling/importers/embodied.py):
{"kind": "plan" | "action" | "observation" | "subgoal", "success", "preconditions",
"effects", "timestamp"}; the problem carries `initial_state` and `goal`, the solution's
`answer_correct` is the episode's logged outcome. The state starts as `initial_state`; a step
logged successful applies its `effects` after it is checked (an observation without a
failure signal applies the predicates it reports). Per step, in this order:

* logged as failed (`success: false`) -> −1 (`failed`), its effects not applied; except the
  last step with a signal of an episode logged as a success: the log contradicts itself, so
  it is flagged instead (below);
* an action or subgoal whose preconditions the state reached so far does not satisfy -> −1
  (`precondition`, with the unmet predicates); a success logged anyway still applies its
  effects, so one slip does not cascade;
* logged successful while the episode failed, and the step's effects reach the `goal` (or,
  without a goal, it is the last step with a signal) -> flagged: evidence kind
  "contradicts outcome", value None: the success signal and the outcome cannot both be right;
* a successful action or subgoal that passed the checks -> evidence kind "checks out",
  value None, as the symbolic engine stores a verified step: a subgoal the log says was
  reached is not proof the step was a good one;
* no signal and no preconditions -> nothing (an earlier verdict there is withdrawn).

Params (optional): `checks`, the subset of CHECKS to run (all by default).
"""

from __future__ import annotations

from typing import Any

from annotate.queues import Queue
from autolabel.calibration import calibrate
from autolabel.engines.base import (
    CHECKS_OUT,
    CONTRADICTS_OUTCOME,
    EngineResult,
    SolutionInput,
    StepSuggestion,
)
from autolabel.engines.params import check_keys
from autolabel.engines.subgoal_state import State, literals, show

SOURCE = "subgoal"
AGENT = "subgoal-checker/v1"
CHECKS = ("failed", "precondition", "contradicts_outcome", "verified")
ACTING = ("action", "subgoal")


def _checks(params: dict[str, Any]) -> tuple[str, ...]:
    check_keys(params, {"checks"}, engine=SOURCE)
    checks = params.get("checks", CHECKS)
    if not isinstance(checks, list | tuple) or set(checks) - set(CHECKS):
        raise ValueError(f"checks must be a list of {', '.join(CHECKS)}, got {checks!r}")
    return tuple(checks)


def _last_signal(metas: list[dict[str, Any]]) -> int | None:
    signaled = [i for i, m in enumerate(metas) if isinstance(m.get("success"), bool)]
    return signaled[-1] if signaled else None


def _verdict(
    index: int,
    meta: dict[str, Any],
    state: State,
    *,
    goal: list[tuple[bool, str]],
    outcome: bool | None,
    last_signal: int | None,
) -> tuple[int | None, dict[str, Any]] | None:
    """The step's (value, evidence), or None; applies its effects to `state`."""
    kind = meta.get("kind") or "step"
    success = meta.get("success") if isinstance(meta.get("success"), bool) else None
    preconditions = literals(meta.get("preconditions"))
    effects = literals(meta.get("effects"))
    unmet = state.unmet(preconditions) if kind in ACTING else []
    if success is False:
        if index == last_signal and outcome is True:
            return None, {
                "kind": CONTRADICTS_OUTCOME,
                "check": "contradicts_outcome",
                "message": f"the log marks this {kind} failed, yet the episode is logged "
                "as a success",
            }
        return -1, {"check": "failed", "message": f"the log marks this {kind} as failed"}
    if success is True or (kind == "observation" and success is None):
        state.apply(effects)
    if unmet:
        names = ", ".join(show(p) for p in unmet)
        return -1, {
            "check": "precondition",
            "message": f"precondition{'s' if len(unmet) > 1 else ''} {names} not satisfied "
            "by the state reached so far",
            "unmet": [show(p) for p in unmet],
        }
    if success is not True:
        return None
    reaches_goal = state.satisfies(goal) if goal else index == last_signal
    if outcome is False and reaches_goal:
        return None, {
            "kind": CONTRADICTS_OUTCOME,
            "check": "contradicts_outcome",
            "message": f"the log marks this {kind} successful"
            + (" and its effects reach the goal" if goal else " as the episode's last signal")
            + ", yet the episode is logged as failed",
        }
    if kind not in ACTING:
        return None
    return None, {
        "kind": CHECKS_OUT,
        "check": "verified",
        "message": "logged successful; "
        + (
            f"preconditions {', '.join(show(p) for p in preconditions)} held"
            if preconditions
            else "no preconditions logged"
        ),
        "preconditions": [show(p) for p in preconditions],
        "effects": [show(p) for p in effects],
    }


class SubgoalEngine:
    name = SOURCE
    queue = Queue.DEFAULT

    def __call__(self, solution: SolutionInput, params: dict[str, Any]) -> EngineResult:
        checks = _checks(params)
        result = EngineResult(source=SOURCE, agent=AGENT)
        metas = [dict(m) for m in solution.step_metadata] + [{}] * (
            len(solution.steps) - len(solution.step_metadata)
        )
        problem = solution.problem_metadata or {}
        state = State.of(problem.get("initial_state"))
        goal = literals(problem.get("goal"))
        last_signal = _last_signal(metas)
        for index, meta in enumerate(metas[: len(solution.steps)]):
            found = _verdict(
                index,
                meta,
                state,
                goal=goal,
                outcome=solution.answer_correct,
                last_signal=last_signal,
            )
            if found is None or found[1]["check"] not in checks:
                result.withdrawn.append(index)
                continue
            value, evidence = found
            evidence["step_kind"] = meta.get("kind")
            result.suggestions.append(
                StepSuggestion(step_index=index, value=value, evidence=evidence)
            )
        if goal:
            result.solution_evidence = {
                "subgoal": {
                    "final_state_reaches_goal": state.satisfies(goal),
                    "outcome": solution.answer_correct,
                }
            }
        return calibrate(result)
