"""Batches: padded, or packed padding-free (one row, position ids restarting per example).

Packing puts a micro-batch's examples end to end in one row, with no padding. The model tells
examples apart by the position ids restarting at 0: transformers builds a block-diagonal
causal mask from them (sdpa / eager) or runs variable-length kernels (flash attention). That
only happens without a KV cache: with transformers 5, a forward pass that creates a cache
attends across the packed examples, so every forward call passes `use_cache=False`
(`training.model.token_logits`). tests/training/test_packing.py checks packed logits equal
unpacked ones.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import torch

from training.data import IGNORE, TokenizedExample


def collate_padded(examples: Sequence[TokenizedExample], pad_id: int) -> dict[str, torch.Tensor]:
    width = max(len(e) for e in examples)
    batch = {
        "input_ids": torch.full((len(examples), width), pad_id, dtype=torch.long),
        "attention_mask": torch.zeros((len(examples), width), dtype=torch.long),
        "labels": torch.full((len(examples), width), IGNORE, dtype=torch.long),
    }
    soft = examples[0].soft_labels is not None
    if soft:
        batch["soft_labels"] = torch.full((len(examples), width), float(IGNORE))
    for i, e in enumerate(examples):
        n = len(e)
        batch["input_ids"][i, :n] = torch.from_numpy(e.input_ids)
        batch["attention_mask"][i, :n] = 1
        batch["labels"][i, :n] = torch.from_numpy(e.labels)
        if soft:
            batch["soft_labels"][i, :n] = torch.from_numpy(e.soft_labels)
    return batch


def _joined(arrays: Sequence[np.ndarray], dtype: torch.dtype) -> torch.Tensor:
    return torch.from_numpy(np.concatenate(arrays)).to(dtype)[None, :]


def collate_packed(examples: Sequence[TokenizedExample]) -> dict[str, torch.Tensor]:
    """Shape [1, total tokens]; no attention mask, position ids 0..len-1 per example."""
    batch = {
        "input_ids": _joined([e.input_ids for e in examples], torch.long),
        "position_ids": _joined([np.arange(len(e)) for e in examples], torch.long),
        "labels": _joined([e.labels for e in examples], torch.long),
    }
    if examples[0].soft_labels is not None:
        batch["soft_labels"] = _joined([e.soft_labels for e in examples], torch.float32)
    return batch


class Collator:
    def __init__(self, *, packing: bool, pad_id: int) -> None:
        self.packing = packing
        self.pad_id = pad_id

    def __call__(self, examples: Sequence[TokenizedExample]) -> dict[str, torch.Tensor]:
        if self.packing:
            return collate_packed(examples)
        return collate_padded(examples, self.pad_id)


def real_tokens(batch: dict[str, torch.Tensor]) -> int:
    """Tokens that are not padding."""
    if "attention_mask" in batch:
        return int(batch["attention_mask"].sum())
    return int(batch["input_ids"].numel())
