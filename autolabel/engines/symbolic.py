"""Symbolic step check: arithmetic and algebraic claims in each step, decided exactly.

A refuted step is a −1 rating. A verified step is evidence only (value None, evidence kind
"checks out", with the checked claims): on the public labeled samples a verified step is
correct no more often than any step (bench/label_quality.py), so it is not a +1. Scores
and their provenance come from the measured table (autolabel/calibration/symbolic.json).
"""

from typing import Any

from annotate.queues import Queue
from autolabel.calibration import calibrate
from autolabel.engines.base import CHECKS_OUT, EngineResult, SolutionInput, StepSuggestion
from autolabel.engines.params import timeout_param
from autolabel.symbolic import CHECKER_VERSION, check_step
from autolabel.symbolic.verdicts import REFUTED, VERIFIED, undecided_for_now

AGENT = f"sympy/{CHECKER_VERSION}"


class SymbolicEngine:
    name = "symbolic"
    queue = Queue.DEFAULT

    def __call__(self, solution: SolutionInput, params: dict[str, Any]) -> EngineResult:
        timeout_s = timeout_param(params, 2.0)
        result = EngineResult(source="symbolic", agent=AGENT)
        for index, text in enumerate(solution.steps):
            verdict = check_step(
                text,
                previous_steps=solution.steps[:index],
                problem=solution.problem,
                timeout_s=timeout_s,
            )
            evidence = verdict.as_evidence()
            if verdict.verdict == REFUTED:
                value = -1
            elif verdict.verdict == VERIFIED:
                value, evidence["kind"] = None, CHECKS_OUT
            else:  # unknown: say nothing rather than guess
                if not undecided_for_now(verdict):
                    result.withdrawn.append(index)  # an earlier verdict there is withdrawn
                continue
            result.suggestions.append(
                StepSuggestion(step_index=index, value=value, score=None, evidence=evidence)
            )
        return calibrate(result)  # a −1's score: how often symbolic −1s were right
