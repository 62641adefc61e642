"""Calibrated scores: what a machine verdict has been measured to be worth (issue 14).

One checked-in JSON table per source (``autolabel/calibration/<source>.json``), written by
``bench/label_quality.py --calibrate`` from the label-quality harness: for each agent (the
agent embeds the engine version, ``sympy/symbolic-1.0``) and verdict kind (``-1``, ``+1``,
or an evidence kind such as ``checks out``), how often it was right on labeled data, out of
how many known steps, and on what data.

Engines whose verdicts have no score of their own (symbolic, code, agent, consensus) call
:func:`calibrate` on their result: a rating's ``score`` becomes the measured probability that
it is right and its evidence gets ``{"calibration": {"right": 0.8, "n": 25, "on": "..."}}``;
evidence-only suggestions (value None) keep ``score`` None and get ``{"step_correct", "base_rate",
"n", "on"}`` (there is no label to be right). Without a table for that agent (another engine
version, or never measured) the score is None: an unmeasured verdict claims no probability.
Pure Python, no Django.
"""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import date
from functools import cache
from pathlib import Path
from typing import Any

from autolabel.engines.base import EngineResult, StepSuggestion

DIR = Path(__file__).resolve().parent
RATING_KINDS = ("-1", "+1", "0")


def kind_of(suggestion: StepSuggestion) -> str | None:
    if suggestion.value is None:
        kind = suggestion.evidence.get("kind")
        return str(kind) if kind else None
    return "+1" if suggestion.value > 0 else ("-1" if suggestion.value < 0 else "0")


@cache
def table(source: str) -> dict[str, Any]:
    """The source's table ({} when none); read once per process."""
    path = DIR / f"{source}.json"
    if not path.exists():
        return {}
    return json.loads(path.read_text(encoding="utf-8"))


def lookup(source: str, agent: str, kind: str) -> dict[str, Any] | None:
    """The measured cell for this agent and verdict kind, with the data it was measured on."""
    entry = table(source).get("agents", {}).get(agent)
    if not entry:
        return None
    cell = entry.get("verdicts", {}).get(kind)
    if not cell or not cell.get("n"):
        return None
    return {**cell, "on": entry.get("on", "")}


def calibrate(result: EngineResult, *, source: str | None = None) -> EngineResult:
    """Scores and evidence from the table of `source` (default the result's source)."""
    name = source or result.source
    out = []
    for s in result.suggestions:
        kind = kind_of(s)
        cell = lookup(name, result.agent, kind) if kind else None
        if s.value is None:
            evidence = dict(s.evidence)
            if cell:
                evidence["calibration"] = {
                    "step_correct": cell["right"],
                    "base_rate": cell.get("base_rate"),
                    "n": cell["n"],
                    "on": cell["on"],
                }
            out.append(replace(s, score=None, evidence=evidence))
            continue
        evidence = dict(s.evidence)
        if cell:
            evidence["calibration"] = {"right": cell["right"], "n": cell["n"], "on": cell["on"]}
        out.append(replace(s, score=cell["right"] if cell else None, evidence=evidence))
    result.suggestions = out
    return result


def tables_from_report(
    report: dict[str, Any], *, on: str, sources: list[str] | None = None
) -> dict[str, dict[str, Any]]:
    """Per source, its table from a harness report (autolabel.quality.harness.evaluate).

    A source is measured only when one agent produced all its results (the table is keyed by
    agent: the engine version); verdict kinds with no known step are left out."""
    tables: dict[str, dict[str, Any]] = {}
    for source, result in report["results"].items():
        if sources and source not in sources:
            continue
        metrics = result["all"]
        agents = metrics.get("agents", [])
        verdicts = {
            kind: {
                "right": round(cell["right"], 4),
                "n": cell["n"],
                **({} if kind in RATING_KINDS else {"base_rate": round(metrics["base_rate"], 4)}),
            }
            for kind, cell in metrics.get("verdicts", {}).items()
            if cell["n"]
        }
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


def write_tables(tables: dict[str, dict[str, Any]]) -> list[Path]:
    """Merge each source's new agents into its file (other agents' entries are kept)."""
    written = []
    for source, new in tables.items():
        path = DIR / f"{source}.json"
        current = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
        agents = {**current.get("agents", {}), **new["agents"]}
        path.write_text(
            json.dumps({"source": source, "agents": agents}, indent=1, ensure_ascii=False) + "\n",
            encoding="utf-8",
        )
        written.append(path)
    table.cache_clear()
    return written
