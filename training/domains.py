"""Per-domain evaluation of PRMs on a many-domains export (VersaPRM's question: does a PRM
trained on every domain beat a math-only one outside math, and what does it cost in math?).

    python -m training.domains --data EXPORT.jsonl --model multi=DIR --model math=DIR
        [--split validation] [--threshold 0.5] [--out report.json]

The export is a steplab TRL file of a `mixed` project: each row has `domain` and `split`.
Both PRMs are scored on the same held-out rows (`--split`), and the table gives, per domain
and PRM: step accuracy and F1 on wrong steps (steps labeled False are the positives) at the
threshold, and ProcessBench's first-error F1 (training.evaluate), where a row's label is its
first False step (-1 when none) and the prediction the first step scored below the threshold.
A math-only PRM is the same export trained with `TrainConfig.domains = ["math"]` (or an
export with the `domains` filter): same rows, same split.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from training.data import DataError, StepwiseRow, read_files
from training.evaluate import processbench_f1

NO_DOMAIN = "(none)"

# (problem, steps) pairs → step probabilities, in order (PRMScorer.score_many).
ScoreMany = Callable[[Sequence[tuple[str, Sequence[str]]]], list[list[float]]]


def domain_of(row: StepwiseRow) -> str:
    return row.domain or NO_DOMAIN


def only_domains(rows: Iterable[StepwiseRow], domains: Sequence[str]) -> list[StepwiseRow]:
    """The rows of these domains, in their order."""
    wanted = set(domains)
    return [row for row in rows if domain_of(row) in wanted]


def held_out(rows: Iterable[StepwiseRow], split: str) -> list[StepwiseRow]:
    rows = list(rows)
    if not any(row.split is not None for row in rows):
        raise DataError(f"the rows have no split column; cannot pick the {split!r} rows")
    return [row for row in rows if row.split == split]


def _first_false(labels: Sequence[bool]) -> int:
    return next((k for k, good in enumerate(labels) if not good), -1)


def domain_metrics(
    rows: Sequence[StepwiseRow], scores: Sequence[Sequence[float]], threshold: float
) -> dict[str, Any]:
    """Step accuracy, wrong-step F1 and first-error F1 of one PRM over some rows."""
    tp = fp = fn = hits = steps = 0
    for row, row_scores in zip(rows, scores, strict=True):
        for good, score in zip(row.labels, row_scores, strict=True):
            flagged = score < threshold
            steps += 1
            hits += flagged != good
            tp += flagged and not good
            fp += flagged and good
            fn += not flagged and not good
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    first = processbench_f1([_first_false(r.labels) for r in rows], scores, threshold)
    return {
        "rows": len(rows),
        "steps": steps,
        "wrong_steps": tp + fn,
        "step_accuracy": hits / steps if steps else None,
        "wrong_step_f1": 2 * precision * recall / (precision + recall) if tp else 0.0,
        "first_error_f1": first["f1"],
    }


def evaluate_by_domain(
    score_many: ScoreMany, rows: Sequence[StepwiseRow], *, threshold: float = 0.5
) -> dict[str, dict[str, Any]]:
    """One PRM's metrics per domain (and "all") on these rows."""
    scores = score_many([(row.prompt, row.completions) for row in rows])
    groups: dict[str, list[int]] = defaultdict(list)
    for k, row in enumerate(rows):
        groups[domain_of(row)].append(k)
    report = {
        name: domain_metrics([rows[k] for k in ks], [scores[k] for k in ks], threshold)
        for name, ks in sorted(groups.items())
    }
    report["all"] = domain_metrics(rows, scores, threshold)
    return report


def _cell(value: Any) -> str:
    return "–" if value is None else f"{value:.3f}" if isinstance(value, float) else str(value)


def markdown_table(reports: dict[str, dict[str, dict[str, Any]]]) -> str:
    """Rows: domain × PRM; columns: held-out rows, wrong steps and the three metrics."""
    lines = [
        "| domain | PRM | rows | wrong steps | step accuracy | wrong-step F1 | first-error F1 |",
        "|---|---|---|---|---|---|---|",
    ]
    domains = sorted({d for report in reports.values() for d in report} - {"all"}) + ["all"]
    for domain in domains:
        for name, report in reports.items():
            m = report.get(domain)
            if m is None:
                continue
            cells = [domain, name, m["rows"], m["wrong_steps"], m["step_accuracy"]]
            cells += [m["wrong_step_f1"], m["first_error_f1"]]
            lines.append("| " + " | ".join(_cell(c) for c in cells) + " |")
    return "\n".join(lines)


def _named_model(value: str) -> tuple[str, str]:
    name, sep, path = value.partition("=")
    return (name, path) if sep and name else (Path(value).name, value)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m training.domains", description=__doc__)
    parser.add_argument("--data", required=True, nargs="+", help="TRL export(s) with `domain`")
    parser.add_argument(
        "--model", required=True, action="append", help="NAME=DIR of a PRM (repeat)"
    )
    parser.add_argument("--split", default="validation", help="the held-out split's name")
    parser.add_argument("--threshold", type=float, default=0.5)
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument("--out", help="write the report as JSON here")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from training.scorers import load_scorer

    try:
        rows = held_out(read_files(args.data), args.split)
    except DataError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if not rows:
        print(f"error: no rows of split {args.split!r}", file=sys.stderr)
        return 2
    reports = {}
    for name, path in map(_named_model, args.model):
        scorer = load_scorer(path)
        reports[name] = evaluate_by_domain(
            lambda items, s=scorer: s.score_many(items, args.batch_size),
            rows,
            threshold=args.threshold,
        )
    print(markdown_table(reports))
    if args.out:
        Path(args.out).write_text(json.dumps(reports, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
