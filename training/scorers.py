"""The scorer for a saved PRM directory, whatever its kind.

    load_scorer(path).score_many([(problem, steps), ...])  # one score per step

A directory with `implicit_prm.json` (training.implicit) gets an ImplicitPRMScorer; any other
(training.train's pointwise PRM, training.pairwise's Bradley-Terry PRM) a PRMScorer. The kind is
read from the directory, so a registered model needs nothing else to be scored.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def prm_kind(path: str | Path) -> str:
    """ "implicit", "pairwise" or "pointwise" (config.json's prm_kind, else pointwise)."""
    path = Path(path)
    if (path / "implicit_prm.json").exists():
        return "implicit"
    config = path / "config.json"
    if config.exists():
        kind = json.loads(config.read_text(encoding="utf-8")).get("prm_kind")
        if kind in ("pairwise", "implicit"):
            return kind
    return "pointwise"


def load_scorer(path: str | Path, **kwargs: Any) -> Any:
    if prm_kind(path) == "implicit":
        from training.implicit import ImplicitPRMScorer

        return ImplicitPRMScorer(path, **kwargs)
    from training.score import PRMScorer

    return PRMScorer(path, **kwargs)
