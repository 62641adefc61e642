"""How many steps the symbolic engine refutes on labeled data, and how many rightly.

    .venv/bin/python bench/symbolic_refutations.py              # the numbers on the samples
    .venv/bin/python bench/symbolic_refutations.py --show       # and every refutation
    .venv/bin/python bench/symbolic_refutations.py --save r.json  # refutations, for a diff
    .venv/bin/python bench/symbolic_refutations.py --dev        # the ProcessBench dev set
    .venv/bin/python bench/symbolic_refutations.py --dev --calibrate --markdown var/kinds.md

--dev (issue 25) runs the engine over shared/data/processbench_dev.jsonl in --workers
processes (default 2) and reports, for the develop and measure parts of the split
(autolabel/quality/dev_split.py) and for all, against the raw labels and with the open
adjudications (autolabel/quality/adjudications.jsonl): refutations, precision (first-error
protocol), refuted correct steps as a share of correct steps, first-error recall, and per
claim kind refutations, right, precision and the Wilson 95% lower bound; every figure before
gating (every failed claim refutes) and after (only kinds that earned −1 on the develop part,
autolabel/calibration/kinds.py). --calibrate stores the develop part's kinds for the running
checker version in autolabel/calibration/symbolic_kinds.json (the engine's gate);
--markdown FILE and --readme-markdown FILE write the tables that `make bench-symbolic-kinds`
splices into docs/benchmarks.md and README.md; --show prints the develop part's refutations
judged wrong (never the measure part's: it is only measured). --metamorphic rewrites every
correct step we may read without changing its meaning and counts the refutations that appear
(quality/metamorphic.py; --show prints them, --limit N: first N rows, --rewrites a,b: only
those). Code: autolabel/quality/refutations.py.

Without --dev:

Runs autolabel.engines.symbolic.SymbolicEngine (the code the Celery workers run, on an
unsaved SolutionInput) over every solution of processbench_sample.jsonl and the modified
processes of prmbench_sample.jsonl (problem: ``modified_question``), read by the importers'
parsers through autolabel/quality/data.py (shared with bench/label_quality.py).

Truth is known only up to the first error: steps before it are correct, the first wrong
step is wrong. ProcessBench's ``label`` is that index (-1: every step correct); PRMBench's
is ``min(error_steps) - 1`` (1-based there; ``multi_solutions`` rows have no error step).
So precision counts refutations at or before the first error; refutations after it are
reported apart (for PRMBench, split by whether the step is one of ``error_steps``).
Recall of first errors: the share of erroneous solutions whose first wrong step is refuted.
Refutations are also counted by the kind of their failed claims (ClaimResult.kind).

A second pass runs the engine over steps known correct: GSM8K reference answers (a step a
line), MATH reference solutions (a step a paragraph), PRM800K steps rated 0 or +1 (raw rows and
MR-MATH). Each refutation there is printed: false unless the step holds a false computation.

Labels judge whole steps: a labeller who reads on can leave a false computation unmarked.
REVIEWED: refuted steps labelled correct, read by hand and false as written (counted right).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
from autolabel.quality.data import DATA_DIR as DATA  # noqa: E402
from autolabel.quality.data import LabeledSolution, read_labeled  # noqa: E402

# (dataset, ref, step) -> why the refuted step is wrong although the label says correct.
# ProcessBench's are in autolabel/quality/adjudications.jsonl (read below); this one is a
# PRM800K step outside any adjudicated benchmark.
REVIEWED = {
    ("prm800k_rated_ok", "mrmath-0", 5): "-81 + 1 = (-80) + 1: -80 is not -79",
}


def _with_adjudications() -> dict[tuple[str, str, int], str]:
    """REVIEWED and the adjudicated ProcessBench steps whose label "correct" we judge wrong."""
    from autolabel.quality.adjudications import read_adjudications

    found = dict(REVIEWED)
    for (row, step), item in read_adjudications().items():
        dataset, _, ref = row.partition(":")
        if item.label == "correct":
            found[(dataset, ref, step)] = item.reason
    return found


@dataclass
class Sample:
    dataset: str
    ref: str
    problem: str
    steps: tuple[str, ...]
    first_error: int  # 0-based; -1: no wrong step
    error_steps: frozenset[int] = frozenset()  # 0-based, where known beyond the first


@dataclass
class Tally:
    solutions: int = 0
    erroneous: int = 0
    first_error_refuted: int = 0
    refuted_known: int = 0  # at or before the first error
    refuted_right: int = 0  # ... and the step is the first wrong one
    refuted_reviewed: int = 0  # ... or a step the labels call correct, wrong by REVIEWED
    refuted_after: int = 0
    refuted_after_marked: int = 0  # after the first error, on a step the data marks wrong
    verified_known: int = 0
    verified_wrong: int = 0  # verified the first wrong step
    steps: int = 0
    kinds: Counter = field(default_factory=Counter)  # kind -> refutations at/before first error
    kinds_right: Counter = field(default_factory=Counter)
    kinds_reviewed: Counter = field(default_factory=Counter)
    # (kind, "held" | "failed") -> claims, over the steps with a verdict
    claims: Counter = field(default_factory=Counter)


def _read(name: str) -> list[dict]:
    with open(DATA / name, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def samples() -> list[Sample]:
    """ProcessBench and PRMBench solutions as the importers read them (the steps the workers
    see); PRMBench's error step numbers past the end of the process are dropped there."""
    out = []
    for solution in read_labeled(DATA / "processbench_sample.jsonl"):
        ref = str(solution.metadata["processbench"]["id"])
        out.append(_sample("processbench", ref, solution))
    for solution in read_labeled(DATA / "prmbench_sample.jsonl"):
        meta = solution.metadata["prmbench"]
        out.append(_sample("prmbench", f"{meta['classification']}-{meta['idx']}", solution))
    return out


def _sample(dataset: str, ref: str, solution: LabeledSolution) -> Sample:
    errors = frozenset(i for i, truth in enumerate(solution.truth) if truth == -1)
    return Sample(dataset, ref, solution.problem, solution.steps, solution.first_error, errors)


def correct_samples() -> list[Sample]:
    """Solutions whose every step is taken as correct (first_error -1)."""
    out = []
    for n, r in enumerate(_read("gsm8k_sample.jsonl")):
        lines = [s for s in r["answer"].split("\n") if s.strip() and not s.startswith("####")]
        out.append(Sample("gsm8k_reference", str(n), r["question"], tuple(lines), -1))
    for r in _read("math500_sample.jsonl"):
        paragraphs = [p for p in re.split(r"\n\s*\n", r["solution"]) if p.strip()]
        out.append(Sample("math_reference", r["unique_id"], r["problem"], tuple(paragraphs), -1))
    for n, s in enumerate(read_labeled(DATA / "prm800k_mrmath_redundant_sample.jsonl")):
        out.append(Sample("prm800k_rated_ok", f"mrmath-{n}", s.problem, s.steps, -1))
    for n, r in enumerate(_read("prm800k_sample.jsonl")):
        chosen: list[str] = []
        for step in r["label"]["steps"]:
            for c in step["completions"] or []:
                if c["rating"] in (0, 1):
                    out.append(
                        Sample(
                            "prm800k_rated_ok",
                            f"raw-{n}",
                            r["question"]["problem"],
                            (*chosen, c["text"]),
                            -1,
                        )
                    )
            index = step.get("chosen_completion")
            if index is not None and step["completions"]:
                chosen.append(step["completions"][index]["text"])
    return out


def _refuted(suggestion) -> bool:
    """A step with a failed claim: a −1, or "doubtful" evidence where the claim's kind has not
    earned a −1 (these counts are before the kind gate; --dev reports both)."""
    return bool(suggestion.evidence.get("failed"))


def run_correct(show: bool, reviewed_steps: dict[tuple[str, str, int], str]) -> Counter:
    """Refutations over steps known correct, per dataset (only the last step of a raw
    PRM800K sample, the rated completion, is counted there)."""
    from autolabel.engines.base import SolutionInput
    from autolabel.engines.symbolic import SymbolicEngine

    engine = SymbolicEngine()
    counts: Counter = Counter()
    for sample in correct_samples():
        result = engine(
            SolutionInput(problem=sample.problem, gold_answer="", steps=sample.steps), {}
        )
        last_only = sample.ref.startswith("raw-")
        steps = [len(sample.steps) - 1] if last_only else range(len(sample.steps))
        counts[f"{sample.dataset} steps"] += len(steps)
        for s in result.suggestions:
            if last_only and s.step_index != len(sample.steps) - 1:
                continue
            refuted = _refuted(s)
            counts[f"{sample.dataset} {'refuted' if refuted else 'verified'}"] += 1
            reviewed = reviewed_steps.get((sample.dataset, sample.ref, s.step_index))
            counts[f"{sample.dataset} reviewed"] += refuted and reviewed is not None
            if refuted and show:
                truth = f"reviewed: {reviewed}" if reviewed else "labelled correct"
                print(f"-- {sample.dataset} {sample.ref} step {s.step_index} ({truth})")
                print("   " + sample.steps[s.step_index][:600].replace("\n", "\n   "))
                for c in s.evidence["failed"]:
                    print(f"   => {c['text']} [{c['lhs_value']} | {c['rhs_value']}]: {c['reason']}")
    return counts


def run(
    show: bool, reviewed_steps: dict[tuple[str, str, int], str]
) -> tuple[dict[str, Tally], list[dict]]:
    from autolabel import timeouts
    from autolabel.engines.base import SolutionInput
    from autolabel.engines.symbolic import SymbolicEngine

    timeouts.warm_up()
    engine = SymbolicEngine()
    tallies: dict[str, Tally] = {}
    refutations: list[dict] = []
    for sample in samples():
        tally = tallies.setdefault(sample.dataset, Tally())
        result = engine(
            SolutionInput(problem=sample.problem, gold_answer="", steps=sample.steps), {}
        )
        tally.solutions += 1
        tally.steps += len(sample.steps)
        tally.erroneous += sample.first_error >= 0
        first = sample.first_error if sample.first_error >= 0 else len(sample.steps)
        for s in result.suggestions:
            known = s.step_index <= first
            wrong = s.step_index == sample.first_error
            for claim in s.evidence["claims"]:
                if claim["holds"] is not None:
                    outcome = "held" if claim["holds"] else "failed"
                    tally.claims[(claim["kind"], outcome)] += 1
            if s.value == 1 and known:
                tally.verified_known += 1
                tally.verified_wrong += wrong
            if not _refuted(s):
                continue
            failed = s.evidence["failed"]
            kinds = sorted({c["kind"] for c in failed})
            if known:
                tally.refuted_known += 1
                tally.refuted_right += wrong
                tally.first_error_refuted += wrong
                reviewed = reviewed_steps.get((sample.dataset, sample.ref, s.step_index))
                for kind in kinds:
                    tally.kinds[kind] += 1
                    tally.kinds_right[kind] += wrong
                    tally.kinds_reviewed[kind] += wrong or reviewed is not None
                tally.refuted_reviewed += wrong or reviewed is not None
                truth = "wrong" if wrong else f"labelled correct; reviewed: {reviewed}"
                if not wrong and reviewed is None:
                    truth = "CORRECT"
            else:
                tally.refuted_after += 1
                marked = s.step_index in sample.error_steps
                tally.refuted_after_marked += marked
                truth = "after first error" + (" (marked wrong)" if marked else "")
            refutations.append(
                {
                    "dataset": sample.dataset,
                    "ref": sample.ref,
                    "step": s.step_index,
                    "first_error": sample.first_error,
                    "truth": truth,
                    "kinds": kinds,
                    "claims": [
                        f"{c['text']}  [{c['lhs_value']} | {c['rhs_value']}]" for c in failed
                    ],
                    "reasons": [c["reason"] for c in failed],
                }
            )
            if show:
                r = refutations[-1]
                print(f"-- {r['dataset']} {r['ref']} step {r['step']} ({truth}; {','.join(kinds)})")
                print("   " + sample.steps[s.step_index][:600].replace("\n", "\n   "))
                for claim, reason in zip(r["claims"], r["reasons"], strict=True):
                    print(f"   => {claim}: {reason}")
    return tallies, refutations


def report(tallies: dict[str, Tally]) -> None:
    total = Tally()
    for name, t in [*tallies.items(), ("all", total)]:
        if name != "all":
            for key, value in vars(t).items():
                if isinstance(value, Counter):
                    getattr(total, key).update(value)
                else:
                    setattr(total, key, getattr(total, key) + value)
        precision = t.refuted_right / t.refuted_known if t.refuted_known else float("nan")
        reviewed = t.refuted_reviewed / t.refuted_known if t.refuted_known else float("nan")
        recall = t.first_error_refuted / t.erroneous if t.erroneous else float("nan")
        print(
            f"{name:12s} solutions {t.solutions:3d} (erroneous {t.erroneous:3d}), "
            f"steps {t.steps:4d}\n"
            f"  refuted at/before first error {t.refuted_known:3d}, truly wrong "
            f"{t.refuted_right:3d}: precision {precision:.3f} by the labels, "
            f"{reviewed:.3f} with the {t.refuted_reviewed - t.refuted_right} hand-reviewed\n"
            f"  first errors refuted {t.first_error_refuted:3d}/{t.erroneous}: "
            f"recall {recall:.3f}\n"
            f"  refuted after the first error {t.refuted_after:3d} "
            f"(on steps the data marks wrong: {t.refuted_after_marked})\n"
            f"  verified at/before first error {t.verified_known:3d} "
            f"(of them the first wrong step: {t.verified_wrong})"
        )
    print(
        "refutations at/before the first error by failed-claim kind "
        "(wrong by the labels / wrong with the hand-reviewed / all):"
    )
    for kind, n in total.kinds.most_common():
        print(
            f"  {kind:16s} {total.kinds_right[kind]:3d} / {total.kinds_reviewed[kind]:3d} / {n:3d}"
        )
    print("decided claims in steps with a verdict, by kind (held / failed):")
    for kind in sorted({k for k, _ in total.claims}):
        print(
            f"  {kind:16s} {total.claims[(kind, 'held')]:4d} / {total.claims[(kind, 'failed')]:3d}"
        )


DEV_FILE = "processbench_dev.jsonl"


def run_dev(args: argparse.Namespace) -> dict:
    """--dev: the dev set by part and claim kind (see the module's docstring)."""
    from autolabel.calibration import kinds as calibration_kinds
    from autolabel.quality import kinds_markdown
    from autolabel.quality.adjudications import read_adjudications
    from autolabel.quality.refutations import kinds_entry, measured_gate, run_solutions, score
    from autolabel.symbolic import CHECKER_VERSION

    adjudications = read_adjudications()
    solutions = read_labeled(args.data or DATA / DEV_FILE, limit=args.limit)
    start = time.perf_counter()

    def progress(n: int) -> None:
        if args.progress and (n % 100 == 0 or n == len(solutions)):
            print(f"{n}/{len(solutions)} ({time.perf_counter() - start:.0f} s)", file=sys.stderr)

    # The harness reads every failed claim, −1 or "doubtful", whatever gate is stored.
    runs = run_solutions(solutions, workers=args.workers, progress=progress)
    seconds = time.perf_counter() - start
    gate = measured_gate(runs, adjudications, CHECKER_VERSION)
    scored = score(runs, adjudications, gate)
    name = args.data.name if args.data else DEV_FILE
    on = f"ProcessBench dev ({name}), develop part, with {len(adjudications)} adjudications"
    if args.limit:
        on += f", first {args.limit} solutions"
    entry = kinds_entry(scored, on=on, rule=calibration_kinds.rule())
    report_dev(scored, gate)
    print(f"({len(runs)} solutions in {seconds:.1f} s with {args.workers} workers)")
    if args.calibrate:
        path = calibration_kinds.write_kinds(CHECKER_VERSION, entry)
        print(f"wrote {path} ({CHECKER_VERSION})", file=sys.stderr)
    if args.markdown:
        note = (
            f"Checker `{CHECKER_VERSION}` on {name} ({len(runs)} solutions; develop / measure "
            f"split by problem), {len(adjudications)} adjudications. A kind earns −1 with "
            f"adjudicated precision ≥ {calibration_kinds.MIN_PRECISION:.0%} and Wilson 95% "
            f"lower bound ≥ {calibration_kinds.MIN_WILSON_LOWER:.2f} on the develop part "
            "(solving and substitution pooled, rewriting and rearranging pooled, each also "
            "≥ 95% on its own). Cells: right/judged (precision %)."
        )
        args.markdown.parent.mkdir(parents=True, exist_ok=True)
        args.markdown.write_text(kinds_markdown.markdown(scored, entry["kinds"], note) + "\n")
    if args.readme_markdown:
        args.readme_markdown.parent.mkdir(parents=True, exist_ok=True)
        table = kinds_markdown.readme_markdown(scored, entry["kinds"])
        args.readme_markdown.write_text(table + "\n")
    if args.show:
        show_develop(runs, adjudications)
    result = {"seconds": seconds, "scored": scored, "kinds": entry}
    if args.save:
        args.save.write_text(json.dumps(result, indent=1, ensure_ascii=False))
    return result


def report_dev(scored: dict, gate) -> None:
    for gating, title in (("before", "before gating"), ("after", "after gating")):
        print(f"== {title}")
        for truth in ("raw", "adjudicated"):
            for part, f in scored[gating][truth].items():
                precision = "–" if f["precision"] is None else f"{f['precision']:.3f}"
                share = f["refuted_correct_share"]
                recall = f["first_error_recall"]
                print(
                    f"  {truth:11s} {part:8s} refutations {f['refutations']:4d} "
                    f"(judged {f['judged']:4d}, right {f['right']:4d}): precision {precision}, "
                    f"refuted correct {f['refuted_correct']} = "
                    f"{'–' if share is None else f'{100 * share:.2f}'}% of "
                    f"{f['correct_steps']}, first-error recall {f['first_errors_refuted']}/"
                    f"{f['erroneous']} = {'–' if recall is None else f'{100 * recall:.1f}'}%"
                )
    print(
        "== kinds before gating: right/judged (develop raw, develop adj., measure raw, "
        "measure adj.), develop adj. Wilson low, earned"
    )
    before = scored["before"]
    for kind in before["raw"]["all"]["kinds"]:
        cells = []
        for part in ("develop", "measure"):
            for truth in ("raw", "adjudicated"):
                c = before[truth][part]["kinds"].get(kind)
                cells.append(f"{c['right']}/{c['refutations']}" if c else "-")
        low = gate.kinds.get(kind, {}).get("wilson_lower")
        print(
            f"  {kind:16s} {'  '.join(f'{c:>7s}' for c in cells)}  "
            f"{'    -' if low is None else f'{low:.3f}'} {'EARNED' if gate.earned(kind) else ''}"
        )


def show_develop(runs, adjudications) -> None:
    """The develop part's refutations at or before the first error that are not it."""
    from autolabel.quality.dev_split import DEVELOP
    from autolabel.quality.refutations import truths

    for run in runs:
        if run.part != DEVELOP:
            continue
        truth = truths(run, adjudications)["adjudicated"]
        first = truth.index(-1) if -1 in truth else None
        for f in run.failed:
            if truth[f.step] != 1 or (first is not None and f.step > first):
                continue
            print(f"-- {run.ref} step {f.step} (first error {first}; {','.join(f.kinds)})")
            print("   " + run.steps[f.step][:600].replace("\n", "\n   "))
            for claim in f.claims:
                print(f"   => {claim}")


def main(argv: list[str] | None = None) -> dict | None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show", action="store_true", help="print every refutation")
    parser.add_argument("--save", type=Path, help="write the refutations as JSON here")
    parser.add_argument(
        "--no-correct", action="store_true", help="skip the pass over known-correct steps"
    )
    parser.add_argument("--dev", action="store_true", help="the ProcessBench dev set, by part")
    parser.add_argument(
        "--metamorphic", action="store_true", help="rewrite correct steps, count new refutations"
    )
    parser.add_argument("--rewrites", help="with --metamorphic: only these (a,b,...)")
    parser.add_argument("--data", type=Path, help=f"with --dev: another file than {DEV_FILE}")
    parser.add_argument("--limit", type=int, help="with --dev: the first N solutions")
    parser.add_argument("--workers", type=int, default=2, help="with --dev: processes")
    parser.add_argument("--progress", action="store_true", help="with --dev: progress (stderr)")
    parser.add_argument(
        "--calibrate",
        action="store_true",
        help="with --dev: store the develop part's kinds for this checker version",
    )
    parser.add_argument(
        "--calibration-dir", type=Path, help="with --calibrate: write the table here instead"
    )
    parser.add_argument("--markdown", type=Path, help="with --dev: write the tables here")
    parser.add_argument(
        "--readme-markdown", type=Path, help="with --dev: write README's kinds table here"
    )
    args = parser.parse_args(argv)
    if args.calibrate and args.limit and not args.calibration_dir:
        parser.error("--calibrate with --limit needs --calibration-dir (a slice is no table)")
    if args.calibration_dir:
        os.environ["STEPLAB_CALIBRATION_DIR"] = str(args.calibration_dir)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "annotate.settings.local")
    import django

    django.setup()  # the importers' parsers need Django's apps
    if args.dev:
        return run_dev(args)
    if args.metamorphic:  # quality/metamorphic.py: develop part and public samples only
        from autolabel.quality import metamorphic, shared_correct

        develop = read_labeled(args.data or DATA / DEV_FILE, limit=args.limit)
        steps = metamorphic.correct_steps(develop, correct_samples())
        steps += shared_correct.shared_correct_steps()  # PRMBench, GSM8K models, Shepherd
        only = args.rewrites.split(",") if args.rewrites else None
        result = metamorphic.stress(steps, workers=args.workers, only=only)
        print(metamorphic.report(result, show=args.show, only=only))
        return None
    start = time.perf_counter()
    reviewed_steps = _with_adjudications()
    tallies, refutations = run(args.show, reviewed_steps)
    report(tallies)
    if not args.no_correct:
        counts = run_correct(args.show, reviewed_steps)
        print("known-correct steps (every refutation here is a false one unless reviewed):")
        for name in sorted({k.rsplit(" ", 1)[0] for k in counts}):
            print(
                f"  {name:18s} steps {counts[name + ' steps']:5d}, "
                f"refuted {counts[name + ' refuted']:3d} (hand-reviewed wrong "
                f"{counts[name + ' reviewed']}), verified {counts[name + ' verified']:4d}"
            )
    print(f"({time.perf_counter() - start:.1f} s)")
    if args.save:
        args.save.write_text(json.dumps(refutations, indent=1, ensure_ascii=False))
    return None


if __name__ == "__main__":
    main()
