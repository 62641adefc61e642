"""An uploaded predictions file as a source of the label-quality harness.

A team measures its own model's step labels against the human labels of a labeled file: the
same file it would upload (POST /api/projects/<id>/predictions/, labeling.importers.predictions),
matched to the labeled solutions by external id (`id`). Each name@version in the file is one
source of the report, `prediction:<name>@<version>`; consensus sees it as source
`prediction` (as the workers do for stored predictions).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from autolabel.engines.base import EngineResult, SolutionInput, StepSuggestion
from labeling.importers.predictions import read_predictions
from labeling.importers.types import ParsedPrediction

SOURCE = "prediction"
MAX_LINES = 20_000_000
MAX_BYTES = 8 * 1024**3


@dataclass
class PredictionTable:
    """{agent: {solution external id: its prediction}} from one or more files."""

    by_agent: dict[str, dict[str, ParsedPrediction]] = field(default_factory=dict)
    threshold: float | None = None  # a score-only step: +1 at or above it, else −1

    @property
    def sources(self) -> list[str]:
        return [f"{SOURCE}:{agent}" for agent in self.by_agent]

    def refs(self) -> set[str]:
        return {ref for table in self.by_agent.values() for ref in table}

    def engine(self, source: str, ref: str, steps: int) -> FixedResult:
        agent = source.split(":", 1)[1]
        prediction = self.by_agent[agent].get(ref)
        if prediction is not None and prediction.last_index >= steps:
            raise ValueError(
                f"{agent} predicts step {prediction.last_index} of {ref!r}, which has {steps} steps"
            )
        return FixedResult(agent, prediction, self.threshold)


def read_table(
    paths: list[Path], *, name: str = "", version: str = "", threshold: float | None = None
) -> PredictionTable:
    table = PredictionTable(threshold=threshold)
    for path in paths:
        kind = "json" if path.name.endswith((".json", ".json.gz")) else "jsonl"
        with open(path, "rb") as raw:
            for line in read_predictions(
                raw,
                filename=path.name,
                kind=kind,
                name=name,
                version=version,
                max_lines=MAX_LINES,
                max_bytes=MAX_BYTES,
            ):
                mine = table.by_agent.setdefault(line.prediction.agent, {})
                if line.external_id in mine:
                    where = f"line {line.line}" if line.line else f"item {line.at}"
                    raise ValueError(
                        f"{path.name}, {where}: {line.external_id!r} is given twice for "
                        f"{line.prediction.agent}"
                    )
                mine[line.external_id] = line.prediction
    return table


@dataclass
class FixedResult:
    """An "engine" that returns the file's prediction for one solution (none: no labels)."""

    agent: str
    prediction: ParsedPrediction | None
    threshold: float | None = None

    def __call__(self, solution: SolutionInput, params: dict[str, Any]) -> EngineResult:
        result = EngineResult(source=SOURCE, agent=self.agent)
        for index, value, score in self.prediction.steps if self.prediction else ():
            if value is None and score is not None and self.threshold is not None:
                value = 1 if score >= self.threshold else -1
            result.suggestions.append(StepSuggestion(index, value, score))
        return result
