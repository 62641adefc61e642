"""A generative PRM (the auto-labeler's judge) as a ProcessBench first-error predictor.

    python -m training.generative FILE --base-url URL --model NAME [--votes 1]
        [--temperature 0] [--max-tokens 1024] [--workers 4] [--save-predictions OUT.jsonl]
        [--out metrics.json]

Each row of a ProcessBench-format file ({id, problem, steps, label}) goes to the critic with
the judge source's prompt (autolabel.judge: the ProcessBench critique template, majority over
`--votes` samples); its reply's earliest-error index is the prediction (-1: no error). The
metric is training.evaluate's: accuracy on erroneous rows (prediction == label), on correct
rows (prediction == -1), and their harmonic mean, per id subset too. A reply that cannot be
read counts as wrong on either kind of row and is counted under `unparsed`. The critic is any
OpenAI-compatible chat server (vLLM, `transformers serve`, an API), or a completer config
(`backend=` from Python, e.g. a local transformers model).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from training.data import DataError, read_objects


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


def openai_backend(base_url: str, model: str, *, timeout_s: float | None = None) -> dict:
    backend: dict[str, Any] = {"kind": "openai", "base_url": base_url, "model": model}
    if timeout_s is not None:
        backend["timeout_s"] = timeout_s
    return backend


def judge_predictions(
    rows: Sequence[dict],
    backend: dict[str, Any],
    *,
    votes: int = 1,
    temperature: float | None = None,
    max_tokens: int = 1024,
    seed: int | None = 0,
    workers: int = 4,
) -> list[int | None]:
    """The critic's earliest-error index per row (None where no vote could be read)."""
    from autolabel.completers import completer_from_config
    from autolabel.judge import judge_solution

    critic = completer_from_config(backend)
    temp = temperature if temperature is not None else (0.7 if votes > 1 else 0.0)

    def one(row: dict) -> int | None:
        verdict = judge_solution(
            critic,
            row["problem"],
            list(row["steps"]),
            votes=votes,
            temperature=temp,
            max_tokens=max_tokens,
            seed=seed,
        )
        return verdict.first_error

    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        return list(pool.map(one, rows))


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m training.generative",
        description=__doc__,
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


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        rows = read_processbench(args.file)
        predictions = judge_predictions(
            rows,
            openai_backend(args.base_url, args.model),
            votes=args.votes,
            temperature=args.temperature,
            max_tokens=args.max_tokens,
            workers=args.workers,
        )
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


if __name__ == "__main__":
    sys.exit(main())
