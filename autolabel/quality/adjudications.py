"""Adjudications in the open: benchmark step labels we judge wrong, with our reason (issue 25).

``adjudications.jsonl`` beside this module holds one JSON object a line::

    {"row": "processbench:math-106", "step": 10, "label": "correct",
     "reason": "(9*8*7*6*5*4)/(7*6*5*4*3*2*1) is 12, written = 36"}

- ``row``: the solution's external id as steplab imports it (``processbench:<id>``);
- ``step``: the 0-based step index;
- ``label``: the benchmark's label that we judge wrong: ``correct`` (the step is labeled
  correct, or lies before the labeled first error, but is wrong) or ``wrong`` (the step is the
  labeled first error, but is correct);
- ``reason``: why, in words someone can check against the step.

Only cases read by hand go in, never one added to move a number. Blank lines and lines
starting with ``#`` are skipped. Every figure of the symbolic-refutations harness is reported
both against the raw labels and with these applied (:func:`adjudicated_truth`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

PATH = Path(__file__).resolve().parent / "adjudications.jsonl"
LABELS = {"correct": 1, "wrong": -1}  # the benchmark's label, as a truth value
FIELDS = ("row", "step", "label", "reason")


class AdjudicationError(ValueError):
    """A malformed adjudications file; the message names the file, line and field."""


@dataclass(frozen=True)
class Adjudication:
    row: str
    step: int
    label: str  # the benchmark's label we judge wrong: "correct" or "wrong"
    reason: str

    @property
    def truth(self) -> int:
        """Our truth for the step: the opposite of the label."""
        return -LABELS[self.label]


def _field_error(path: Path, line: int, name: str, why: str) -> AdjudicationError:
    return AdjudicationError(f"{path}:{line}: field {name!r}: {why}")


def parse_line(text: str, *, path: Path, line: int) -> Adjudication:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise AdjudicationError(f"{path}:{line}: not JSON: {exc.msg}") from None
    if not isinstance(data, dict):
        raise AdjudicationError(f"{path}:{line}: expected a JSON object")
    for name in FIELDS:
        if name not in data:
            raise _field_error(path, line, name, "missing")
    extra = sorted(set(data) - set(FIELDS))
    if extra:
        raise _field_error(path, line, extra[0], f"unknown (fields are {', '.join(FIELDS)})")
    if not isinstance(data["row"], str) or not data["row"].strip():
        raise _field_error(path, line, "row", "must be a non-empty string")
    step = data["step"]
    if isinstance(step, bool) or not isinstance(step, int) or step < 0:
        raise _field_error(path, line, "step", f"must be a 0-based step index, got {step!r}")
    if data["label"] not in LABELS:
        raise _field_error(path, line, "label", f"must be one of {sorted(LABELS)}")
    if not isinstance(data["reason"], str) or len(data["reason"].strip()) < 10:
        raise _field_error(path, line, "reason", "must say why, in at least 10 characters")
    return Adjudication(data["row"], step, data["label"], data["reason"].strip())


def read_adjudications(path: Path = PATH) -> dict[tuple[str, int], Adjudication]:
    """(row, step) -> adjudication; a malformed or repeated line raises AdjudicationError."""
    found: dict[tuple[str, int], Adjudication] = {}
    if not path.exists():
        raise AdjudicationError(f"{path}: no such file")
    for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not text.strip() or text.lstrip().startswith("#"):
            continue
        item = parse_line(text, path=path, line=number)
        key = (item.row, item.step)
        if key in found:
            raise _field_error(path, number, "step", f"{item.row} step {item.step} is repeated")
        found[key] = item
    return found


def adjudicated_truth(
    ref: str,
    truth: tuple[int | None, ...],
    adjudications: dict[tuple[str, int], Adjudication],
    *,
    first_error_protocol: bool = True,
) -> tuple[int | None, ...]:
    """A solution's per-step truth with its adjudications applied. Under ProcessBench's
    first-error protocol the steps after the (new) first error become unknown; a labeled
    first error judged correct leaves the steps after it unknown, as they were."""
    mine = [a for (row, _), a in adjudications.items() if row == ref]
    if not mine:
        return truth
    out = list(truth)
    for item in mine:
        if item.step >= len(out):
            raise AdjudicationError(f"{ref} step {item.step}: the solution has {len(out)} steps")
        out[item.step] = item.truth
    if first_error_protocol and -1 in out:
        first = out.index(-1)
        out = [t if i <= first else None for i, t in enumerate(out)]
    return tuple(out)
