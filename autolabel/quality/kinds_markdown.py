"""The symbolic-refutations dev-set report as Markdown (README and docs/benchmarks.md tables)."""

from __future__ import annotations

from typing import Any

from .dev_split import DEVELOP, MEASURE
from .refutations import ALL


def _pct(value: float | None, digits: int = 1) -> str:
    return "–" if value is None else f"{100 * value:.{digits}f}"


def _cell(cell: dict[str, Any] | None) -> str:
    if not cell or not cell["refutations"]:
        return "–"
    return f"{cell['right']}/{cell['refutations']} ({_pct(cell['precision'], 0)})"


def summary_table(scored: dict[str, Any]) -> str:
    """Per gating and part: refutations, precision, refuted correct steps, first-error recall,
    each raw / adjudicated."""
    lines = [
        "| gating | part | solutions | refutations (judged) | precision raw / adj. "
        "| refuted correct steps raw / adj. | first-error recall raw / adj. |",
        "|---|---|---:|---:|---|---|---|",
    ]
    for gating, name in (("before", "every failed claim"), ("after", "earned kinds only")):
        for part in (DEVELOP, MEASURE, ALL):
            raw = scored[gating]["raw"][part]
            adj = scored[gating]["adjudicated"][part]
            lines.append(
                f"| {name} | {part} | {raw['solutions']} "
                f"| {raw['refutations']} ({raw['judged']}) "
                f"| {_pct(raw['precision'])} / {_pct(adj['precision'])} "
                f"| {raw['refuted_correct']} = {_pct(raw['refuted_correct_share'], 2)}% / "
                f"{adj['refuted_correct']} = {_pct(adj['refuted_correct_share'], 2)}% "
                f"| {_pct(raw['first_error_recall'])} / {_pct(adj['first_error_recall'])} |"
            )
    return "\n".join(lines)


def kinds_table(
    scored: dict[str, Any], gate_kinds: dict[str, dict[str, Any]], *, min_judged: int = 0
) -> str:
    """Per claim kind (before gating): right/judged (precision %) on develop and measure,
    raw and adjudicated; the develop adjudicated Wilson bound and whether the kind earned −1.
    Kinds judged fewer than `min_judged` times in all (raw) share one row: too few to earn."""
    before = scored["before"]
    judged = {
        k: before["raw"][ALL]["kinds"].get(k, {}).get("refutations", 0)
        for truth in before.values()
        for part in truth.values()
        for k in part["kinds"]
    }
    kinds = sorted(judged, key=lambda k: (-judged[k], k))
    rare = [k for k in kinds if judged[k] < min_judged]
    columns = [(part, truth) for part in (DEVELOP, MEASURE) for truth in ("raw", "adjudicated")]
    lines = [
        "| claim kind | develop raw | develop adj. | measure raw | measure adj. "
        "| Wilson 95% low (develop adj.) | earned −1 |",
        "|---|---|---|---|---|---:|---|",
    ]
    for kind in kinds:
        if kind in rare:
            continue
        cells = [_cell(before[truth][part]["kinds"].get(kind)) for part, truth in columns]
        measured = gate_kinds.get(kind)
        low = "–" if not measured else f"{measured['wilson_lower']:.2f}"
        if measured and measured.get("family"):
            low += f" (pooled, {measured['family_right']}/{measured['family_refutations']})"
        earned = "yes" if measured and measured.get("earned") else "no"
        lines.append(f"| {kind} | {' | '.join(cells)} | {low} | {earned} |")
    if rare:
        cells = []
        for part, truth in columns:
            found = [before[truth][part]["kinds"].get(k) for k in rare]
            right = sum(c["right"] for c in found if c)
            n = sum(c["refutations"] for c in found if c)
            precision = right / n if n else None
            cells.append(_cell({"right": right, "refutations": n, "precision": precision}))
        name = f"{len(rare)} other kinds (under {min_judged} judged each)"
        lines.append(f"| {name} | {' | '.join(cells)} | – | no |")
    return "\n".join(lines)


def markdown(scored: dict[str, Any], gate_kinds: dict[str, dict[str, Any]], note: str) -> str:
    """docs/benchmarks.md's tables: the figures by part and gating, then every kind."""
    return "\n\n".join([note, summary_table(scored), kinds_table(scored, gate_kinds)])


def readme_markdown(scored: dict[str, Any], gate_kinds: dict[str, dict[str, Any]]) -> str:
    """README's table: the kinds, the rare ones in one row (README is a front door)."""
    return kinds_table(scored, gate_kinds, min_judged=3)
