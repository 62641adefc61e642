"""Auto-labeling benchmarks.

    .venv/bin/python bench/autolabel_bench.py                 # every section
    .venv/bin/python bench/autolabel_bench.py --section symbolic --limit 500

Sections (each a function taking the parsed arguments; add new ones to SECTIONS):

1. ``symbolic``: autolabel.symbolic.check_step over every step text in the shared
   ProcessBench, PRM800K (raw rows and the MR-MATH test solutions) and GSM8K (train answers
   and model solutions) samples: step checks per second per core, against a baseline
   measured in the same run, plus the verdict distribution. The baseline is the naive
   approach: a regex finds every ``a = b`` (and each link of ``a = b = c``) in the text,
   sympy's ``parse_expr`` (standard transformations + implicit multiplication) reads both
   sides, and ``simplify(lhs - rhs) == 0`` decides, each call under a 1 s signal limit.
   Both run on one core, sequentially: check_step in its single worker process (the caller
   only waits), the baseline in this process.
2. (to add) rollouts per solution: binary search for the first error vs per-step
   Monte-Carlo estimation.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
DATA = Path(os.environ.get("STEPLAB_SHARED_DATA", REPO.parent / "shared" / "data"))
if not DATA.exists():
    DATA = Path("/work/shared/data")

BASELINE_LIMIT_S = 1.0


def _read(name: str) -> list[dict]:
    with open(DATA / name, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def step_texts() -> list[tuple[str, str]]:
    """(source, step text) for every step in the ProcessBench, PRM800K and GSM8K samples."""
    steps: list[tuple[str, str]] = []
    for r in _read("processbench_sample.jsonl"):
        steps += [("processbench", s) for s in r["steps"]]
    for r in _read("prm800k_sample.jsonl"):
        for step in r["label"]["steps"]:
            steps += [("prm800k", c["text"]) for c in step["completions"] or []]
            if step.get("human_completion"):
                steps.append(("prm800k", step["human_completion"]["text"]))
    for r in _read("prm800k_mrmath_redundant_sample.jsonl"):
        steps += [("prm800k", s[0]) for s in r["model_output_step_format"]]
    for r in _read("gsm8k_sample.jsonl"):
        steps += [("gsm8k", s) for s in r["answer"].split("\n") if not s.startswith("####")]
    for r in _read("gsm8k_model_solutions_sample.jsonl"):
        for key in ("6b_finetuning", "6b_verification", "175b_finetuning", "175b_verification"):
            steps += [("gsm8k", s) for s in r[key]["solution"].split("\n")]
    return [(source, text) for source, text in steps if text.strip()]


# --- section 1: symbolic step checks --------------------------------------------------------

_NAIVE_EQUATION = re.compile(r"[^=<>\n]+(?:=[^=<>\n]+)+")


def naive_check(text: str) -> Counter:
    """The baseline: sympify every ``a = b`` a regex finds. Counts outcomes."""
    from sympy import simplify
    from sympy.parsing.sympy_parser import (
        implicit_multiplication_application,
        parse_expr,
        standard_transformations,
    )

    from autolabel.timeouts import TimeLimitExceeded, soft_time_limit

    transformations = standard_transformations + (implicit_multiplication_application,)
    outcome: Counter = Counter()
    for match in _NAIVE_EQUATION.finditer(text):
        sides = match.group(0).split("=")
        for lhs, rhs in zip(sides, sides[1:], strict=False):
            try:
                with soft_time_limit(BASELINE_LIMIT_S):
                    left = parse_expr(lhs.replace("^", "**"), transformations=transformations)
                    right = parse_expr(rhs.replace("^", "**"), transformations=transformations)
                    holds = simplify(left - right) == 0
                outcome["holds" if holds else "fails"] += 1
            except TimeLimitExceeded:
                outcome["timeout"] += 1
            except Exception:  # noqa: BLE001 - the naive approach fails on most prose
                outcome["error"] += 1
    return outcome


def section_symbolic(args: argparse.Namespace) -> None:
    from autolabel import timeouts
    from autolabel.symbolic import check_step

    steps = step_texts()
    if args.limit:
        steps = steps[: args.limit]
    print(f"== symbolic step checks: {len(steps)} step texts from {DATA}")
    timeouts.warm_up()  # the one-time worker start is not part of the rate
    check_step("3 * 4 = 12")

    verdicts: Counter = Counter()
    by_source: dict[str, Counter] = {}
    claims = decided = 0
    start = time.perf_counter()
    for source, text in steps:
        verdict = check_step(text, timeout_s=2.0)
        verdicts[verdict.verdict] += 1
        by_source.setdefault(source, Counter())[verdict.verdict] += 1
        claims += len(verdict.claims)
        decided += sum(c.holds is not None for c in verdict.claims)
    ours_s = time.perf_counter() - start

    baseline: Counter = Counter()
    start = time.perf_counter()
    for _, text in steps:
        baseline += naive_check(text)
    base_s = time.perf_counter() - start

    ours_rate, base_rate = len(steps) / ours_s, len(steps) / base_s
    print(f"check_step: {ours_rate:8.1f} steps/s per core ({ours_s:.2f} s, one worker)")
    print(f"baseline:   {base_rate:8.1f} steps/s per core ({base_s:.2f} s, parse_expr per a = b)")
    print(f"ratio:      {ours_rate / base_rate:8.2f}x the baseline's rate")
    print(f"claims found: {claims}, decided (holds or fails): {decided}")
    total = sum(verdicts.values())
    print(
        "verdicts:   " + ", ".join(f"{k} {v} ({v / total:.1%})" for k, v in verdicts.most_common())
    )
    for source, counts in sorted(by_source.items()):
        print(f"  {source:13s} " + ", ".join(f"{k} {v}" for k, v in counts.most_common()))
    print(
        "baseline outcomes per a = b: " + ", ".join(f"{k} {v}" for k, v in baseline.most_common())
    )

    from tests.autolabel.step_table import CASES  # the hand-reviewed table of real steps

    correct = [c for c in CASES if c.expected != "refuted"]
    wrong_ours = sum(check_step(c.text).verdict == "refuted" for c in correct)
    wrong_base = sum(naive_check(c.text)["fails"] > 0 for c in correct)
    print(
        f"false refutations on the {len(CASES)}-step reviewed table ({len(correct)} steps "
        f"without an arithmetic error): check_step {wrong_ours}, baseline {wrong_base}"
    )


SECTIONS: dict[str, Callable[[argparse.Namespace], None]] = {
    "symbolic": section_symbolic,
    # "rollouts": section_rollouts,  # part 2: binary search vs per-step MC
}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--section", choices=sorted(SECTIONS), action="append")
    parser.add_argument("--limit", type=int, default=0, help="at most this many steps")
    args = parser.parse_args(argv)
    for name in args.section or list(SECTIONS):
        SECTIONS[name](args)


if __name__ == "__main__":
    main()
