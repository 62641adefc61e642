"""Answer check: is the solution's final answer equivalent to the gold answer?"""

from typing import Any

from annotate.queues import Queue
from autolabel import answers
from autolabel.engines.base import EngineResult, SolutionInput
from autolabel.engines.params import timeout_param


class AnswerEngine:
    name = "answer"
    queue = Queue.DEFAULT

    def __call__(self, solution: SolutionInput, params: dict[str, Any]) -> EngineResult:
        predicted = solution.final_answer or answers.extract_final_answer("\n".join(solution.steps))
        result = EngineResult(
            source="symbolic", agent=f"answer-check/{answers.ANSWER_CHECK_VERSION}"
        )
        result.final_answer = predicted
        if predicted and solution.gold_answer:
            result.answer_correct = answers.equivalent(
                predicted, solution.gold_answer, timeout_s=timeout_param(params, 3.0)
            )
        return result
