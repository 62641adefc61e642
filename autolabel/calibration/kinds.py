"""Which symbolic claim kinds have earned a −1 (issue 25): the per-kind table and the gate.

``bench/symbolic_refutations.py --dev --calibrate`` measures, on the develop part of the
ProcessBench dev set (autolabel/quality/dev_split.py) and with the open adjudications
(autolabel/quality/adjudications.jsonl), how often a step refuted by a failed claim of each
kind (ClaimResult.kind) was the first wrong step, and writes it here, keyed by the checker
version (``symbolic_kinds.json`` in the calibration directory)::

    {"source": "symbolic_kinds", "versions": {"symbolic-1.0": {"on": "...", "rule": {...},
        "kinds": {"arithmetic": {"refutations": 40, "right": 39, "precision": 0.975,
                                 "wilson_lower": 0.871, "earned": true}, ...}}}}

A kind has EARNED a −1 when its adjudicated precision is at least MIN_PRECISION and the Wilson
95% lower bound of that precision is at least MIN_WILSON_LOWER. The bound is the "enough cases
to tell" part: the data must rule out (at 95% confidence) that the kind is right less than 80%
of the time, which takes 16 right with none wrong (16/16 → 0.806), 24 of 25 with one wrong, 38
of 40 with two (there the 95% precision binds). 0.80 is above the whole checker's precision on
rows nobody tuned on (0.78, issue 25), so a kind earns only by being measurably better than the
checker as a whole, while a kind with a few dozen cases on the dev set can still earn.

``refutations`` in a kind's cell counts the judged ones: refuted steps at or before the first
error (ProcessBench's first-error protocol; autolabel/quality/refutations.py), a step with
failed claims of several kinds counting for each; ``right``: of them, the first wrong step.

Without a table for the running checker version (a new version, never measured) no kind has
earned a −1: every failed claim is evidence ("doubtful"), never a rating, until the command is
run for that version. Tests assume every kind earned (tests/conftest.py) unless they set a
table of their own, so the checker's tests do not hang on dev-set numbers.

Pure Python, no Django.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from autolabel.engines.base import DOUBTFUL

from .tables import clear_cache, directory, table

NAME = "symbolic_kinds"  # the table's file: <calibration dir>/symbolic_kinds.json
MIN_PRECISION = 0.95
MIN_WILSON_LOWER = 0.80
Z_95 = 1.959963984540054  # two-sided 95% normal quantile

# Set by tests only (tests/conftest.py): every kind counts as earned.
assume_all_earned = False


def wilson_lower(right: int, n: int, z: float = Z_95) -> float:
    """The lower end of the Wilson score interval of right/n (0.0 when n is 0)."""
    if n <= 0:
        return 0.0
    if not 0 <= right <= n:
        raise ValueError(f"right must be between 0 and n, got {right} of {n}")
    p = right / n
    denominator = 1 + z * z / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return max(0.0, (centre - spread) / denominator)


def earns(right: int, n: int) -> bool:
    """The rule: precision ≥ MIN_PRECISION and Wilson lower bound ≥ MIN_WILSON_LOWER."""
    return n > 0 and right / n >= MIN_PRECISION and wilson_lower(right, n) >= MIN_WILSON_LOWER


# Kinds that decide the same question the same way earn together (symbolic-1.6): "solving"
# (the roots of the equation a step solves against the roots it states) and "substitution"
# (a stated solution put back into its equation) both ask whether a value solves an equation.
# "rewriting" ("A = 0 becomes B = 0") and "rearranging" ("rearranging terms, we get B = 0",
# symbolic-1.13) both ask whether two equations are the same one up to a constant factor,
# decided by one function (rewriting.same_equation).
# A kind of a family earns when the family's pooled cases pass the rule (a step counted once)
# and the kind's own precision is at least MIN_PRECISION.
FAMILIES = {
    "solving": "solutions",
    "substitution": "solutions",
    "rewriting": "equations",
    "rearranging": "equations",
}


def pooled_row(row: dict[str, Any], family: str, right: int, n: int) -> dict[str, Any]:
    """A kind's cell earning with its family's pooled counts (right of n)."""
    own = row["precision"]
    return {
        **row,
        "family": family,
        "family_refutations": n,
        "family_right": right,
        "wilson_lower": round(wilson_lower(right, n), 4),
        "earned": own is not None and own >= MIN_PRECISION and earns(right, n),
    }


def kind_row(right: int, n: int) -> dict[str, Any]:
    """One kind's cell as stored: counts, precision, bound and whether it earned a −1."""
    return {
        "refutations": n,
        "right": right,
        "precision": round(right / n, 4) if n else None,
        "wilson_lower": round(wilson_lower(right, n), 4),
        "earned": earns(right, n),
    }


@dataclass(frozen=True)
class KindGate:
    """The measured kinds of one checker version (empty: none measured, none earned)."""

    version: str
    kinds: dict[str, dict[str, Any]] = field(default_factory=dict)
    on: str = ""
    all_earned: bool = False

    def earned(self, kind: str) -> bool:
        if self.all_earned:
            return True
        return bool(self.kinds.get(kind, {}).get("earned"))

    def refutes(self, kinds: Iterable[str]) -> bool:
        """A step is −1 only when one of its failed claims is of an earned kind."""
        return any(self.earned(k) for k in kinds)

    def measured(self, kind: str) -> dict[str, Any]:
        """What the evidence shows about a kind: its precision, counts and data, or that it
        was never measured for this version."""
        cell = self.kinds.get(kind)
        if not cell:
            return {"kind": kind, "measured": False, "earned": self.earned(kind)}
        return {
            "kind": kind,
            "measured": True,
            "precision": cell.get("precision"),
            "right": cell.get("right"),
            "n": cell.get("refutations"),
            "wilson_lower": cell.get("wilson_lower"),
            "earned": self.earned(kind),
            "on": self.on,
        }


def apply_gate(evidence: dict[str, Any], kinds: Iterable[str], gate: KindGate) -> bool:
    """Whether a step whose claims of these kinds failed is −1. Either way the evidence gets
    the failed kinds and what was measured of each; when it is not, its kind is "doubtful"
    (evidence only, value None)."""
    names = sorted(set(kinds))
    evidence["kinds"] = names
    evidence["gate"] = {
        "checker_version": gate.version,
        "kinds": [gate.measured(kind) for kind in names],
    }
    if gate.refutes(names):
        return True
    evidence["kind"] = DOUBTFUL
    return False


def gate_for(version: str) -> KindGate:
    """The gate of a checker version, from the table in the calibration directory."""
    if assume_all_earned:
        return KindGate(version, all_earned=True)
    entry = table(NAME).get("versions", {}).get(version)
    if not entry:
        return KindGate(version)
    return KindGate(version, dict(entry.get("kinds", {})), str(entry.get("on", "")))


def rule() -> dict[str, Any]:
    return {
        "min_precision": MIN_PRECISION,
        "min_wilson_lower": MIN_WILSON_LOWER,
        "z": round(Z_95, 4),
        "precision": "adjudicated",
    }


def write_kinds(version: str, entry: dict[str, Any], *, folder: Path | None = None) -> Path:
    """Store one checker version's kinds (other versions' entries are kept)."""
    folder = folder or directory()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{NAME}.json"
    current = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    versions = {**current.get("versions", {}), version: entry}
    path.write_text(
        json.dumps({"source": NAME, "versions": versions}, indent=1, ensure_ascii=False) + "\n",
        encoding="utf-8",
    )
    clear_cache()
    return path
