"""The step rules' cost on real solutions, as ratios to the `line` rule measured in the same run.

    .venv/bin/python bench/step_rules_bench.py [--repeat 5]

The texts are the 100 ProcessBench solutions of /work/shared/data/processbench_sample.jsonl
(QwenLM/ProcessBench, Apache-2.0), each written as one string the way each rule expects it:
paragraphs (blank lines) for line / paragraph / sentence, `<extra_0>` after each step for
step_tags, and, for `<think>`, the first half of the steps inside a `<think>` block. Every
rule is timed over all texts (best of --repeat), and printed as µs per solution and as a
ratio to `line` (the machine is shared: read the ratios, not the times).
"""

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = Path("/work/shared/data/processbench_sample.jsonl")
if not DATA.exists():
    DATA = ROOT.parent / "shared" / "data" / "processbench_sample.jsonl"


def _texts() -> list[list[str]]:
    with open(DATA, encoding="utf-8") as f:
        return [json.loads(line)["steps"] for line in f if line.strip()]


def _best(run, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "annotate.settings.local")
    import django

    django.setup()
    from labeling.steps.splitting import StepRule, split_solution

    solutions = _texts()
    plain = ["\n\n".join(steps) for steps in solutions]
    tagged = ["<extra_0>".join(steps) + "<extra_0>" for steps in solutions]
    thinking = [
        "<think>\n" + "\n\n".join(s[: len(s) // 2]) + "\n</think>\n" + "\n\n".join(s[len(s) // 2 :])
        for s in solutions
    ]
    cases = [
        ("line", StepRule("line"), plain),
        ("paragraph", StepRule("paragraph"), plain),
        ("sentence", StepRule("sentence"), plain),
        ("step_marker", StepRule("step_marker"), plain),
        ("regex \\n\\n+", StepRule("regex", regex=r"\n\n+"), plain),
        ("step_tags <extra_0>", StepRule("step_tags", tag="<extra_0>"), tagged),
        ("paragraph + <think>", StepRule("paragraph"), thinking),
    ]
    chars = sum(map(len, plain))
    print(f"{len(solutions)} solutions, {chars} characters; best of {args.repeat}")
    base = None
    for name, rule, texts in cases:
        seconds = _best(lambda r=rule, t=texts: [split_solution(x, r) for x in t], args.repeat)
        base = base or seconds
        steps = sum(len(split_solution(x, rule)) for x in texts)
        per = seconds / len(texts) * 1e6
        print(f"{name:22} {per:8.1f} µs/solution  x{seconds / base:5.2f} of line  {steps} steps")


if __name__ == "__main__":
    main()
