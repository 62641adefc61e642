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
2. ``rollouts``: rollouts sampled per solution by first-error binary search
   (autolabel.rollouts.binary_search, OmegaPRM) vs per-step Monte-Carlo
   (autolabel.rollouts.monte_carlo, Math-Shepherd), at matched first-error agreement, on
   the 100 real ProcessBench solutions with a simulated completer. A ScriptedCompleter per
   solution, keyed on the exact prefix prompt (autolabel.prompts.rollout_prompt), ends a
   rollout in the gold answer with probability p_good (drawn per solution, seeded, from
   U(0.3, 0.9)) while the prefix stops before ProcessBench's labeled first error (every
   step when the label is -1) and 0.02 from it on. The gold answer is a marker no step
   contains; the grader (autolabel.rollouts.grade, memoized on the graded text) reads the
   last ``\\boxed{}``, which is always the rollout's, so a boxed answer already in a step
   never decides a rollout. The predicted first error is the first step labeled -1 (-1
   when none); agreement is the fraction of runs where it equals the label; rollouts are
   the completer's ``samples``. k (per probe) and n (per step) are swept over
   1, 2, 3, 4, 6, 8, 12, 16, each averaged over 10 rollout seeds shared by both methods.
   Printed twice: with no final-answer shortcut (FinalAnswer(None, None): every step, the
   last too, is rolled out; binary search <= k*ceil(log2(M+1)), MC = k*M), and as
   RolloutEngine does with the problem's real gold answer, where the solution's own final
   answer (ProcessBench's final_answer_correct) labels the last step unprobed
   (<= k*ceil(log2 M) vs k*(M-1)). Then the MC / binary-search rollout ratio at equal k = n,
   at the smallest budgets reaching 0.7, 0.8, 0.9 agreement, and at the highest agreement
   both reach. Binary search's agreement falls for large k: each bad prefix it probes has
   a 1-(1-0.02)^k chance of a success, which sends the search past the error.
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import os
import re
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
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


# --- section 2: rollouts per solution, binary search vs per-step MC -------------------------

ROLLOUT_BUDGETS = (1, 2, 3, 4, 6, 8, 12, 16)
ROLLOUT_TARGETS = (0.7, 0.8, 0.9)
ROLLOUT_REPEATS = 10  # rollout seeds per budget; agreement and rollouts are averaged over them
P_GOOD_RANGE = (0.3, 0.9)
P_BAD = 0.02
SIM_SEED = 20240611


@dataclass(frozen=True)
class SimulatedSolution:
    problem: str
    steps: tuple[str, ...]
    label: int  # ProcessBench: 0-based first wrong step, -1 when none
    final_correct: bool  # ProcessBench's final_answer_correct
    gold: str
    p_good: float


def simulated_solutions() -> list[SimulatedSolution]:
    import random

    rng = random.Random(SIM_SEED)
    return [
        SimulatedSolution(
            problem=r["problem"],
            steps=tuple(r["steps"]),
            label=int(r["label"]),
            final_correct=bool(r["final_answer_correct"]),
            # Not the problem's answer: a marker no step contains; the rollouts end in
            # \boxed{gold} or \boxed{-7919}, and the grader reads the *last* \boxed{}, so a
            # \boxed{} already in a step never decides a rollout.
            gold=str(1_000_003 + index),
            p_good=rng.uniform(*P_GOOD_RANGE),
        )
        for index, r in enumerate(_read("processbench_sample.jsonl"))
    ]


@functools.cache
def _grade(text: str, gold: str) -> bool | None:
    """autolabel.rollouts.grade, memoized: a prefix has two possible rollouts (gold or wrong
    answer), so each distinct graded text is checked once instead of once per draw."""
    from autolabel.rollouts import grade

    return grade(text, gold)


def _first_error(estimates: list) -> int:
    return next((e.step_index for e in estimates if e.value == -1), -1)


def _label_once(sol: SimulatedSolution, method: str, n: int, seed: int, engine_final: bool):
    """(predicted first error, rollouts sampled) for one solution, method and budget."""
    from autolabel.completers import SamplingParams, ScriptedCompleter
    from autolabel.prompts import rollout_prompt
    from autolabel.rollouts import FinalAnswer, RolloutSampler, binary_search, monte_carlo

    def prompt_for(steps):
        return rollout_prompt(sol.problem, list(steps))

    # P(a rollout reaches the gold answer), keyed on the exact prefix prompt: p_good before
    # the labeled first error, P_BAD from it on (an unknown prefix raises KeyError).
    p_success = {
        prompt_for(sol.steps[: i + 1]).text: (
            sol.p_good if sol.label == -1 or i < sol.label else P_BAD
        )
        for i in range(len(sol.steps))
    }
    completer = ScriptedCompleter(p_success.__getitem__, sol.gold)
    params = SamplingParams(n=n, seed=seed)
    sampler = RolloutSampler(completer, params, gold=sol.gold, grader=_grade)
    # engine_final: as RolloutEngine with the problem's real gold answer, the solution's own
    # final answer (ProcessBench's final_answer_correct) labels the last step unprobed.
    # Otherwise the solution is treated as having no final answer: every step is rolled out.
    final = FinalAnswer("own", sol.final_correct) if engine_final else FinalAnswer(None, None)
    label = monte_carlo if method == "mc" else binary_search
    estimates = label(sol.steps, sampler=sampler, prompt_for=prompt_for, final=final)
    assert sampler.sampled == completer.samples
    return _first_error(estimates), completer.samples


def _rollout_bounds(sol: SimulatedSolution, engine_final: bool) -> tuple[int, int]:
    """Probes per unit budget: binary search at most ceil(log2(M+1)) (ceil(log2 M) when the
    final answer decides the last step), MC exactly M (M - 1)."""
    m = len(sol.steps)
    if engine_final:
        return math.ceil(math.log2(m)) if m > 1 else 0, m - 1
    return math.ceil(math.log2(m + 1)), m


def _sweep(sols: list[SimulatedSolution], method: str, engine_final: bool) -> dict[int, tuple]:
    """budget -> (agreement, rollouts per solution), each averaged over ROLLOUT_REPEATS."""
    out = {}
    for n in ROLLOUT_BUDGETS:
        agree = rollouts = 0
        for seed in range(ROLLOUT_REPEATS):
            for sol in sols:
                first, sampled = _label_once(sol, method, n, seed, engine_final)
                bs_probes, mc_probes = _rollout_bounds(sol, engine_final)
                if method == "mc":
                    assert sampled == n * mc_probes, (sampled, n, mc_probes)
                else:
                    assert sampled <= n * bs_probes, (sampled, n, bs_probes)
                agree += first == sol.label
                rollouts += sampled
        runs = ROLLOUT_REPEATS * len(sols)
        out[n] = (agree / runs, rollouts / runs)
    return out


def _smallest_reaching(sweep: dict[int, tuple], target: float) -> int | None:
    return next((n for n in ROLLOUT_BUDGETS if sweep[n][0] >= target - 1e-9), None)


def _reached(sweep: dict[int, tuple], budget: int | None, name: str) -> str:
    if budget is not None:
        return f"{name}={budget}"
    peak = max(ROLLOUT_BUDGETS, key=lambda b: sweep[b][0])
    return f"not reached (peak {sweep[peak][0]:.3f} at {name}={peak})"


def section_rollouts(args: argparse.Namespace) -> None:
    sols = simulated_solutions()
    with_error = sum(s.label != -1 for s in sols)
    mean_m = sum(len(s.steps) for s in sols) / len(sols)
    print(
        f"== rollouts per solution: first-error binary search (OmegaPRM) vs per-step MC "
        f"(Math-Shepherd), {len(sols)} ProcessBench solutions ({with_error} with an error, "
        f"mean M = {mean_m:.2f} steps)"
    )
    print(
        f"simulated ScriptedCompleter: P(rollout reaches gold) = p_good ~ U{P_GOOD_RANGE} per "
        f"solution (seed {SIM_SEED}) before the labeled first error, {P_BAD} from it on; "
        f"graded by autolabel.rollouts.grade (memoized); rollout seeds 0..{ROLLOUT_REPEATS - 1}"
        f" per budget, the same for both methods; agreement = predicted first error == label"
    )
    _grade("The final answer is $\\boxed{1}$.", "1")  # answer-check worker start: not timed
    start = time.perf_counter()
    for engine_final, title in (
        (False, "no final-answer shortcut: every step, the last included, is rolled out"),
        (True, "engine's shortcut: the solution's own final answer labels the last step"),
    ):
        bs = _sweep(sols, "binary_search", engine_final)
        mc = _sweep(sols, "mc", engine_final)
        bounds = [_rollout_bounds(s, engine_final) for s in sols]
        bs_bound = sum(b for b, _ in bounds) / len(sols)
        mc_bound = sum(m for _, m in bounds) / len(sols)
        log_name = "log2 M" if engine_final else "log2(M+1)"
        print(f"-- {title}")
        print(
            f"   k=n | binary search: agree  rollouts/sol (<= k*ceil({log_name})) |"
            f" MC: agree  rollouts/sol (= k*{'(M-1)' if engine_final else 'M'}) | MC/BS rollouts"
        )
        for n in ROLLOUT_BUDGETS:
            (bs_a, bs_r), (mc_a, mc_r) = bs[n], mc[n]
            print(
                f"  {n:4d} |          {bs_a:5.3f}  {bs_r:8.2f} ({n * bs_bound:6.2f})"
                f" |     {mc_a:5.3f}  {mc_r:8.2f} ({n * mc_bound:6.2f})"
                f" | {mc_r / bs_r:5.2f}x"
            )
        best = min(max(a for a, _ in bs.values()), max(a for a, _ in mc.values()))
        for target in (*ROLLOUT_TARGETS, best):
            k, n = _smallest_reaching(bs, target), _smallest_reaching(mc, target)
            what = "highest level both reach" if target == best else "agreement"
            if k is None or n is None:
                print(
                    f"  {what} >= {target:.3f}: binary search {_reached(bs, k, 'k')}, "
                    f"MC {_reached(mc, n, 'n')}"
                )
                continue
            print(
                f"  {what} >= {target:.3f}: binary search k={k} ({bs[k][1]:.2f} rollouts/sol, "
                f"agree {bs[k][0]:.3f}), MC n={n} ({mc[n][1]:.2f}/sol, agree {mc[n][0]:.3f}): "
                f"MC/BS = {mc[n][1] / bs[k][1]:.2f}x"
            )
    false_good = [1 - (1 - P_BAD) ** k for k in ROLLOUT_BUDGETS]
    print(
        "P(some rollout of a bad prefix reaches gold) = 1-(1-p_bad)^k: "
        + ", ".join(f"k={k} {p:.2f}" for k, p in zip(ROLLOUT_BUDGETS, false_good, strict=True))
        + "; binary search risks it on every bad prefix it probes, MC only at the error step"
    )
    print(f"({time.perf_counter() - start:.1f} s)")


SECTIONS: dict[str, Callable[[argparse.Namespace], None]] = {
    "symbolic": section_symbolic,
    "rollouts": section_rollouts,
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
