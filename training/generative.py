"""A generative PRM (a critic model) as a ProcessBench first-error predictor.

Each row of a ProcessBench-format file ({id, problem, steps, label}) goes to a judge: any
callable `(problem, steps) -> index` of the earliest wrong step (-1: no error, None: its reply
could not be read). The metric is training.evaluate's: accuracy on erroneous rows (prediction
== label), on correct rows (prediction == -1), and their harmonic mean, per id subset too. An
unreadable reply counts as wrong on either kind of row and is counted under `unparsed`.

training imports neither Django nor autolabel, so the judge comes in as a callable: `main`
takes a `make_judge` factory, and the command line lives with the critic it builds
(`python -m autolabel.judge.processbench`: the judge source's prompt and majority vote over
any OpenAI-compatible chat server).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from training.data import DataError, read_objects

# (problem, steps) -> the earliest wrong step's index, -1 for none, None when unreadable.
FirstErrorJudge = Callable[[str, list[str]], int | None]


@dataclass(frozen=True)
class JudgeSettings:
    """What the command line says about the critic; a JudgeFactory turns it into a judge."""

    base_url: str
    model: str
    votes: int = 1
    temperature: float | None = None  # None: 0 for one vote, 0.7 for several
    max_tokens: int = 1024
    seed: int | None = 0


JudgeFactory = Callable[[JudgeSettings], FirstErrorJudge]


def predictions_f1(labels: Sequence[int], predictions: Sequence[int | None]) -> dict[str, Any]:
    """training.evaluate.processbench_f1 for predicted indices (None: unreadable, wrong)."""
    error_hits = error_n = correct_hits = correct_n = 0
    for label, predicted in zip(labels, predictions, strict=True):
        if label >= 0:
            error_n += 1
            error_hits += predicted == label
        else:
            correct_n += 1
            correct_hits += predicted == -1
    acc_error = error_hits / error_n if error_n else float("nan")
    acc_correct = correct_hits / correct_n if correct_n else float("nan")
    total = acc_error + acc_correct
    f1 = 2 * acc_error * acc_correct / total if total > 0 else 0.0
    return {
        "acc_error": acc_error,
        "acc_correct": acc_correct,
        "f1": f1,
        "n_error": error_n,
        "n_correct": correct_n,
        "unparsed": sum(p is None for p in predictions),
    }


def evaluate_predictions(rows: list[dict], predictions: Sequence[int | None]) -> dict[str, Any]:
    from training.evaluate import _subset

    labels = [int(r["label"]) for r in rows]
    report: dict[str, Any] = {"overall": predictions_f1(labels, predictions)}
    groups: dict[str, list[int]] = defaultdict(list)
    for k, row in enumerate(rows):
        groups[_subset(row.get("id"))].append(k)
    if len(groups) > 1:
        report["subsets"] = {
            name: predictions_f1([labels[k] for k in ks], [predictions[k] for k in ks])
            for name, ks in sorted(groups.items())
        }
    return report


def read_processbench(path: str | Path) -> list[dict]:
    rows = []
    for where, row in read_objects(Path(path)):
        for name in ("problem", "steps", "label"):
            if not isinstance(row, dict) or name not in row:
                raise DataError(f"{where}: field '{name}': missing")
        rows.append(row)
    if not rows:
        raise DataError(f"{path}: no rows")
    return rows


def judge_predictions(
    rows: Sequence[dict], judge: FirstErrorJudge, *, workers: int = 4
) -> list[int | None]:
    """The judge's earliest-error index per row (None where its reply could not be read)."""

    def one(row: dict) -> int | None:
        return judge(row["problem"], list(row["steps"]))

    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        return list(pool.map(one, rows))


def build_parser(prog: str, description: str | None = None) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog=prog,
        description=description or __doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("file", help="ProcessBench-format JSONL/Parquet")
    add_judge_arguments(p, prefix="")
    p.add_argument("--save-predictions", help="write the rows with 'predicted' here (JSONL)")
    p.add_argument("--out", help="write the report (JSON) here too")
    return p


def add_judge_arguments(p: argparse.ArgumentParser, *, prefix: str) -> None:
    required = not prefix
    p.add_argument(f"--{prefix}base-url", required=required, help="OpenAI-compatible server")
    p.add_argument(f"--{prefix}model", required=required, help="the critic's model name")
    p.add_argument(f"--{prefix}votes", type=int, default=1)
    p.add_argument(f"--{prefix}temperature", type=float)
    p.add_argument(f"--{prefix}max-tokens", type=int, default=1024)
    p.add_argument(f"--{prefix}workers", type=int, default=4, help="rows judged at once")


def judge_settings(args: argparse.Namespace, *, prefix: str) -> JudgeSettings:
    """The JudgeSettings of arguments added by add_judge_arguments with this prefix."""
    key = prefix.replace("-", "_")
    return JudgeSettings(
        base_url=getattr(args, f"{key}base_url"),
        model=getattr(args, f"{key}model"),
        votes=getattr(args, f"{key}votes"),
        temperature=getattr(args, f"{key}temperature"),
        max_tokens=getattr(args, f"{key}max_tokens"),
    )


def main(
    argv: list[str] | None = None,
    *,
    make_judge: JudgeFactory,
    prog: str = "python -m autolabel.judge.processbench",
    description: str | None = None,
) -> int:
    """The command line over a judge that `make_judge` builds from its settings."""
    args = build_parser(prog, description).parse_args(argv)
    try:
        rows = read_processbench(args.file)
        judge = make_judge(judge_settings(args, prefix=""))
        predictions = judge_predictions(rows, judge, workers=args.workers)
    except (DataError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.save_predictions:
        with open(args.save_predictions, "w", encoding="utf-8") as fh:
            for row, predicted in zip(rows, predictions, strict=True):
                fh.write(json.dumps({**row, "predicted": predicted}) + "\n")
    text = json.dumps(evaluate_predictions(rows, predictions), indent=2)
    print(text)
    if args.out:
        Path(args.out).write_text(text + "\n", encoding="utf-8")
    return 0
