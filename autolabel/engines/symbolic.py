"""Symbolic step check: arithmetic and algebraic claims in each step, decided exactly."""

from typing import Any

from annotate.queues import Queue
from autolabel.engines.base import EngineResult, SolutionInput, StepSuggestion
from autolabel.symbolic import CHECKER_VERSION, check_step

VALUE = {"verified": 1, "refuted": -1}


class SymbolicEngine:
    name = "symbolic"
    queue = Queue.DEFAULT

    def __call__(self, solution: SolutionInput, params: dict[str, Any]) -> EngineResult:
        timeout_s = float(params.get("timeout_s", 2.0))
        result = EngineResult(source="symbolic", agent=f"sympy/{CHECKER_VERSION}")
        for index, text in enumerate(solution.steps):
            verdict = check_step(
                text,
                previous_steps=solution.steps[:index],
                problem=solution.problem,
                timeout_s=timeout_s,
            )
            if verdict.verdict not in VALUE:
                continue  # unknown: say nothing rather than guess
            result.suggestions.append(
                StepSuggestion(
                    step_index=index,
                    value=VALUE[verdict.verdict],
                    score=1.0,
                    evidence=verdict.as_evidence(),
                )
            )
        return result
