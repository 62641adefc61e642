"""Per-source label quality against known step truth.

- ProcessBench F1: a source predicts the first step it rates −1 (no −1: "no error"); accuracy
  on erroneous solutions (the predicted step is the true first error) and on correct ones
  (no −1 at all), and their harmonic mean. Solutions whose first error is unknown are left out.
- Per step, only where the truth is known: precision and recall of −1 and of +1; the base rate
  of correct steps and the +1 margin (+1 precision minus that base rate: what a +1 adds over
  labeling every step correct).
- Coverage: the share of all steps the source rated (and the solutions with a rated step).
  Seconds per solution: its wall time.
- Calibration: a rated known step's score in bins, against whether the verdict was right and
  whether the step is correct. The score is the source's own (`evidence["raw_score"]` when
  calibration replaced it): that is what autolabel/calibration maps. Score bins per verdict
  kind (`score_bins`) are what it fits for rollout, judge and prm.
- Verdicts per kind (−1, +1, and each evidence kind, e.g. symbolic's "checks out"), on known
  steps: how many and how often right. For an evidence-only suggestion (value None) "right"
  is the step being correct, with its margin over the base rate: evidence that predicts
  nothing has a margin near 0. These are what autolabel/calibration stores.
- Answer verdicts (the solution's answer_correct): how often an answer judged wrong belongs to
  an erroneous solution, and one judged right to a solution with no wrong step.

Several suggestions for one step (several agents of a source) merge as consensus merges them:
the most negative value wins.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from autolabel.engines.base import StepSuggestion

from .data import LabeledSolution

BINS = 10


def ratio(num: float, den: float) -> float | None:
    return num / den if den else None


def harmonic(a: float | None, b: float | None) -> float | None:
    if a is None or b is None:
        return None
    return 2 * a * b / (a + b) if a + b else 0.0


def merged(suggestions: list[StepSuggestion], steps: int) -> dict[int, StepSuggestion]:
    by_step: dict[int, StepSuggestion] = {}
    for s in suggestions:
        if s.value is None or not 0 <= s.step_index < steps:
            continue
        held = by_step.get(s.step_index)
        if held is None or s.value < (held.value or 0):
            by_step[s.step_index] = s
    return by_step


def evidence_only(suggestions: list[StepSuggestion], steps: int) -> dict[int, str]:
    """Step -> evidence kind, for evidence-only suggestions (value None with a kind)."""
    return {
        s.step_index: str(s.evidence["kind"])
        for s in suggestions
        if s.value is None and 0 <= s.step_index < steps and s.evidence.get("kind")
    }


def verdict_kind(value: int) -> str:
    return "+1" if value > 0 else ("-1" if value < 0 else "0")


def raw_score(s: StepSuggestion) -> float | None:
    """The source's own score: kept in evidence when calibration replaced it."""
    return s.evidence.get("raw_score", s.score)


def score_bin(score: float | None) -> int | None:
    if score is None:
        return None
    return min(BINS - 1, max(0, int(score * BINS)))


@dataclass
class Tally:
    solutions: int = 0
    steps: int = 0
    rated: int = 0
    rated_solutions: int = 0  # solutions with a rated step (a judge reply unread: none)
    seconds: float = 0.0
    errors: Counter = field(default_factory=Counter)  # engine error -> solutions
    erroneous: int = 0
    erroneous_hit: int = 0
    correct: int = 0
    correct_hit: int = 0
    known: int = 0
    known_correct: int = 0
    neg: int = 0
    neg_right: int = 0
    pos: int = 0
    pos_right: int = 0
    answer_wrong: int = 0
    answer_wrong_erroneous: int = 0
    answer_right: int = 0
    answer_right_correct: int = 0
    # bin (None: no score) -> [verdicts, right verdicts, correct steps, sum of scores]
    calibration: dict[int | None, list[float]] = field(default_factory=dict)
    # (verdict kind, bin) -> [verdicts, right verdicts, sum of scores]; scored verdicts only
    score_bins: dict[tuple[str, int], list[float]] = field(default_factory=dict)
    # verdict kind ("-1", "+1", an evidence kind) -> [known steps, right (evidence: correct)]
    verdicts: dict[str, list[float]] = field(default_factory=dict)
    agents: Counter = field(default_factory=Counter)  # agent -> solutions

    def add(
        self,
        solution: LabeledSolution,
        suggestions: list[StepSuggestion],
        *,
        seconds: float,
        answer_correct: bool | None = None,
        error: str = "",
        agent: str = "",
    ) -> None:
        self.solutions += 1
        if agent:
            self.agents[agent] += 1
        self.steps += len(solution.steps)
        self.seconds += seconds
        if error:
            self.errors[error[:200]] += 1
        by_step = merged(suggestions, len(solution.steps))
        evidence = evidence_only(suggestions, len(solution.steps))
        self.rated += len(by_step)
        self.rated_solutions += bool(by_step)
        first = solution.first_error
        predicted = min((i for i, s in by_step.items() if s.value == -1), default=-1)
        if first is not None and first >= 0:
            self.erroneous += 1
            self.erroneous_hit += predicted == first
        elif first == -1:
            self.correct += 1
            self.correct_hit += predicted == -1
        for i, truth in enumerate(solution.truth):
            if truth is None:
                continue
            self.known += 1
            self.known_correct += truth == 1
            s = by_step.get(i)
            if s is None and i in evidence:
                cell = self.verdicts.setdefault(evidence[i], [0, 0])
                cell[0] += 1
                cell[1] += truth == 1
            if s is None or s.value not in (-1, 1):
                continue
            right = s.value == truth
            cell = self.verdicts.setdefault(verdict_kind(s.value), [0, 0])
            cell[0] += 1
            cell[1] += right
            if s.value == -1:
                self.neg += 1
                self.neg_right += right
            else:
                self.pos += 1
                self.pos_right += right
            score = raw_score(s)
            key = score_bin(score)
            cell = self.calibration.setdefault(key, [0, 0, 0, 0.0])
            cell[0] += 1
            cell[1] += right
            cell[2] += truth == 1
            cell[3] += score or 0.0
            if score is not None and key is not None:
                cell = self.score_bins.setdefault((verdict_kind(s.value), key), [0, 0, 0.0])
                cell[0] += 1
                cell[1] += right
                cell[2] += score
        if answer_correct is False:
            self.answer_wrong += 1
            self.answer_wrong_erroneous += first is not None and first >= 0
        elif answer_correct is True:
            self.answer_right += 1
            self.answer_right_correct += first == -1

    def merge(self, other: Tally) -> None:
        for name, value in vars(other).items():
            if isinstance(value, Counter):
                getattr(self, name).update(value)
            elif isinstance(value, dict):
                table = getattr(self, name)
                for key, cell in value.items():
                    mine = table.setdefault(key, [0] * len(cell))
                    for k, v in enumerate(cell):
                        mine[k] += v
            else:
                setattr(self, name, getattr(self, name) + value)

    def score_bins_report(self) -> dict[str, list[dict[str, Any]]]:
        """Per verdict kind, its scored verdicts per bin: [lo, hi), n, right (a rate), mean."""
        out: dict[str, list[dict[str, Any]]] = {}
        for (kind, key), (n, right, total) in sorted(self.score_bins.items()):
            out.setdefault(kind, []).append(
                {
                    "lo": key / BINS,
                    "hi": (key + 1) / BINS,
                    "n": int(n),
                    "right": right / n,
                    "mean_score": total / n,
                }
            )
        return out

    def report(self) -> dict[str, Any]:
        acc_erroneous = ratio(self.erroneous_hit, self.erroneous)
        acc_correct = ratio(self.correct_hit, self.correct)
        base_rate = ratio(self.known_correct, self.known)
        pos_precision = ratio(self.pos_right, self.pos)
        truth_wrong = self.known - self.known_correct
        return {
            "solutions": self.solutions,
            "steps": self.steps,
            "known_steps": self.known,
            "rated_solutions": self.rated_solutions,
            "coverage": ratio(self.rated, self.steps),
            "seconds_per_solution": ratio(self.seconds, self.solutions),
            "errors": dict(self.errors.most_common()),
            "erroneous": self.erroneous,
            "correct": self.correct,
            "acc_erroneous": acc_erroneous,
            "acc_correct": acc_correct,
            "f1": harmonic(acc_erroneous, acc_correct),
            "neg": {
                "rated": self.neg,
                "precision": ratio(self.neg_right, self.neg),
                "recall": ratio(self.neg_right, truth_wrong),
            },
            "pos": {
                "rated": self.pos,
                "precision": pos_precision,
                "recall": ratio(self.pos_right, self.known_correct),
            },
            "base_rate": base_rate,
            "verdicts": {
                kind: {
                    "n": int(n),
                    "right": ratio(right, n),
                    **(
                        {}
                        if kind in ("-1", "+1", "0") or base_rate is None
                        else {"margin": right / n - base_rate}
                    ),
                }
                for kind, (n, right) in sorted(self.verdicts.items())
            },
            "agents": sorted(self.agents),
            "pos_margin": (
                None if pos_precision is None or base_rate is None else pos_precision - base_rate
            ),
            "answer": {
                "judged_wrong": self.answer_wrong,
                "wrong_is_erroneous": ratio(self.answer_wrong_erroneous, self.answer_wrong),
                "judged_right": self.answer_right,
                "right_is_correct": ratio(self.answer_right_correct, self.answer_right),
            },
            "calibration": [
                {
                    "bin": "none" if key is None else f"{key / BINS:.1f}-{(key + 1) / BINS:.1f}",
                    "verdicts": int(n),
                    "mean_score": ratio(total, n) if key is not None else None,
                    "verdict_right": ratio(right, n),
                    "step_correct": ratio(correct, n),
                }
                for key, (n, right, correct, total) in sorted(
                    self.calibration.items(), key=lambda kv: -1 if kv[0] is None else kv[0]
                )
            ],
            "score_bins": self.score_bins_report(),
        }
