"""What the parent reads from a training run's files: metrics.jsonl and the trainer's log.

Pure (no Django): training_runs.execution polls these while the trainer runs.
"""

from __future__ import annotations

import dataclasses
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

LOG_TAIL_CHARS = 8000
MAX_HISTORY = 1000  # evenly thinned beyond this: enough for a chart, small to poll


@dataclass
class Progress:
    """What the parent has read from the trainer's files so far."""

    step: int = 0
    total: int = 0
    history: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    metrics: dict[str, Any] = dataclasses.field(default_factory=dict)
    log_tail: str = ""


TOTAL_RE = re.compile(r"training \d+ examples \(\d+ eval\), (\d+) steps")
BAR_RE = re.compile(r"training:\s+\d+%\|[^|]*\|\s*(\d+)/(\d+)")
# training.data's report on the training set, logged once before the first step.
TRUNCATION_RE = re.compile(
    r"^.*?((?:truncation dropped|tokenized) \d+ [^\n]*?(?:raise max_length to keep them|no step "
    r"truncated))",
    re.MULTILINE,
)


def read_progress(out: Path, log_path: Path) -> Progress:
    """Parse metrics.jsonl (complete lines only) and the log (tqdm bar, the steps line)."""
    progress = Progress()
    metrics_file = out / "metrics.jsonl"
    if metrics_file.exists():
        text = metrics_file.read_text(encoding="utf-8", errors="replace")
        for line in text.splitlines(keepends=True):
            if not line.endswith("\n"):
                break  # being written
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                continue
            progress.history.append(record)
            progress.metrics[str(record.get("split", "train"))] = record
            progress.step = max(progress.step, int(record.get("step", 0)))
        progress.history = thin(progress.history)
    if log_path.exists():
        with log_path.open("rb") as fh:
            head = fh.read(64_000).decode("utf-8", errors="replace")
            fh.seek(max(0, log_path.stat().st_size - 64_000))
            raw = fh.read().decode("utf-8", errors="replace")
        train = [m for m in TRUNCATION_RE.finditer(head) if "eval set" not in m.group(0)]
        if train:
            progress.metrics["truncation"] = train[0].group(1)
        if found := TOTAL_RE.findall(raw):
            progress.total = int(found[-1])
        if bars := BAR_RE.findall(raw):
            step, total = bars[-1]
            progress.step = max(progress.step, int(step))
            progress.total = progress.total or int(total)
        # tqdm redraws with \r: keep the last state of each line.
        lines = [segment.split("\r")[-1] for segment in raw.split("\n")]
        progress.log_tail = "\n".join(lines)[-LOG_TAIL_CHARS:]
    return progress


def thin(history: list[dict[str, Any]], limit: int = MAX_HISTORY) -> list[dict[str, Any]]:
    """At most about `limit` records of each split, evenly spread over the run, the last one
    kept; the records keep their order (a split logged rarely, eval, keeps all of its)."""
    splits: dict[Any, list[dict[str, Any]]] = {}
    for record in history:
        splits.setdefault(record.get("split"), []).append(record)
    kept: set[int] = set()
    for records in splits.values():
        stride = -(-len(records) // limit)
        kept.update(id(r) for r in records[::stride])
        kept.add(id(records[-1]))
    return [r for r in history if id(r) in kept]
