"""Calibrated scores: what a machine verdict has been measured to be worth (issue 14).

One JSON table per source (autolabel/calibration/tables.py), written by
``bench/label_quality.py --calibrate`` from the label-quality harness: for each agent (the
agent embeds the engine version, ``sympy/symbolic-1.0``, or the model) and verdict kind
(``-1``, ``+1``, or an evidence kind such as ``checks out``), how often it was right on
labeled data, out of how many known steps, and on what data.

Every engine calls :func:`calibrate` on its result.

- Sources whose verdicts have no score of their own (symbolic, code, agent, consensus, ...):
  a rating's ``score`` becomes the measured probability that it is right and its evidence gets
  ``{"calibration": {"right": 0.8, "n": 25, "on": "..."}}``; evidence-only suggestions (value
  None) keep ``score`` None and get ``{"step_correct", "base_rate", "n", "on"}`` (there is no
  label to be right). Without a table for that agent (another engine version, or never
  measured) the score is None: an unmeasured verdict claims no probability.
- rollout, judge and prm, whose verdicts carry a score of their own (the share of rollouts
  reaching the gold answer, of agreeing votes, the PRM's probability): that number is kept in
  ``evidence["raw_score"]``. When the agent's table has score bins for the verdict kind
  (autolabel/calibration/bins.py), ``score`` becomes the ``right`` of the raw score's bin and
  the evidence gets ``{"calibration": {"right", "n", "on", "raw", "lo", "hi"}}`` (a verdict
  with no raw score, a binary-search step inferred from its neighbours, gets the kind's
  ``right`` over all its verdicts, with ``raw`` None). Without bins (a model never measured)
  ``score`` stays the model's own estimate, which the prm's threshold and documented readings
  use, and the evidence says ``{"calibration": {"measured": false}}``.

Pure Python, no Django.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from autolabel.engines.base import EngineResult, StepSuggestion

from .bins import RAW_SCORE, bin_for
from .tables import (
    DIR,
    ENV,
    RATING_KINDS,
    clear_cache,
    directory,
    lookup,
    table,
    tables_from_report,
    write_tables,
)

__all__ = [
    "DIR",
    "ENV",
    "RATING_KINDS",
    "calibrate",
    "clear_cache",
    "directory",
    "kind_of",
    "lookup",
    "table",
    "tables_from_report",
    "write_tables",
]

UNMEASURED = {"measured": False}


def kind_of(suggestion: StepSuggestion) -> str | None:
    if suggestion.value is None:
        kind = suggestion.evidence.get("kind")
        return str(kind) if kind else None
    return "+1" if suggestion.value > 0 else ("-1" if suggestion.value < 0 else "0")


def _measured(s: StepSuggestion, cell: dict[str, Any] | None) -> StepSuggestion:
    """A verdict of a source without a score of its own (see the module's docstring)."""
    evidence = dict(s.evidence)
    if s.value is None:
        if cell:
            evidence["calibration"] = {
                "step_correct": cell["right"],
                "base_rate": cell.get("base_rate"),
                "n": cell["n"],
                "on": cell["on"],
            }
        return replace(s, score=None, evidence=evidence)
    if cell:
        evidence["calibration"] = {"right": cell["right"], "n": cell["n"], "on": cell["on"]}
    return replace(s, score=cell["right"] if cell else None, evidence=evidence)


def _mapped(s: StepSuggestion, cell: dict[str, Any] | None) -> StepSuggestion:
    """A verdict that carries its model's score: the score mapped through the kind's bins."""
    # Calibrating twice maps the model's score again, not the calibrated one.
    raw = s.evidence.get("raw_score", s.score)
    evidence = {**s.evidence, "raw_score": raw}
    bins = cell.get("bins") if cell and s.value is not None else None
    if not bins:
        evidence["calibration"] = dict(UNMEASURED)
        return replace(s, score=raw, evidence=evidence)
    assert cell is not None
    if raw is None:
        found: dict[str, Any] = {"right": cell["right"], "n": cell["n"]}
    else:
        b = bin_for(bins, raw)
        found = {"right": b["right"], "n": b["n"], "lo": b["lo"], "hi": b["hi"]}
    evidence["calibration"] = {**found, "on": cell["on"], "raw": raw}
    return replace(s, score=found["right"], evidence=evidence)


def calibrate(result: EngineResult, *, source: str | None = None) -> EngineResult:
    """Scores and evidence from the table of `source` (default the result's source)."""
    name = source or result.source
    scored = name in RAW_SCORE
    out = []
    for s in result.suggestions:
        kind = kind_of(s)
        cell = lookup(name, result.agent, kind) if kind else None
        out.append(_mapped(s, cell) if scored else _measured(s, cell))
    result.suggestions = out
    return result
