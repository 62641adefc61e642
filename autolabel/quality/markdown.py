"""The harness report as Markdown tables (the README's table)."""

from __future__ import annotations

from typing import Any


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f}"


def _pair(a: float | None, b: float | None) -> str:
    return f"{_pct(a)} / {_pct(b)}"


def _margin(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:+.1f}"


def _rows(report: dict[str, Any], *, rating: bool = False) -> list[tuple[str, str, dict[str, Any]]]:
    """(source, file, metrics) per file and over all; with `rating`, only sources that rated
    some step (answer rates none: its verdicts are the solution's)."""
    rows = []
    for source, result in report["results"].items():
        if rating and not result["all"]["coverage"]:
            continue
        for data, metrics in result["by_data"].items():
            rows.append((source, data.removesuffix(".jsonl"), metrics))
        if len(result["by_data"]) > 1:
            rows.append((source, "**all**", result["all"]))
    return rows


def domain_markdown(report: dict[str, Any]) -> str:
    """Per source and problem domain: solutions, first-error F1, −1 precision / recall and
    coverage ("" when every solution is of one domain, whose numbers are the totals)."""
    rows = [
        (source, domain, m)
        for source, result in report["results"].items()
        if len(result.get("by_domain", {})) > 1
        for domain, m in result["by_domain"].items()
    ]
    if not rows:
        return ""
    lines = [
        "| source | domain | solutions | F1 | −1 P / R | coverage |",
        "|---|---|---:|---:|---|---:|",
    ]
    for source, domain, m in rows:
        lines.append(
            f"| {source} | {domain} | {m['solutions']} | {_pct(m['f1'])} "
            f"| {_pair(m['neg']['precision'], m['neg']['recall'])} | {_pct(m['coverage'])} |"
        )
    return "\n".join(lines)


def markdown(report: dict[str, Any]) -> str:
    lines = [
        "| source | data | solutions | F1 (acc. erroneous / correct) | −1 P / R | +1 P / R "
        "| correct base rate | +1 margin | coverage | s / solution |",
        "|---|---|---:|---|---|---|---:|---:|---:|---:|",
    ]
    for source, data, m in _rows(report, rating=True):
        f1 = f"{_pct(m['f1'])} ({_pair(m['acc_erroneous'], m['acc_correct'])})"
        seconds = m["seconds_per_solution"]
        lines.append(
            f"| {source} | {data} | {m['solutions']} | {f1} "
            f"| {_pair(m['neg']['precision'], m['neg']['recall'])} "
            f"| {_pair(m['pos']['precision'], m['pos']['recall'])} "
            f"| {_pct(m['base_rate'])} | {_margin(m['pos_margin'])} | {_pct(m['coverage'])} "
            f"| {'–' if seconds is None else f'{seconds:.3f}'} |"
        )
    answers = [
        (source, data, m["answer"])
        for source, data, m in _rows(report)
        if m["answer"]["judged_wrong"] or m["answer"]["judged_right"]
    ]
    if answers:
        lines += [
            "",
            "| source | data | answers judged wrong | of them erroneous | judged right "
            "| of them with no wrong step |",
            "|---|---|---:|---:|---:|---:|",
        ]
        for source, data, a in answers:
            lines.append(
                f"| {source} | {data} | {a['judged_wrong']} | {_pct(a['wrong_is_erroneous'])} "
                f"| {a['judged_right']} | {_pct(a['right_is_correct'])} |"
            )
    evidence = [
        (source, kind, cell, result["all"]["base_rate"])
        for source, result in report["results"].items()
        for kind, cell in result["all"].get("verdicts", {}).items()
        if "margin" in cell
    ]
    if evidence:
        lines += [
            "",
            "| source | evidence (no rating) | known steps | step correct | correct base rate "
            "| margin |",
            "|---|---|---:|---:|---:|---:|",
        ]
        for source, kind, cell, base in evidence:
            lines.append(
                f"| {source} | {kind} | {cell['n']} | {_pct(cell['right'])} | {_pct(base)} "
                f"| {_margin(cell['margin'])} |"
            )
    calibration = [
        (source, cell)
        for source, result in report["results"].items()
        for cell in result["all"]["calibration"]
    ]
    if calibration:
        lines += [
            "",
            "| source | score bin | verdicts | mean score | verdict right | step correct |",
            "|---|---|---:|---:|---:|---:|",
        ]
        for source, cell in calibration:
            mean = cell["mean_score"]
            lines.append(
                f"| {source} | {cell['bin']} | {cell['verdicts']} "
                f"| {'–' if mean is None else f'{mean:.2f}'} | {_pct(cell['verdict_right'])} "
                f"| {_pct(cell['step_correct'])} |"
            )
    silent = [s for s, r in report["results"].items() if not r["all"]["coverage"]]
    if silent:
        lines.append(f"\nNo step ratings from: {', '.join(silent)}.")
    for source, result in report["results"].items():
        m = result["all"]
        if m["coverage"] and m["rated_solutions"] < m["solutions"]:
            lines.append(
                f"\n{source}: rated steps of {m['rated_solutions']} of {m['solutions']} solutions."
            )
    errors = [
        (source, error, n)
        for source, result in report["results"].items()
        for error, n in result["all"]["errors"].items()
    ]
    for source, error, n in errors:
        lines.append(f"\n{source}: {n} solutions failed: {error}")
    return "\n".join(lines)
