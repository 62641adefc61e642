"""A loaded plug-in engine behind the same interface as the built-in engines.

The worker calls it like any engine (autolabel/run_chunks.py); it checks the run's values
against the plug-in's schema and fills in the defaults before the plug-in sees them, and checks
what the plug-in returns before anything is written: the source is always the plug-in's name,
every suggestion is on a step the solution has, with a value −1, 0, +1 or None and a finite
score. A result that breaks the contract fails that solution's item with the reason (the run
goes on), never writes a row under another source. Pure Python: no Django.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from autolabel.engines.base import EngineResult, SolutionInput, StepSuggestion
from autolabel.engines.params import agent_id
from autolabel.plugins.schema import Param, params_values

VALUES = (-1, 0, 1, None)


class PluginResultError(ValueError):
    """A plug-in returned something the contract does not allow."""


@dataclass
class PluginEngine:
    name: str
    queue: str
    engine: Any  # the plug-in's own callable
    schema: tuple[Param, ...]
    label: str
    description: str
    domains: tuple[str, ...]  # () : every domain
    distribution: str  # "package 1.2.0", for the listing and the logs
    entry_point: str  # "name = module:attr"
    needs_suggestions: bool = False

    def applies_to(self, domain: str) -> bool:
        return not self.domains or domain in self.domains

    def check_params(self, params: Any) -> dict[str, Any]:
        return params_values(self.schema, params)

    def __call__(self, solution: SolutionInput, params: dict[str, Any]) -> EngineResult:
        values = self.check_params(params)
        result = self.engine(solution, values)
        return self._checked(result, steps=len(solution.steps))

    def _checked(self, result: Any, *, steps: int) -> EngineResult:
        where = f"plug-in {self.name!r} ({self.distribution})"
        if not isinstance(result, EngineResult):
            raise PluginResultError(f"{where} returned {type(result).__name__}, not EngineResult")
        if result.source != self.name:  # rows carry the plug-in's name, whatever it says
            result.source = self.name
        if not isinstance(result.agent, str) or not result.agent:
            raise PluginResultError(f"{where}: agent must be a non-empty string")
        result.agent = agent_id(result.agent)
        seen: set[int] = set()
        for s in result.suggestions:
            if not isinstance(s, StepSuggestion):
                raise PluginResultError(f"{where}: suggestions must be StepSuggestion")
            index = s.step_index
            if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < steps:
                raise PluginResultError(
                    f"{where}: step_index {index!r} is not a step of this solution (0..{steps - 1})"
                )
            if index in seen:
                raise PluginResultError(f"{where}: two suggestions for step_index {index}")
            seen.add(index)
            if s.value not in VALUES or isinstance(s.value, bool):
                raise PluginResultError(f"{where}: value {s.value!r} must be -1, 0, 1 or None")
            if s.score is not None and (
                isinstance(s.score, bool)
                or not isinstance(s.score, int | float)
                or not math.isfinite(s.score)
            ):
                raise PluginResultError(f"{where}: score {s.score!r} must be a finite number")
            if not isinstance(s.evidence, dict):
                raise PluginResultError(f"{where}: evidence must be a dict")
        bad = [i for i in result.withdrawn if isinstance(i, bool) or not isinstance(i, int)]
        if bad:
            raise PluginResultError(f"{where}: withdrawn must be step indexes, got {bad[0]!r}")
        return result
