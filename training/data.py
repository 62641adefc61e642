"""Read TRL stepwise exports and tokenize them the way TRL's PRMTrainer did.

A row is `{prompt, completions: [step, ...], labels: [bool, ...]}`, optionally with
`soft_labels` (floats in [0, 1]), `label_sources`, `split`, `domain` (training.domains
evaluates per domain) and `uses` / `inherited` (step dependencies: training/graph.py); steplab's
export writes them.
Tokens: [bos] + prompt, then for each step its tokens followed by the separator's tokens; the
step's label sits on the last of those tokens, every other position is -100. Truncation keeps
whole steps only and counts what it drops (`TokenizeStats`), it never drops them silently.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import logging
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from training.graph import uses_error, with_uses

logger = logging.getLogger("training.data")

IGNORE = -100


class DataError(ValueError):
    """A row of an exported file that cannot be trained on; the message names file, row, field."""


@dataclass
class StepwiseRow:
    prompt: str
    completions: list[str]
    labels: list[bool]
    soft_labels: list[float] | None = None
    split: str | None = None
    where: str = ""  # "file:line", for messages
    domain: str | None = None  # the problem's domain (a many-domains project's export)
    uses: list[list[int]] | None = None  # per step, the earlier steps it uses (0-based)


def _open_lines(path: Path) -> Iterator[tuple[int, str]]:
    opener = gzip.open if path.name.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as fh:
        yield from enumerate(fh, start=1)


def _parquet_rows(path: Path) -> Iterator[tuple[int, Any]]:
    import pyarrow.parquet as pq

    number = 0
    for batch in pq.ParquetFile(path).iter_batches(batch_size=1024):
        for row in batch.to_pylist():
            number += 1
            yield number, row


def read_objects(path: Path) -> Iterator[tuple[str, Any]]:
    """(where, decoded row) for each row of a JSONL, .jsonl.gz or Parquet file."""
    if not path.exists():
        raise DataError(f"{path}: no such file")
    if path.suffix == ".parquet":
        for number, row in _parquet_rows(path):
            yield f"{path}: row {number}", row
        return
    for number, line in _open_lines(path):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        try:
            yield where, json.loads(line)
        except json.JSONDecodeError as exc:
            raise DataError(f"{where}: not valid JSON ({exc.msg} at column {exc.colno})") from None


def parse_row(raw: Any, where: str) -> StepwiseRow:
    def bad(name: str, why: str) -> DataError:
        return DataError(f"{where}: field '{name}': {why}")

    if not isinstance(raw, dict):
        raise DataError(f"{where}: expected a JSON object, got {type(raw).__name__}")
    for name in ("prompt", "completions", "labels"):
        if name not in raw:
            raise bad(name, "missing (a TRL stepwise row has prompt, completions, labels)")
    prompt, steps, labels = raw["prompt"], raw["completions"], raw["labels"]
    if not isinstance(prompt, str):
        raise bad("prompt", f"expected a string, got {type(prompt).__name__}")
    if not isinstance(steps, list) or not all(isinstance(s, str) for s in steps):
        raise bad("completions", "expected a list of step strings")
    if not steps:
        raise bad("completions", "no steps")
    if not isinstance(labels, list) or not all(isinstance(v, bool) or v in (0, 1) for v in labels):
        raise bad("labels", "expected a list of booleans (or 0/1)")
    if len(labels) != len(steps):
        raise bad("labels", f"{len(labels)} labels for {len(steps)} completions")
    soft = raw.get("soft_labels")
    if soft is not None:
        if not isinstance(soft, list) or not all(
            isinstance(v, int | float) and not isinstance(v, bool) and 0.0 <= v <= 1.0 for v in soft
        ):
            raise bad("soft_labels", "expected a list of numbers in [0, 1]")
        if len(soft) != len(steps):
            raise bad("soft_labels", f"{len(soft)} values for {len(steps)} completions")
    split = raw.get("split")
    if split is not None and not isinstance(split, str):
        raise bad("split", "expected a string")
    domain = raw.get("domain")
    if domain is not None and not isinstance(domain, str):
        raise bad("domain", "expected a string")
    uses = raw.get("uses")
    if uses is not None:
        uses = (
            [list(u) if isinstance(u, tuple) else u for u in uses]
            if isinstance(uses, list | tuple)
            else uses
        )
        if why := uses_error(uses, len(steps)):
            raise bad("uses", why)
    return StepwiseRow(
        prompt=prompt,
        completions=steps,
        labels=[bool(v) for v in labels],
        soft_labels=[float(v) for v in soft] if soft is not None else None,
        split=split,
        where=where,
        domain=domain,
        uses=uses,
    )


def read_rows(path: str | Path) -> Iterator[StepwiseRow]:
    """Rows of one JSONL, .jsonl.gz or Parquet export; DataError names file, line and field."""
    for where, raw in read_objects(Path(path)):
        yield parse_row(raw, where)


def read_files(paths: Iterable[str | Path]) -> list[StepwiseRow]:
    rows = [row for path in paths for row in read_rows(path)]
    if not rows:
        raise DataError(f"no rows in {', '.join(map(str, paths))}")
    return rows


def split_rows(
    rows: Sequence[StepwiseRow], *, eval_split: str, eval_fraction: float
) -> tuple[list[StepwiseRow], list[StepwiseRow]]:
    """Train and eval rows: by the export's `split` column when it has one, else by a hash of
    the prompt (a problem's solutions stay together), else no eval rows."""
    if any(row.split is not None for row in rows):
        train = [r for r in rows if r.split in (None, "train")]
        held = [r for r in rows if r.split == eval_split]
        return train, held
    if eval_fraction <= 0:
        return list(rows), []
    train, held = [], []
    for row in rows:
        digest = hashlib.sha256(row.prompt.encode("utf-8")).digest()
        u = int.from_bytes(digest[:8], "big") / 2**64
        (held if u < eval_fraction else train).append(row)
    return train, held


@dataclass
class TokenizedExample:
    """Compact arrays (4 + 1 bytes a token): Python int lists cost about 36 bytes a token."""

    input_ids: np.ndarray  # int32
    labels: np.ndarray  # int8: 0/1 at each kept step's last token, IGNORE elsewhere
    soft_labels: np.ndarray | None = None  # float32: the target probability at those positions
    step_positions: list[int] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.input_ids)


@dataclass
class TokenizeStats:
    examples: int = 0
    steps: int = 0
    tokens: int = 0
    prompts_truncated: int = 0
    examples_truncated: int = 0  # lost at least one step to max_length
    examples_skipped: int = 0  # lost every step: not trained on
    steps_dropped: int = 0
    dropped_positive: int = 0
    dropped_negative: int = 0

    def as_dict(self) -> dict[str, int]:
        return dict(self.__dict__)

    def message(self) -> str:
        if not self.steps_dropped:
            return f"tokenized {self.examples} examples, {self.steps} steps, no step truncated"
        return (
            f"truncation dropped {self.steps_dropped} of {self.steps} labeled steps "
            f"({self.dropped_negative} negative, {self.dropped_positive} positive) in "
            f"{self.examples_truncated} examples, {self.examples_skipped} of them left with no "
            f"step and skipped; raise max_length to keep them"
        )


@dataclass(frozen=True)
class Tokenization:
    """How text becomes tokens; the scorer uses the same settings the model was trained with."""

    step_separator: str = "\n"
    max_length: int | None = 1024
    max_prompt_length: int | None = 512
    # "prefix": each step's text starts with "[uses 1,3] " (training/graph.py); rows then
    # need a `uses` column.
    dependencies: str = "none"


def _encode(tokenizer: Any, texts: list[str]) -> list[list[int]]:
    if not texts:
        return []
    return tokenizer(texts, add_special_tokens=False)["input_ids"]


def build_example(
    prompt_ids: list[int],
    steps_ids: list[list[int]],
    separator_ids: list[int],
    *,
    bos_id: int | None,
    labels: Sequence[bool] | None,
    soft: Sequence[float] | None,
    settings: Tokenization,
) -> tuple[TokenizedExample, bool]:
    """One example from token ids; returns it and whether the prompt was truncated."""
    prompt_truncated = False
    if settings.max_prompt_length is not None and len(prompt_ids) > settings.max_prompt_length:
        prompt_ids = prompt_ids[-settings.max_prompt_length :]
        prompt_truncated = True
    ids = ([bos_id] if bos_id is not None else []) + prompt_ids
    target = [IGNORE] * len(ids)
    soft_target = [float(IGNORE)] * len(ids) if soft is not None else None
    positions = []
    for k, step in enumerate(steps_ids):
        piece = step + separator_ids
        if settings.max_length is not None and len(ids) + len(piece) > settings.max_length:
            break
        ids.extend(piece)
        target.extend([IGNORE] * (len(piece) - 1) + [int(labels[k]) if labels else 1])
        if soft_target is not None and soft is not None:
            soft_target.extend([float(IGNORE)] * (len(piece) - 1) + [float(soft[k])])
        positions.append(len(ids) - 1)
    example = TokenizedExample(
        input_ids=np.asarray(ids, dtype=np.int32),
        labels=np.asarray(target, dtype=np.int8),
        soft_labels=None if soft_target is None else np.asarray(soft_target, dtype=np.float32),
        step_positions=positions,
    )
    return example, prompt_truncated


def tokenize_rows(
    rows: Sequence[StepwiseRow],
    tokenizer: Any,
    settings: Tokenization,
    *,
    soft: bool = False,
    log: bool = True,
) -> tuple[list[TokenizedExample], TokenizeStats]:
    """Tokenize rows in two batched tokenizer calls; examples left with no step are skipped."""
    separator_ids = tokenizer.encode(settings.step_separator, add_special_tokens=False)
    prompts = _encode(tokenizer, [row.prompt for row in rows])
    if settings.dependencies == "prefix":
        for row in rows:
            if row.uses is None:
                raise DataError(f"{row.where}: field 'uses': missing (dependencies is prefix)")
        texts = [s for row in rows for s in with_uses(row.completions, row.uses)]
    else:
        texts = [s for row in rows for s in row.completions]
    flat_steps = _encode(tokenizer, texts)
    stats = TokenizeStats()
    examples = []
    offset = 0
    for row, prompt_ids in zip(rows, prompts, strict=True):
        steps_ids = flat_steps[offset : offset + len(row.completions)]
        offset += len(row.completions)
        if soft and row.soft_labels is None:
            raise DataError(f"{row.where}: field 'soft_labels': missing (label_column is soft)")
        example, prompt_truncated = build_example(
            prompt_ids,
            steps_ids,
            separator_ids,
            bos_id=tokenizer.bos_token_id,
            labels=row.labels,
            soft=row.soft_labels if soft else None,
            settings=settings,
        )
        kept = len(example.step_positions)
        stats.examples += 1
        stats.steps += len(row.completions)
        stats.prompts_truncated += prompt_truncated
        if kept < len(row.completions):
            lost = row.labels[kept:]
            stats.examples_truncated += 1
            stats.steps_dropped += len(lost)
            stats.dropped_positive += sum(lost)
            stats.dropped_negative += len(lost) - sum(lost)
        if kept == 0:
            stats.examples_skipped += 1
            continue
        stats.tokens += len(example)
        examples.append(example)
    if log:
        (logger.warning if stats.steps_dropped else logger.info)(stats.message())
    return examples, stats
