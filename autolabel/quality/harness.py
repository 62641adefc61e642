"""Run chosen sources over labeled files and tally per source, per file and over all."""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from autolabel.registry import ENGINES

from .data import DATA_DIR, DEFAULT_FILES, read_labeled
from .dev_split import part_of
from .metrics import Tally
from .predictions import PredictionTable
from .runner import offline_engines, run_sources

MODEL_SOURCES = ("rollout", "judge", "prm")  # need a backend or a model
STEP_SOURCES = ("symbolic", "code", "agent", "citation")


def default_files() -> list[Path]:
    return [DATA_DIR / name for name in DEFAULT_FILES]


def consensus_params(sources: Sequence[str]) -> dict[str, Any]:
    """The worker's default requires rollout and judge; with neither chosen, the chosen
    step sources are required instead (symbolic: its first refutation; a verified step is
    evidence, not +1), so consensus says something on a CPU-only run."""
    required = [s for s in sources if s in MODEL_SOURCES] or [
        s for s in sources if s in STEP_SOURCES
    ]
    return {"required": required} if required else {}


def check_sources(sources: Sequence[str], params: dict[str, dict[str, Any]]) -> None:
    unknown = [s for s in sources if s not in ENGINES and not s.startswith("prediction:")]
    if unknown:
        raise ValueError(f"unknown sources {unknown}; known: {sorted(ENGINES)}")
    unwired = [
        s for s in sources if s in ("rollout", "judge") and "backend" not in params.get(s, {})
    ]
    if unwired:
        raise ValueError(f"{unwired} need a model: pass --model DIR or --backend JSON")
    prm = params.get("prm", {})
    if "prm" in sources and "path" not in prm and "url" not in prm:
        raise ValueError(
            "prm needs a PRM: pass --prm DIR (a public PRM on a vLLM server: --prm-url URL)"
        )


def evaluate(
    files: Sequence[Path],
    sources: Sequence[str],
    *,
    params: dict[str, dict[str, Any]] | None = None,
    limit: int | None = None,
    progress: Any = None,
    part: str | None = None,
    predictions: PredictionTable | None = None,
) -> dict[str, Any]:
    """The report: for each source, metrics over all files, per file and per problem domain
    (a row's own `domain`, else its format's: data.domain_of) (data/metrics.py).
    `predictions`: an uploaded predictions file's sources too (predictions.py), one per
    name@version, matched to the solutions by external id."""
    params = {name: dict(p) for name, p in (params or {}).items()}
    sources = [*sources, *(predictions.sources if predictions else [])]
    matched: set[str] = set()
    if "consensus" in sources and "consensus" not in params:
        params["consensus"] = consensus_params(sources)
    check_sources(sources, params)
    engines = offline_engines()  # one per evaluation: the rollout cache lives as long
    tallies: dict[str, dict[str, Tally]] = {s: {} for s in sources}
    by_domain: dict[str, dict[str, Tally]] = {s: {} for s in sources}
    start = time.perf_counter()
    for path in files:
        solutions = read_labeled(path, limit=limit)
        if part is not None:  # one part of the dev set's split by problem (dev_split.py)
            solutions = [s for s in solutions if part_of(s.problem) == part]
        for solution in solutions:
            here = engines
            if predictions:
                matched.add(solution.ref)
                here = {
                    **engines,
                    **{
                        s: predictions.engine(s, solution.ref, len(solution.steps))
                        for s in predictions.sources
                    },
                }
            runs = run_sources(solution.as_input(), sources, params, engines=here)
            for name, run in runs.items():
                result = run.result
                for tally in (
                    tallies[name].setdefault(Path(path).name, Tally()),
                    by_domain[name].setdefault(solution.domain, Tally()),
                ):
                    tally.add(
                        solution,
                        result.suggestions if result else [],
                        seconds=run.seconds,
                        answer_correct=result.answer_correct if result else None,
                        error=run.error,
                        agent=result.agent if result else "",
                    )
            if progress:
                progress(solution)
    results: dict[str, Any] = {}
    for name, by_file in tallies.items():
        total = Tally()
        for tally in by_file.values():
            total.merge(tally)
        results[name] = {
            "all": total.report(),
            "by_data": {file: tally.report() for file, tally in by_file.items()},
            "by_domain": {d: tally.report() for d, tally in sorted(by_domain[name].items())},
        }
    return {
        "data": [str(p) for p in files],
        "limit": limit,
        "sources": list(sources),
        "params": params,
        "seconds": time.perf_counter() - start,
        "results": results,
        **({"predictions_unmatched": len(predictions.refs() - matched)} if predictions else {}),
    }
