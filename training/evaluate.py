"""Evaluate a PRM: ProcessBench first-error F1 and best-of-N reranking.

    python -m training.evaluate processbench FILE [--model DIR [--dependencies prefix] |
        --scores-field step_scores] [--threshold 0.5] [--sweep] [--save-scores OUT.jsonl]
        [--out metrics.json]
    python -m training.evaluate bon FILE [--model DIR] [--n 1 4 16] [--out metrics.json]
    python -m training.evaluate stepwise FILE [--model DIR [--dependencies prefix] |
        --scores-field step_scores] [--threshold 0.5] [--sweep] [--out metrics.json]

ProcessBench (Zheng et al. 2024): a row is {id, problem, steps, label}, label = index of the
first wrong step or -1. The PRM's prediction is the first step whose score is below the
threshold (-1 if none). Accuracy is measured separately on erroneous solutions (prediction ==
label) and on correct ones (prediction == -1); F1 is their harmonic mean. `--sweep` reports it
for thresholds 0.05..0.95 and the best one. Scores come from a field of the file (a scored
file) or from `--model` (any kind: training.scorers.load_scorer); a PRM trained with
dependencies reads each step with its `uses` (`--dependencies prefix`: steplab's ProcessBench
export with a dependency policy carries them).

Stepwise: TRL stepwise rows (steplab's export; labels per step, `uses` optional). Reports the
first-error F1 above twice: `linear` (first wrong step of the row, as ProcessBench) and
`dependency` (first wrong step within the dependency closure of the last step: an error in a
step the answer does not rest on is not counted; training/graph.py). Export with
truncate_after_first_error=false so rows go on past their first error.

Best-of-N: one row per candidate, {problem (or problem_id), steps, answer, correct | gold,
step_scores?}, or one row per problem with `candidates: [...]`. Reports, over problems, the
accuracy of the candidate a PRM picks under min / last / product aggregation of its step
scores, against majority vote over final answers and pass@N (any candidate correct).
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from training.data import DataError, StepwiseRow, parse_row, read_objects
from training.graph import answer_path, uses_error, with_uses
from training.graph import first_error as first_wrong

SWEEP = [round(0.05 * k, 2) for k in range(1, 20)]


def first_error(scores: Sequence[float], threshold: float) -> int:
    for k, score in enumerate(scores):
        if score < threshold:
            return k
    return -1


def processbench_f1(
    labels: Sequence[int], scores: Sequence[Sequence[float]], threshold: float
) -> dict[str, float]:
    """ProcessBench's metric at one threshold: accuracies on erroneous / correct rows, F1."""
    error_hits = error_n = correct_hits = correct_n = 0
    for label, row_scores in zip(labels, scores, strict=True):
        predicted = first_error(row_scores, threshold)
        if label >= 0:
            error_n += 1
            error_hits += predicted == label
        else:
            correct_n += 1
            correct_hits += predicted == -1
    acc_error = error_hits / error_n if error_n else float("nan")
    acc_correct = correct_hits / correct_n if correct_n else float("nan")
    f1 = (
        2 * acc_error * acc_correct / (acc_error + acc_correct)
        if acc_error + acc_correct > 0
        else 0.0
    )
    return {
        "threshold": threshold,
        "acc_error": acc_error,
        "acc_correct": acc_correct,
        "f1": f1,
        "n_error": error_n,
        "n_correct": correct_n,
    }


def threshold_sweep(
    labels: Sequence[int], scores: Sequence[Sequence[float]], thresholds: Sequence[float] = SWEEP
) -> dict[str, Any]:
    results = [processbench_f1(labels, scores, t) for t in thresholds]
    best = max(results, key=lambda r: (r["f1"], -abs(r["threshold"] - 0.5)))
    return {"sweep": results, "best": best}


def _scores_from(rows: list[dict], field: str, where: str) -> list[list[float]]:
    out = []
    for k, row in enumerate(rows, start=1):
        value = row.get(field)
        if not isinstance(value, list) or len(value) != len(row["steps"]):
            raise DataError(f"{where}: row {k}: field '{field}': one score per step expected")
        out.append([float(v) for v in value])
    return out


def _read(path: Path) -> list[dict]:
    return [row for _, row in read_objects(path)]


def _subset(row_id: Any) -> str:
    return str(row_id).rsplit("-", 1)[0] if row_id is not None else "all"


def evaluate_processbench(
    rows: list[dict],
    scores: list[list[float]],
    *,
    threshold: float = 0.5,
    sweep: bool = False,
) -> dict[str, Any]:
    labels = [int(r["label"]) for r in rows]
    report: dict[str, Any] = {"overall": processbench_f1(labels, scores, threshold)}
    groups: dict[str, list[int]] = defaultdict(list)
    for k, row in enumerate(rows):
        groups[_subset(row.get("id"))].append(k)
    if len(groups) > 1:
        report["subsets"] = {
            name: processbench_f1([labels[k] for k in ks], [scores[k] for k in ks], threshold)
            for name, ks in sorted(groups.items())
        }
    if sweep:
        report["sweep"] = threshold_sweep(labels, scores)
    return report


# -- stepwise rows, linear and along dependencies -------------------------------------------


def evaluate_stepwise(
    rows: Sequence[StepwiseRow],
    scores: Sequence[Sequence[float]],
    *,
    threshold: float = 0.5,
    sweep: bool = False,
) -> dict[str, Any]:
    """First-error F1 in linear order and on the last step's dependency closure."""
    linear: list[int] = []
    dependency: list[int] = []
    on_path: list[list[float]] = []
    off_path = 0
    for row, row_scores in zip(rows, scores, strict=True):
        if len(row_scores) != len(row.labels):
            raise DataError(f"{row.where}: one score per step expected")
        linear.append(first_wrong(row.labels))
        path = answer_path(row.uses, len(row.labels))
        wrong = first_wrong(row.labels, path)
        dependency.append(path.index(wrong) if wrong >= 0 else -1)
        on_path.append([row_scores[k] for k in path])
        off_path += linear[-1] >= 0 and wrong != linear[-1]
    report: dict[str, Any] = {
        "rows": len(linear),
        "rows_with_uses": sum(row.uses is not None for row in rows),
        # Rows whose first wrong step is off the answer's closure (or the closure has none).
        "first_error_off_path": off_path,
        "linear": processbench_f1(linear, scores, threshold),
        "dependency": processbench_f1(dependency, on_path, threshold),
    }
    if sweep:
        report["sweep"] = {
            "linear": threshold_sweep(linear, scores)["best"],
            "dependency": threshold_sweep(dependency, on_path)["best"],
        }
    return report


def run_stepwise(args: argparse.Namespace) -> dict[str, Any]:
    path = Path(args.file)
    rows, raws = [], []
    for where, raw in read_objects(path):
        rows.append(parse_row(raw, where))
        raws.append(raw)
    if args.model:
        if args.dependencies == "prefix" and any(r.uses is None for r in rows):
            raise DataError(f"{path}: field 'uses': needed by --dependencies prefix")
        items = [
            (r.prompt, with_uses(r.completions, r.uses if args.dependencies == "prefix" else None))
            for r in rows
        ]
        scores = _score_with_model(args.model, items, args.batch_size)
    else:
        scores = _scores_from(
            [{**raw, "steps": row.completions} for raw, row in zip(raws, rows, strict=True)],
            args.scores_field,
            str(path),
        )
    return evaluate_stepwise(rows, scores, threshold=args.threshold, sweep=args.sweep)


# -- best-of-N -----------------------------------------------------------------------------


@dataclass
class Candidate:
    steps: list[str]
    answer: str | None
    correct: bool
    scores: list[float] | None = None


AGGREGATIONS: dict[str, Callable[[Sequence[float]], float]] = {
    "min": lambda s: min(s) if s else 0.0,
    "last": lambda s: s[-1] if s else 0.0,
    "product": lambda s: math.prod(s) if s else 0.0,
}


def normalize_answer(answer: str | None) -> str | None:
    if answer is None:
        return None
    text = answer.strip()
    boxed = re.search(r"\\boxed\{(.*)\}", text)
    if boxed:
        text = boxed.group(1)
    text = re.sub(r"\s+", "", text).strip("$.")
    return text or None


def group_candidates(rows: list[dict], where: str) -> dict[str, list[Candidate]]:
    problems: dict[str, list[Candidate]] = {}
    for k, row in enumerate(rows, start=1):
        entries = row.get("candidates", [row])
        key = str(row.get("problem_id", row.get("problem", "")))
        for entry in entries:
            steps = entry.get("steps")
            if not isinstance(steps, list):
                raise DataError(f"{where}: row {k}: field 'steps': a list of strings expected")
            answer = entry.get("answer")
            if "correct" in entry:
                correct = bool(entry["correct"])
            elif "gold" in entry or "gold" in row:
                gold = entry.get("gold", row.get("gold"))
                correct = answer is not None and normalize_answer(answer) == normalize_answer(
                    str(gold)
                )
            else:
                raise DataError(f"{where}: row {k}: needs 'correct' or 'answer' with 'gold'")
            scores = entry.get("step_scores")
            problems.setdefault(key, []).append(
                Candidate(
                    steps=steps,
                    answer=None if answer is None else str(answer),
                    correct=correct,
                    scores=[float(s) for s in scores] if scores is not None else None,
                )
            )
    return problems


def majority_vote(candidates: Sequence[Candidate]) -> bool:
    """Is the most frequent final answer correct? Ties go to the answer seen first."""
    answers = [normalize_answer(c.answer) for c in candidates]
    counts = Counter(a for a in answers if a is not None)
    if not counts:
        return False
    top = max(counts.values())
    winner = next(a for a in answers if a is not None and counts[a] == top)
    return any(c.correct for c, a in zip(candidates, answers, strict=True) if a == winner)


def best_of_n(problems: dict[str, list[Candidate]], n: int | None = None) -> dict[str, float]:
    """Accuracy over problems of each selection rule, using the first n candidates of each."""
    hits: Counter = Counter()
    for candidates in problems.values():
        pool = candidates[:n] if n else candidates
        hits["pass@n"] += any(c.correct for c in pool)
        hits["majority"] += majority_vote(pool)
        for name, aggregate in AGGREGATIONS.items():
            if any(c.scores is None for c in pool):
                raise ValueError("every candidate needs step_scores (or pass --model)")
            best = max(range(len(pool)), key=lambda i: (aggregate(pool[i].scores), -i))
            hits[f"prm_{name}"] += pool[best].correct
    total = len(problems)
    names = ["prm_min", "prm_last", "prm_product", "majority", "pass@n"]
    return {"problems": total, **{name: hits[name] / total for name in names}}


# -- CLI -----------------------------------------------------------------------------------


def _score_with_model(model: str, items: list[tuple[str, list[str]]], batch_size: int):
    from training.scorers import load_scorer

    return load_scorer(model, batch_size=batch_size).score_many(items)


def _row_uses(row: dict, path: Path, k: int) -> list[list[int]] | None:
    """A ProcessBench row's `uses` (steplab's export with a dependency policy), checked."""
    uses = row.get("uses")
    if uses is not None and (why := uses_error(uses, len(row["steps"]))):
        raise DataError(f"{path}: row {k}: field 'uses': {why}")
    return uses


def run_processbench(args: argparse.Namespace) -> dict[str, Any]:
    path = Path(args.file)
    rows = _read(path)
    for k, row in enumerate(rows, start=1):
        for name in ("steps", "label"):
            if name not in row:
                raise DataError(f"{path}: row {k}: field '{name}': missing")
        if args.model and args.dependencies == "prefix" and row.get("uses") is None:
            raise DataError(f"{path}: row {k}: field 'uses': needed by --dependencies prefix")
    if args.model:
        uses = [_row_uses(row, path, k) for k, row in enumerate(rows, start=1)]
        items = [
            (row["problem"], with_uses(row["steps"], u if args.dependencies == "prefix" else None))
            for row, u in zip(rows, uses, strict=True)
        ]
        scores = _score_with_model(args.model, items, args.batch_size)
    else:
        scores = _scores_from(rows, args.scores_field, str(path))
    if args.save_scores:
        with open(args.save_scores, "w", encoding="utf-8") as fh:
            for row, row_scores in zip(rows, scores, strict=True):
                fh.write(json.dumps({**row, args.scores_field: row_scores}) + "\n")
    return evaluate_processbench(rows, scores, threshold=args.threshold, sweep=args.sweep)


def run_bon(args: argparse.Namespace) -> dict[str, Any]:
    path = Path(args.file)
    problems = group_candidates(_read(path), str(path))
    if args.model:
        keyed = [(key, c) for key, cs in problems.items() for c in cs]
        texts = {}
        for row in _read(path):
            texts[str(row.get("problem_id", row.get("problem", "")))] = row.get("problem", "")
        scores = _score_with_model(
            args.model, [(texts[key], c.steps) for key, c in keyed], args.batch_size
        )
        for (_, candidate), cand_scores in zip(keyed, scores, strict=True):
            candidate.scores = cand_scores
    sizes = args.n or [max(len(cs) for cs in problems.values())]
    return {f"n={n}": best_of_n(problems, n) for n in sizes}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m training.evaluate", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    pb = sub.add_parser("processbench", help="first-error F1 on a ProcessBench-format file")
    pb.add_argument("file")
    pb.add_argument("--model", help="PRM directory to score the steps with")
    pb.add_argument("--scores-field", default="step_scores")
    pb.add_argument("--threshold", type=float, default=0.5)
    pb.add_argument("--sweep", action="store_true", help="F1 for thresholds 0.05..0.95")
    pb.add_argument("--save-scores", help="write the rows with their scores here (JSONL)")
    sw = sub.add_parser("stepwise", help="first-error F1, linear and along step dependencies")
    sw.add_argument("file")
    sw.add_argument("--model", help="PRM directory to score the steps with")
    sw.add_argument("--scores-field", default="step_scores")
    sw.add_argument("--threshold", type=float, default=0.5)
    sw.add_argument("--sweep", action="store_true", help="best F1 over thresholds 0.05..0.95")
    for p in (pb, sw):
        p.add_argument(
            "--dependencies",
            choices=["none", "prefix"],
            default="none",
            help="prefix: the PRM was trained with dependencies: prefix (steps read "
            "'[uses 1,3] ...'); the file's rows need `uses`",
        )
    bon = sub.add_parser("bon", help="best-of-N reranking accuracy")
    bon.add_argument("file")
    bon.add_argument("--model", help="PRM directory to score the candidates with")
    bon.add_argument("--n", type=int, nargs="+", help="use the first n candidates per problem")
    for p in (pb, sw, bon):
        p.add_argument("--batch-size", type=int, default=8)
        p.add_argument("--out", help="write the report (JSON) here too")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        run = {"processbench": run_processbench, "stepwise": run_stepwise, "bon": run_bon}
        report = run[args.command](args)
    except (DataError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    text = json.dumps(report, indent=2)
    print(text)
    if args.out:
        Path(args.out).write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
