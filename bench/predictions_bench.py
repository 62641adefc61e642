"""Uploaded predictions: the service's rate against one update_or_create per step label.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \
        .venv/bin/python bench/predictions_bench.py
    .venv/bin/python bench/predictions_bench.py --n 2000 --baseline 200     # SQLite

Imports N generated solutions (import_bench's file) into a throwaway database, writes a
predictions file with a label and a score for every step of every solution, then in this one
process times:

1. `predictions_upload` of the file (every label new), then the same file again (every label
   updated in place), in step labels per second;
2. the naive way on the first `--baseline` solutions: one `Suggestion.objects.update_or_create`
   per step label, in one transaction (its best case), its rate extrapolated;

and prints the ratios (service / naive). The database is dropped afterwards.
"""

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))  # harness, import_bench (bench/ is no package)

import harness  # noqa: E402


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=5000, help="solutions")
    parser.add_argument("--baseline", type=int, default=300, help="solutions done the naive way")
    parser.add_argument("--db", default="steplab_predictions_bench")
    args = parser.parse_args(argv)
    where, cleanup = harness.django_on_throwaway_database(args.db)
    try:
        harness.migrate(where)
        return _run(args)
    finally:
        cleanup()


def _run(args: argparse.Namespace) -> dict:
    from django.db import transaction
    from django.db.models import Count

    from labeling.models import Solution, Suggestion
    from labeling.services.imports.predictions import predictions_upload

    project = harness.imported_project(n=args.n, name="predictions bench", overlap=1)
    counts = dict(
        Solution.objects.filter(project=project)
        .values_list("external_id")
        .annotate(steps=Count("steps"))
    )
    rng = random.Random(0)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "preds.jsonl"
        with open(path, "w") as f:
            for ref, steps in counts.items():
                scores = [round(rng.random(), 3) for _ in range(steps)]
                labels = [1 if s >= 0.5 else -1 for s in scores]
                f.write(json.dumps({"id": ref, "labels": labels, "scores": scores}) + "\n")
        labels = sum(counts.values())
        times = {}
        for run in ("new", "again"):
            start = time.perf_counter()
            with open(path, "rb") as source:
                result = predictions_upload(
                    project=project,
                    source=source,
                    filename="preds.jsonl",
                    name="bench",
                    version="1",
                )
            times[run] = time.perf_counter() - start
            assert result.steps_written == labels, result
    stored = Suggestion.objects.filter(source="prediction", agent="bench@1").count()
    assert stored == labels, (stored, labels)

    subset = list(Solution.objects.filter(project=project).order_by("id")[: args.baseline])
    naive_labels = 0
    start = time.perf_counter()
    with transaction.atomic():
        for solution in subset:
            for step in solution.steps.all():
                score = rng.random()
                Suggestion.objects.update_or_create(
                    step=step,
                    source="prediction",
                    agent="naive@1",
                    defaults={"value": 1 if score >= 0.5 else -1, "score": score, "evidence": {}},
                )
                naive_labels += 1
    naive = time.perf_counter() - start
    report = {
        "solutions": len(counts),
        "step_labels": labels,
        "new_per_s": labels / times["new"],
        "again_per_s": labels / times["again"],
        "naive_per_s": naive_labels / naive,
    }
    report["ratio_new"] = report["new_per_s"] / report["naive_per_s"]
    report["ratio_again"] = report["again_per_s"] / report["naive_per_s"]
    print(
        f"{labels} step labels of {len(counts)} solutions: upload {report['new_per_s']:,.0f}/s "
        f"new, {report['again_per_s']:,.0f}/s again; naive update_or_create "
        f"{report['naive_per_s']:,.0f}/s ({naive_labels} labels); "
        f"{report['ratio_new']:.1f}x and {report['ratio_again']:.1f}x"
    )
    return report


if __name__ == "__main__":
    sys.exit(0 if main() else 1)
