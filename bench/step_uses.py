"""Precision and recall of the step-reference detector on hand-labeled real solutions.

    .venv/bin/python bench/step_uses.py          # the numbers
    .venv/bin/python bench/step_uses.py --show   # and every step: detected vs hand label

tests/unit/data/step_uses_gold.jsonl holds five ProcessBench solutions (31 steps; rows 1, 2,
3, 31 and 56 of /work/shared/data/processbench_sample.jsonl, QwenLM/ProcessBench, Apache-2.0)
with, per step, the earlier steps it builds on as read by hand for this benchmark (one
reader, the author of labeling/importers/dependencies.py; a step "uses" a step whose
result, equation or statement it takes up). An edge is a (step, earlier step) pair:
precision = detected edges that the hand label has / detected edges; recall = hand-labeled
edges detected / hand-labeled edges.
"""

import argparse
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOLD = ROOT / "tests/unit/data/step_uses_gold.jsonl"


def measure(rows: list[dict], *, show: bool = False) -> dict[str, float | int]:
    from labeling.importers.dependencies import detect_uses

    detected_n = gold_n = hits = steps = 0
    for row in rows:
        found = detect_uses(row["steps"], row["problem"])
        for j, (mine, truth) in enumerate(zip(found, row["uses"], strict=True)):
            steps += 1
            detected_n += len(mine)
            gold_n += len(truth)
            hits += len(set(mine) & set(truth))
            if show:
                mark = "" if set(mine) == set(truth) else "  <-"
                print(f"{row['id']} step {j}: detected {mine} hand {truth}{mark}")
    return {
        "solutions": len(rows),
        "steps": steps,
        "detected_edges": detected_n,
        "hand_edges": gold_n,
        "precision": hits / detected_n if detected_n else float("nan"),
        "recall": hits / gold_n if gold_n else float("nan"),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--show", action="store_true")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "annotate.settings.test")
    import django

    django.setup()
    rows = [json.loads(line) for line in GOLD.read_text(encoding="utf-8").splitlines() if line]
    print(json.dumps(measure(rows, show=args.show), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
