"""Graph reasoning steps: every claim about the problem's graph decided exactly (networkx).

The problem's metadata carries the graph and the task (labeling/importers/graph.py); a step's
claims ("the distance from A to D is 7", "path A-B-D has length 5", "D is reachable from A",
"the graph has a cycle B->C->D->B", "order so far: A, B, C", "matching size is 3", a DFS or
BFS order, ...) are found and decided by autolabel/graphcheck. As the symbolic engine does: a
step with a false claim gets −1 with the claim and the true value as evidence; a step whose
claims all hold gets evidence only (value None, kind "checks out"), never a +1, since a step
can state true facts and still be the wrong move; a step with no claim it reads gets nothing,
and a verdict an earlier run left there is withdrawn. A problem without a graph gets nothing.
"""

from __future__ import annotations

from typing import Any

from annotate.queues import Queue
from autolabel.calibration import calibrate
from autolabel.engines.base import CHECKS_OUT, EngineResult, SolutionInput, StepSuggestion
from autolabel.engines.params import check_keys
from autolabel.graphcheck import CHECKER_VERSION, REFUTED, VERIFIED, build, check_step

SOURCE = "graph"
AGENT = f"networkx/{CHECKER_VERSION}"


class GraphEngine:
    name = SOURCE
    queue = Queue.DEFAULT

    def __call__(self, solution: SolutionInput, params: dict[str, Any]) -> EngineResult:
        check_keys(params, set(), engine=self.name)
        result = EngineResult(source=SOURCE, agent=AGENT)
        pg = build(solution.problem_metadata or {})
        if pg is None:
            return result
        for index, text in enumerate(solution.steps):
            verdict = check_step(text, pg)
            evidence = verdict.as_evidence()
            if verdict.verdict == REFUTED:
                value = -1
            elif verdict.verdict == VERIFIED:
                value, evidence["kind"] = None, CHECKS_OUT
            else:  # no claim read: say nothing, and withdraw what an earlier run said
                result.withdrawn.append(index)
                continue
            result.suggestions.append(
                StepSuggestion(step_index=index, value=value, score=None, evidence=evidence)
            )
        return calibrate(result)
