"""The training set as training.train's loop sees it: read, split and tokenized once
(`prepare_data`), then visited in a seeded order per epoch (`EpochSampler`)."""

from __future__ import annotations

import logging
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import torch

from training.config import TrainConfig
from training.data import Tokenization, TokenizedExample, read_files, split_rows, tokenize_rows
from training.domains import only_domains
from training.model import sha256_file

logger = logging.getLogger("training.train")


@dataclass
class PreparedData:
    train: list[TokenizedExample]
    eval: list[TokenizedExample]
    stats: dict[str, dict[str, int]]
    digests: dict[str, str]


class EpochSampler(torch.utils.data.Sampler[int]):
    """A fresh permutation per epoch from (seed, epoch): a resumed run sees the same order.

    With `lengths` (group by length), the permutation is cut into chunks of 64 batches, each
    chunk sorted by length and cut into batches, and the batches are shuffled: examples of a
    batch have similar lengths, so padded batches carry little padding. The batches stay
    aligned with the loader's (every chunk is a whole number of batches; the one short batch
    comes last).

    The method is not named `set_epoch` on purpose: accelerate calls `set_epoch` with its own
    count of iterations over the loader, which restarts at 0 in a resumed run."""

    def __init__(
        self, size: int, seed: int, *, batch_size: int = 1, lengths: Sequence[int] | None = None
    ) -> None:
        self.size, self.seed, self.epoch = size, seed, 0
        self.batch_size, self.lengths = batch_size, lengths

    def use_epoch(self, epoch: int) -> None:
        self.epoch = epoch

    def __iter__(self) -> Iterator[int]:
        rng = random.Random(self.seed * 1_000_003 + self.epoch)
        order = list(range(self.size))
        rng.shuffle(order)
        if self.lengths is None:
            return iter(order)
        lengths, size = self.lengths, self.batch_size
        chunk = size * 64
        batches = []
        for start in range(0, len(order), chunk):
            part = sorted(order[start : start + chunk], key=lambda k: -lengths[k])
            batches += [part[i : i + size] for i in range(0, len(part), size)]
        short = [batches.pop()] if len(batches[-1]) < size else []
        rng.shuffle(batches)
        return iter([k for batch in batches + short for k in batch])

    def __len__(self) -> int:
        return self.size


def tokenization_settings(config: TrainConfig) -> Tokenization:
    return Tokenization(
        step_separator=config.step_separator,
        max_length=config.max_length,
        max_prompt_length=config.max_prompt_length,
        dependencies=config.dependencies,
    )


def prepare_data(config: TrainConfig, tokenizer: Any) -> PreparedData:
    """Read, split and tokenize; logs (and returns) what truncation dropped."""
    rows = read_files(config.data)
    if config.domains:
        rows = only_domains(rows, config.domains)
        if not rows:
            raise ValueError(f"no rows of domains {', '.join(config.domains)} in the data")
    train_rows, eval_rows = split_rows(
        rows, eval_split=config.eval_split, eval_fraction=config.eval_fraction
    )
    if config.eval_data:
        eval_rows = read_files(config.eval_data)
    settings = tokenization_settings(config)
    soft = config.label_column == "soft_labels"
    train, train_stats = tokenize_rows(train_rows, tokenizer, settings, soft=soft)
    if not train:
        raise ValueError(f"no training examples left in {', '.join(config.data)}")
    held, eval_stats = tokenize_rows(eval_rows, tokenizer, settings, soft=soft, log=False)
    if eval_rows:
        logger.info("eval set: %s", eval_stats.message())
    files = [*config.data, *config.eval_data]
    return PreparedData(
        train=train,
        eval=held,
        stats={"train": train_stats.as_dict(), "eval": eval_stats.as_dict()},
        digests={str(p): sha256_file(p) for p in files},
    )
