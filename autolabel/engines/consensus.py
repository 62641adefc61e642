"""The consensus source: runs after the others and keeps labels only where they agree."""

from typing import Any

from annotate.queues import Queue
from autolabel.calibration import calibrate
from autolabel.consensus import ConsensusPolicy, combine
from autolabel.engines.base import EngineResult, SolutionInput, StepSuggestion


class ConsensusEngine:
    name = "consensus"
    queue = Queue.DEFAULT
    needs_suggestions = True

    def __call__(self, solution: SolutionInput, params: dict[str, Any]) -> EngineResult:
        policy = ConsensusPolicy.from_params(params)
        outcome = combine(solution.suggestions, steps=len(solution.steps), policy=policy)
        result = EngineResult(source="consensus", agent="consensus:" + "+".join(policy.required))
        evidence = {
            "consensus": outcome.agreed,
            "first_errors": outcome.first_errors,
            "reason": outcome.reason,
            "required": list(policy.required),
        }
        result.suggestions = [
            StepSuggestion(step_index=i, value=value, evidence=evidence)
            for i, value in enumerate(outcome.labels)
            if value is not None
        ]
        result.solution_evidence = evidence
        return calibrate(result)  # measured per required set: the agent names it
