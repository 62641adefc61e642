"""Symbolic refutations on the ProcessBench dev set, by part and by claim kind (issue 25).

:func:`run_solutions` runs the symbolic engine (the code the workers run) over labeled
solutions in a pool of processes and keeps, per step with a failed claim, whether the engine
said −1 or only "doubtful" and the failed claims' kinds. :func:`score` tallies, for each part
of the dev split (autolabel/quality/dev_split.py: develop, measure, all) against the raw labels
and with the open adjudications (adjudications.py):

- refutations (every step with a failed claim, and those judged);
- precision under ProcessBench's first-error protocol: a refutation at or before the first
  error is judged, right iff it is the first wrong step; after it, unknown;
- refuted correct steps as a share of the known-correct steps;
- first-error recall: the share of erroneous solutions whose first wrong step is refuted;
- per claim kind: refutations judged, right, precision, Wilson 95% lower bound.

Each figure is given before gating (every step with a failed claim is a refutation) and after
(only steps with a failed claim of an earned kind, autolabel/calibration/kinds.py, with the
gate measured on the develop part with adjudications). No database.
"""

from __future__ import annotations

import multiprocessing
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from autolabel.calibration.kinds import FAMILIES, KindGate, kind_row, pooled_row

from .adjudications import Adjudication, adjudicated_truth
from .data import LabeledSolution
from .dev_split import PARTS, part_of

ALL = "all"
TRUTHS = ("raw", "adjudicated")
GATINGS = ("before", "after")


@dataclass(frozen=True)
class FailedStep:
    """A step with a failed claim: the engine's value (−1, or None for "doubtful")."""

    step: int
    value: int | None
    kinds: tuple[str, ...]
    claims: tuple[str, ...]  # "text [lhs value | rhs value]: reason", for reading


@dataclass(frozen=True)
class SolutionRun:
    ref: str
    part: str
    truth: tuple[int | None, ...]  # the raw labels' (data.known_truth)
    failed: tuple[FailedStep, ...]
    steps: tuple[str, ...] = ()


_engine: Any = None


def _start_worker() -> None:
    global _engine
    from autolabel import timeouts
    from autolabel.engines.symbolic import SymbolicEngine

    timeouts.warm_up()
    _engine = SymbolicEngine()


def run_solution(solution: LabeledSolution) -> SolutionRun:
    """The engine over one solution (call _start_worker first in this process)."""
    if _engine is None:
        _start_worker()
    result = _engine(solution.as_input(), {})
    failed = []
    for s in result.suggestions:
        if not s.evidence.get("failed"):
            continue
        claims = s.evidence["failed"]
        failed.append(
            FailedStep(
                step=s.step_index,
                value=s.value,
                kinds=tuple(sorted({c["kind"] for c in claims})),
                claims=tuple(
                    f"{c['text']}  [{c['lhs_value']} | {c['rhs_value']}]: {c['reason']}"
                    for c in claims
                ),
            )
        )
    return SolutionRun(
        solution.ref, part_of(solution.problem), solution.truth, tuple(failed), solution.steps
    )


def run_solutions(
    solutions: Sequence[LabeledSolution],
    *,
    workers: int = 2,
    progress: Callable[[int], None] | None = None,
) -> list[SolutionRun]:
    """Every solution through the engine, `workers` processes at a time (order kept)."""
    if workers <= 1:
        runs = []
        for n, solution in enumerate(solutions, start=1):
            runs.append(run_solution(solution))
            if progress:
                progress(n)
        return runs
    # fork: the workers inherit the parsed solutions' modules; each starts its own checker
    # server (autolabel.timeouts) in _start_worker, none is shared with this process.
    context = multiprocessing.get_context("fork")
    with context.Pool(workers, initializer=_start_worker) as pool:
        runs = []
        for n, run in enumerate(pool.imap(run_solution, solutions, chunksize=4), start=1):
            runs.append(run)
            if progress:
                progress(n)
        return runs


@dataclass
class Figures:
    solutions: int = 0
    steps: int = 0
    erroneous: int = 0
    correct_steps: int = 0  # known correct, at or before the first error
    refutations: int = 0  # every refuted step
    judged: int = 0  # ... at or before the first error
    right: int = 0  # ... and the first wrong step
    refuted_correct: int = 0  # judged and known correct
    first_errors_refuted: int = 0
    kinds: Counter = field(default_factory=Counter)  # judged refutations with a failed kind
    kinds_right: Counter = field(default_factory=Counter)
    families: Counter = field(default_factory=Counter)  # kinds.FAMILIES, a step counted once
    families_right: Counter = field(default_factory=Counter)

    def add(self, truth: Sequence[int | None], refuted: dict[int, tuple[str, ...]]) -> None:
        first = truth.index(-1) if -1 in truth else None
        self.solutions += 1
        self.steps += len(truth)
        self.erroneous += first is not None
        judged = [i for i, t in enumerate(truth) if t is not None and (first is None or i <= first)]
        self.correct_steps += sum(truth[i] == 1 for i in judged)
        self.refutations += len(refuted)
        for i in judged:
            if i not in refuted:
                continue
            right = truth[i] == -1
            self.judged += 1
            self.right += right
            self.refuted_correct += truth[i] == 1
            self.first_errors_refuted += right
            for kind in refuted[i]:
                self.kinds[kind] += 1
                self.kinds_right[kind] += right
            for family in {FAMILIES[k] for k in refuted[i] if k in FAMILIES}:
                self.families[family] += 1
                self.families_right[family] += right

    def report(self) -> dict[str, Any]:
        return {
            "solutions": self.solutions,
            "steps": self.steps,
            "erroneous": self.erroneous,
            "correct_steps": self.correct_steps,
            "refutations": self.refutations,
            "judged": self.judged,
            "right": self.right,
            "precision": self.right / self.judged if self.judged else None,
            "refuted_correct": self.refuted_correct,
            "refuted_correct_share": (
                self.refuted_correct / self.correct_steps if self.correct_steps else None
            ),
            "first_errors_refuted": self.first_errors_refuted,
            "first_error_recall": (
                self.first_errors_refuted / self.erroneous if self.erroneous else None
            ),
            "kinds": {
                kind: self._kind_row(kind, n)
                for kind, n in sorted(self.kinds.items(), key=lambda kv: (-kv[1], kv[0]))
            },
        }

    def _kind_row(self, kind: str, n: int) -> dict[str, Any]:
        row = kind_row(self.kinds_right[kind], n)
        family = FAMILIES.get(kind)
        if family is None:
            return row
        return pooled_row(row, family, self.families_right[family], self.families[family])


def truths(
    run: SolutionRun, adjudications: dict[tuple[str, int], Adjudication]
) -> dict[str, tuple[int | None, ...]]:
    return {"raw": run.truth, "adjudicated": adjudicated_truth(run.ref, run.truth, adjudications)}


def measured_gate(
    runs: Iterable[SolutionRun], adjudications: dict[tuple[str, int], Adjudication], version: str
) -> KindGate:
    """The gate as the develop part with adjudications earns it (before any gating)."""
    figures = Figures()
    for run in runs:
        if run.part == PARTS[0]:
            figures.add(truths(run, adjudications)["adjudicated"], _refuted(run, None))
    kinds = figures.report()["kinds"]
    return KindGate(version, kinds)


def _refuted(run: SolutionRun, gate: KindGate | None) -> dict[int, tuple[str, ...]]:
    """Step -> failed kinds of the steps refuted, before gating (gate None) or after it."""
    return {f.step: f.kinds for f in run.failed if gate is None or gate.refutes(f.kinds)}


def score(
    runs: Iterable[SolutionRun],
    adjudications: dict[tuple[str, int], Adjudication],
    gate: KindGate,
) -> dict[str, dict[str, dict[str, Any]]]:
    """{gating: {truth: {part: figures}}}, parts develop, measure and all."""
    figures = {g: {t: {p: Figures() for p in (*PARTS, ALL)} for t in TRUTHS} for g in GATINGS}
    for run in runs:
        by_truth = truths(run, adjudications)
        for gating in GATINGS:
            refuted = _refuted(run, None if gating == "before" else gate)
            for name, truth in by_truth.items():
                for part in (run.part, ALL):
                    figures[gating][name][part].add(truth, refuted)
    return {
        g: {t: {p: f.report() for p, f in by_part.items()} for t, by_part in by_truth.items()}
        for g, by_truth in figures.items()
    }


def kinds_entry(
    scored: dict[str, dict[str, dict[str, Any]]], *, on: str, rule: dict[str, Any]
) -> dict[str, Any]:
    """The calibration table's entry for one checker version: the develop part's kinds with
    adjudications (what earns), the raw counts beside them."""
    develop = scored["before"]["adjudicated"][PARTS[0]]
    raw = scored["before"]["raw"][PARTS[0]]["kinds"]
    kinds = {}
    for kind, cell in develop["kinds"].items():
        raw_cell = raw.get(kind, {})
        kinds[kind] = {**cell, "right_raw": raw_cell.get("right", 0)}
    return {
        "on": on,
        "rule": rule,
        "measured": date.today().isoformat(),
        "solutions": develop["solutions"],
        "kinds": kinds,
    }


__all__ = [
    "ALL",
    "FailedStep",
    "Figures",
    "SolutionRun",
    "kinds_entry",
    "measured_gate",
    "run_solution",
    "run_solutions",
    "score",
    "truths",
]
