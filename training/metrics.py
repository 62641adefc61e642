"""Step metrics (accuracy, F1) accumulated over batches, the metrics.jsonl log and its plot."""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch

from training.data import IGNORE

logger = logging.getLogger("training.metrics")


def _f1(tp: int, fp: int, fn: int) -> float:
    return 2 * tp / (2 * tp + fp + fn) if tp else 0.0


@dataclass
class StepCounts:
    """Confusion counts over labeled steps; label 1 = correct step, 0 = wrong step."""

    loss_sum: float = 0.0
    batches: int = 0
    tp: int = 0  # correct predicted correct
    tn: int = 0  # wrong predicted wrong
    fp: int = 0  # wrong predicted correct
    fn: int = 0  # correct predicted wrong

    def add(self, logits: torch.Tensor, labels: torch.Tensor, loss: float) -> None:
        mask = labels != IGNORE
        pred = logits[mask].argmax(-1)
        gold = labels[mask]
        self.tp += int(((pred == 1) & (gold == 1)).sum())
        self.tn += int(((pred == 0) & (gold == 0)).sum())
        self.fp += int(((pred == 1) & (gold == 0)).sum())
        self.fn += int(((pred == 0) & (gold == 1)).sum())
        self.loss_sum += loss
        self.batches += 1

    def as_tensor(self) -> torch.Tensor:
        values = [self.loss_sum, self.batches, self.tp, self.tn, self.fp, self.fn]
        return torch.tensor(values, dtype=torch.float64)

    @classmethod
    def from_tensor(cls, t: torch.Tensor) -> StepCounts:
        loss_sum, batches, tp, tn, fp, fn = t.tolist()
        return cls(loss_sum, int(batches), int(tp), int(tn), int(fp), int(fn))

    def summary(self) -> dict[str, float]:
        steps = self.tp + self.tn + self.fp + self.fn
        f1_correct = _f1(self.tp, self.fp, self.fn)
        f1_wrong = _f1(self.tn, self.fn, self.fp)
        return {
            "loss": self.loss_sum / self.batches if self.batches else float("nan"),
            "accuracy": (self.tp + self.tn) / steps if steps else float("nan"),
            "f1": (f1_correct + f1_wrong) / 2,  # macro over the two labels
            "f1_correct": f1_correct,
            "f1_wrong": f1_wrong,  # finding wrong steps
            "steps": steps,
        }


class MetricsLog:
    """Appends one JSON object per line to out/metrics.jsonl (main process only)."""

    def __init__(self, path: Path, *, enabled: bool = True) -> None:
        self.path = path
        self.enabled = enabled

    def write(self, record: dict[str, Any]) -> None:
        if not self.enabled:
            return
        with self.path.open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(record, sort_keys=True) + "\n")

    def read(self) -> list[dict[str, Any]]:
        if not self.path.exists():
            return []
        return [json.loads(line) for line in self.path.read_text().splitlines() if line]


def plot_metrics(records: list[dict[str, Any]], path: Path) -> Path | None:
    """Loss and step accuracy / F1 against the optimizer step; None without matplotlib."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        logger.warning("matplotlib is not installed: no plot (pip install matplotlib)")
        return None
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    for split, style in (("train", "-"), ("eval", "o--")):
        rows = [r for r in records if r.get("split") == split]
        if not rows:
            continue
        steps = [r["step"] for r in rows]
        left.plot(steps, [r["loss"] for r in rows], style, label=f"{split} loss")
        right.plot(steps, [r["accuracy"] for r in rows], style, label=f"{split} accuracy")
        right.plot(steps, [r["f1"] for r in rows], style, label=f"{split} F1")
    for ax, title in ((left, "loss"), (right, "step accuracy / F1")):
        ax.set_xlabel("optimizer step")
        ax.set_title(title)
        ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path
