"""Compare PRM kinds on one ProcessBench file: one table of first-error F1.

    python -m training.compare FILE --prm pointwise=runs/prm --prm pairwise=runs/bt \\
        --prm implicit=runs/implicit [--threshold 0.5] [--out report.json]
    python -m autolabel.judge.compare FILE --prm ... --judge-base-url URL --judge-model NAME

Every `--prm NAME=DIR` is scored with training.scorers.load_scorer (its kind — pointwise,
pairwise or implicit — is read from the directory) and evaluated as training.evaluate does:
F1 at `--threshold` and the best F1 over the 0.05..0.95 sweep with its threshold (scores of
a pairwise or implicit PRM are calibrated differently, so the sweep column is the fair one).
With `--judge-*`, the generative PRM (training.generative: the judge source's critic) is a
row too; it predicts an index directly, so it has no threshold. training imports no autolabel,
so the critic comes in as a callable: `main(make_judge=...)`, which autolabel.judge.compare
passes. Prints a Markdown table; `--out` writes the full reports as JSON.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from training.data import DataError
from training.evaluate import evaluate_processbench
from training.generative import (
    FirstErrorJudge,
    JudgeFactory,
    add_judge_arguments,
    evaluate_predictions,
    judge_predictions,
    judge_settings,
    read_processbench,
)


def compare_prms(
    rows: list[dict],
    prms: Sequence[tuple[str, str]],
    *,
    threshold: float = 0.5,
    batch_size: int = 8,
    judge: FirstErrorJudge | None = None,
    judge_name: str = "judge",
    judge_workers: int = 4,
) -> list[dict[str, Any]]:
    """One entry per model: name, kind, F1 at the threshold, best swept F1, full report;
    with `judge`, a last entry for that generative PRM (rows judged `judge_workers` at once)."""
    from training.scorers import load_scorer, prm_kind

    items = [(row["problem"], list(row["steps"])) for row in rows]
    entries = []
    for name, path in prms:
        scores = load_scorer(path, batch_size=batch_size).score_many(items)
        report = evaluate_processbench(rows, scores, threshold=threshold, sweep=True)
        best = report["sweep"]["best"]
        entries.append(
            {
                "name": name,
                "kind": prm_kind(path),
                "threshold": threshold,
                **{k: report["overall"][k] for k in ("acc_error", "acc_correct", "f1")},
                "best_f1": best["f1"],
                "best_threshold": best["threshold"],
                "report": report,
            }
        )
    if judge is not None:
        report = evaluate_predictions(rows, judge_predictions(rows, judge, workers=judge_workers))
        overall = report["overall"]
        entries.append(
            {
                "name": judge_name,
                "kind": "generative",
                "threshold": None,
                **{k: overall[k] for k in ("acc_error", "acc_correct", "f1")},
                "best_f1": overall["f1"],
                "best_threshold": None,
                "unparsed": overall["unparsed"],
                "report": report,
            }
        )
    return entries


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.3f}" if value == value else "n/a"
    return str(value)


def table(entries: Sequence[dict[str, Any]]) -> str:
    head = ["model", "kind", "threshold", "acc_error", "acc_correct", "F1", "best F1 (at)"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for e in entries:
        best = _cell(e["best_f1"])
        if e["best_threshold"] is not None:
            best += f" ({e['best_threshold']:.2f})"
        cells = [e["name"], e["kind"], _cell(e["threshold"]), _cell(e["acc_error"])]
        cells += [_cell(e["acc_correct"]), _cell(e["f1"]), best]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _named(value: str) -> tuple[str, str]:
    name, sep, path = value.partition("=")
    if not sep or not name or not path:
        raise argparse.ArgumentTypeError(f"expected NAME=DIR, got {value!r}")
    return name, path


def build_parser(prog: str = "python -m training.compare") -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog=prog,
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("file", help="ProcessBench-format JSONL/Parquet")
    p.add_argument("--prm", type=_named, action="append", default=[], help="NAME=DIR")
    p.add_argument("--threshold", type=float, default=0.5)
    p.add_argument("--batch-size", type=int, default=8)
    add_judge_arguments(p, prefix="judge-")
    p.add_argument("--judge-name", default="judge")
    p.add_argument("--out", help="write the entries with their full reports (JSON) here")
    return p


def main(
    argv: list[str] | None = None,
    *,
    make_judge: JudgeFactory | None = None,
    prog: str = "python -m training.compare",
) -> int:
    """The command line; `make_judge` builds the generative row's judge (autolabel.judge)."""
    args = build_parser(prog).parse_args(argv)
    if bool(args.judge_base_url) != bool(args.judge_model):
        print("error: --judge-base-url and --judge-model go together", file=sys.stderr)
        return 2
    if not args.prm and not args.judge_base_url:
        print("error: nothing to compare: give --prm NAME=DIR and/or --judge-*", file=sys.stderr)
        return 2
    if args.judge_base_url and make_judge is None:
        print(
            "error: the generative judge is autolabel's critic: run "
            "python -m autolabel.judge.compare with the same arguments",
            file=sys.stderr,
        )
        return 2
    try:
        rows = read_processbench(args.file)
        judge = None
        if make_judge is not None and args.judge_base_url:
            judge = make_judge(judge_settings(args, prefix="judge-"))
        entries = compare_prms(
            rows,
            args.prm,
            threshold=args.threshold,
            batch_size=args.batch_size,
            judge=judge,
            judge_name=args.judge_name,
            judge_workers=args.judge_workers,
        )
    except (DataError, ValueError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"ProcessBench first-error F1 on {args.file} ({len(rows)} rows)\n")
    print(table(entries))
    if args.out:
        Path(args.out).write_text(json.dumps(entries, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
