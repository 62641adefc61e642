"""Plug-ins that break the contract (or keep it through a factory), for the discovery tests.
Each is named by an entry point of the fake distribution tests/autolabel_plugins/conftest.py
writes; none is installed anywhere."""

from autolabel.engines.base import EngineResult, StepSuggestion


class Collides:
    """Takes a built-in's name."""

    name = "symbolic"

    def __call__(self, solution, params):
        return EngineResult(source=self.name, agent="x")


class BadQueue:
    name = "bad-queue"
    queue = "exports"

    def __call__(self, solution, params):
        return EngineResult(source=self.name, agent="x")


class BadSchema:
    name = "bad-schema"
    params = [{"name": "n", "type": "int", "default": 5}]  # no bounds

    def __call__(self, solution, params):
        return EngineResult(source=self.name, agent="x")


def explodes():
    raise RuntimeError("cannot reach the licence server")


class LiesAboutSteps:
    """Loads fine, then suggests a step the solution does not have and names another source."""

    name = "liar"

    def __call__(self, solution, params):
        return EngineResult(
            source="symbolic",
            agent="liar:v1",
            suggestions=[StepSuggestion(step_index=len(solution.steps), value=-1)],
        )


def make_counter():
    """A factory: the entry point names this function, steplab calls it for the engine."""

    class StepLength:
        name = "step-length"
        queue = "rollouts"
        params = [
            {
                "name": "max_words",
                "type": "int",
                "default": 40,
                "minimum": 1,
                "maximum": 1000,
                "label": "Longest step (words)",
            }
        ]

        def __call__(self, solution, params):
            return EngineResult(
                source=self.name,
                agent="step-length:v1",
                suggestions=[
                    StepSuggestion(step_index=i, value=None, evidence={"words": len(t.split())})
                    for i, t in enumerate(solution.steps)
                    if len(t.split()) > params["max_words"]
                ],
            )

    return StepLength()
