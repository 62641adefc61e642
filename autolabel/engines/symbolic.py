"""Symbolic step check: arithmetic and algebraic claims in each step, decided exactly.

A refuted step is a −1 rating only when one of its failed claims is of a kind that has earned
it (autolabel/calibration/kinds.py: measured precision ≥ 95% with enough cases, per checker
version, on the develop part of the ProcessBench dev set). A step whose failed claims are all
of unearned kinds gets evidence only (value None, evidence kind "doubtful", listing the failed
claims and each kind's measured precision): shown on the step, never a rating, no vote in
consensus or exports. Either way the evidence names the failed claims' kinds (``kinds``) and
what was measured of each (``gate``). A verified step is evidence only (value None, evidence kind
"checks out", with the checked claims): on the public labeled samples a verified step is
correct no more often than any step (bench/label_quality.py), so it is not a +1. Scores
and their provenance come from the measured table (autolabel/calibration/symbolic.json).
"""

from typing import Any

from annotate.queues import Queue
from autolabel.calibration import calibrate
from autolabel.calibration.kinds import KindGate, apply_gate, gate_for
from autolabel.engines.base import CHECKS_OUT, EngineResult, SolutionInput, StepSuggestion
from autolabel.engines.params import timeout_param
from autolabel.symbolic import CHECKER_VERSION
from autolabel.symbolic.batch import CHECK_ITEM_S, check_steps
from autolabel.symbolic.verdicts import REFUTED, VERIFIED, StepVerdict, undecided_for_now

AGENT = f"sympy/{CHECKER_VERSION}"


class SymbolicEngine:
    name = "symbolic"
    queue = Queue.DEFAULT

    def __call__(self, solution: SolutionInput, params: dict[str, Any]) -> EngineResult:
        timeout_s = timeout_param(params, 2.0)
        result = EngineResult(source="symbolic", agent=AGENT)
        gate = gate_for(CHECKER_VERSION)
        item_s = solution.limits.get("check_item_s", CHECK_ITEM_S)
        verdicts = check_steps(
            solution.steps, problem=solution.problem, timeout_s=timeout_s, item_s=item_s
        )
        for index, verdict in enumerate(verdicts):
            evidence = verdict.as_evidence()
            if verdict.verdict == REFUTED:
                value = gated(verdict, evidence, gate)
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


def gated(verdict: StepVerdict, evidence: dict[str, Any], gate: KindGate) -> int | None:
    """−1 when a failed claim is of an earned kind, else None ("doubtful" evidence)."""
    return -1 if apply_gate(evidence, (c.kind for c in verdict.failed), gate) else None
