"""Run auto-label sources on one unsaved solution the way a worker does.

autolabel.services.autolabel_item_process calls the sources that need no suggestions first,
stores what they return, then calls the combining ones (consensus) on a SolutionInput read
back with the stored suggestions. Here the "store" is a dict: the same table
(`source:agent` -> value per step, consensus excluded, the last write of a step wins) and
the same solution fields an upsert changes (answer_correct, an empty final_answer).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from autolabel.engines.base import Engine, EngineResult, SolutionInput
from autolabel.engines.rollout import RolloutEngine
from autolabel.errors import BackendUnavailable
from autolabel.registry import ENGINES
from autolabel.rollouts import MemoryRolloutCache


def offline_engines() -> dict[str, Engine]:
    """The registry's engines, but rollouts cached in memory: with Django set up the rollout
    engine would read and write the database's cache (RolloutCacheEntry)."""
    return {**ENGINES, "rollout": RolloutEngine(cache=MemoryRolloutCache())}


@dataclass
class SourceRun:
    result: EngineResult | None
    seconds: float
    error: str = ""


def _store(solution: SolutionInput, results: Sequence[EngineResult]) -> SolutionInput:
    table: dict[str, list[int | None]] = {}
    answer_correct, final_answer = solution.answer_correct, solution.final_answer
    for result in results:
        if result.source != "consensus":
            for s in result.suggestions:
                if 0 <= s.step_index < len(solution.steps):
                    values = table.setdefault(
                        f"{result.source}:{result.agent}", [None] * len(solution.steps)
                    )
                    values[s.step_index] = s.value
        if result.answer_correct is not None:
            answer_correct = result.answer_correct
        if result.final_answer and not final_answer:
            final_answer = result.final_answer
    return replace(
        solution,
        suggestions={key: tuple(values) for key, values in table.items()},
        answer_correct=answer_correct,
        final_answer=final_answer,
    )


def run_sources(
    solution: SolutionInput,
    sources: Sequence[str],
    params: Mapping[str, dict[str, Any]],
    *,
    engines: Mapping[str, Engine],
) -> dict[str, SourceRun]:
    """Each source's result and wall time. An engine that raises fails only itself (the
    worker fails the item); BackendUnavailable propagates, as the worker retries on it."""
    first = [n for n in sources if not getattr(engines[n], "needs_suggestions", False)]
    last = [n for n in sources if n not in first]
    runs: dict[str, SourceRun] = {}
    data = solution
    for group in (first, last):
        if group is last and last:
            data = _store(solution, [r.result for r in runs.values() if r.result is not None])
        for name in group:
            start = time.perf_counter()
            try:
                result: EngineResult | None = engines[name](data, dict(params.get(name, {})))
                error = ""
            except BackendUnavailable:
                raise
            except Exception as exc:  # recorded per source, as the worker records it per item
                result, error = None, f"{type(exc).__name__}: {exc}"
            runs[name] = SourceRun(result, time.perf_counter() - start, error)
    return runs
