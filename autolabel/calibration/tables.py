"""The calibration tables: one JSON file per source, read by the engines, written by
``bench/label_quality.py --calibrate`` from a harness report (autolabel.quality.harness).

The directory is this package's, or ``$STEPLAB_CALIBRATION_DIR`` (a harness run measuring a
model it should not check in, and the tests, point it elsewhere). A file::

    {"source": "rollout", "agents": {"mc:hf:...": {"on": "...", "data": [...], "verdicts": {
        "-1": {"right": 0.8, "n": 40, "bins": [{"lo": 0.0, "hi": 0.1, "right": 0.8, "n": 40}]},
        "+1": {"right": 0.9, "n": 300, "bins": [...]}}}}}

`right`/`n` per verdict kind are what every source has; `bins` (autolabel.calibration.bins)
only the sources whose verdicts carry a score of their own (rollout, judge, prm).
"""

from __future__ import annotations

import json
import os
from datetime import date
from functools import cache
from pathlib import Path
from typing import Any

from .bins import RAW_SCORE, fit_bins, increasing

DIR = Path(__file__).resolve().parent
ENV = "STEPLAB_CALIBRATION_DIR"
RATING_KINDS = ("-1", "+1", "0")


def directory() -> Path:
    """Where the tables are read from and written to."""
    configured = os.environ.get(ENV)
    return Path(configured) if configured else DIR


@cache
def _read(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def table(source: str) -> dict[str, Any]:
    """The source's table ({} when none); each file is read once per process."""
    return _read(directory() / f"{source}.json")


def clear_cache() -> None:
    _read.cache_clear()


def lookup(source: str, agent: str, kind: str) -> dict[str, Any] | None:
    """The measured cell for this agent and verdict kind, with the data it was measured on."""
    entry = table(source).get("agents", {}).get(agent)
    if not entry:
        return None
    cell = entry.get("verdicts", {}).get(kind)
    if not cell or not cell.get("n"):
        return None
    return {**cell, "on": entry.get("on", "")}


def _verdicts(source: str, metrics: dict[str, Any]) -> dict[str, dict[str, Any]]:
    verdicts: dict[str, dict[str, Any]] = {}
    for kind, cell in metrics.get("verdicts", {}).items():
        if not cell["n"]:
            continue
        verdicts[kind] = {"right": round(cell["right"], 4), "n": cell["n"]}
        if kind not in RATING_KINDS:
            verdicts[kind]["base_rate"] = round(metrics["base_rate"], 4)
        scored = metrics.get("score_bins", {}).get(kind)
        if source in RAW_SCORE and scored:
            verdicts[kind]["bins"] = fit_bins(scored, rising=increasing(source, kind))
    return verdicts


def tables_from_report(
    report: dict[str, Any], *, on: str, sources: list[str] | None = None
) -> dict[str, dict[str, Any]]:
    """Per source, its table from a harness report (autolabel.quality.harness.evaluate).

    A source is measured only when one agent produced all its results (the table is keyed by
    agent: the engine version, or the model for rollout, judge and prm); verdict kinds with no
    known step are left out."""
    tables: dict[str, dict[str, Any]] = {}
    for source, result in report["results"].items():
        if sources and source not in sources:
            continue
        metrics = result["all"]
        agents = metrics.get("agents", [])
        verdicts = _verdicts(source, metrics)
        if len(agents) != 1 or not verdicts:
            continue
        tables[source] = {
            "source": source,
            "agents": {
                agents[0]: {
                    "on": on,
                    "data": [Path(p).name for p in report["data"]],
                    "limit": report.get("limit"),
                    "solutions": metrics["solutions"],
                    "known_steps": metrics["known_steps"],
                    "measured": date.today().isoformat(),
                    "verdicts": verdicts,
                }
            },
        }
    return tables


def write_tables(tables: dict[str, dict[str, Any]], *, folder: Path | None = None) -> list[Path]:
    """Merge each source's new agents into its file in `folder` (default: directory()); other
    agents' entries are kept."""
    folder = folder or directory()
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for source, new in tables.items():
        path = folder / f"{source}.json"
        current = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
        agents = {**current.get("agents", {}), **new["agents"]}
        path.write_text(
            json.dumps({"source": source, "agents": agents}, indent=1, ensure_ascii=False) + "\n",
            encoding="utf-8",
        )
        written.append(path)
    clear_cache()
    return written
