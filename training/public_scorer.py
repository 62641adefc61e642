"""PublicPRMScorer: a published step-level reward model, read by its own convention
(training.public_prm), with PRMScorer's interface: one score in [0, 1] per step.

    scorer = PublicPRMScorer("/models/Qwen2.5-Math-PRM-7B", convention=Convention("qwen"))
    scorer.score_many([(problem, steps), ...])   # [[0.98, 0.91, 0.12], ...]

Solutions (or, for seq-cls, every prefix of every solution) are sorted by length and run in
right-padded batches of ``batch_size``; on a GPU in bfloat16 (float16 where bf16 is missing),
on a CPU in float32, unless ``dtype`` says otherwise. Nothing is truncated: an input longer
than ``max_length`` (default: the model's position limit) raises InputTooLong naming it.

Loading needs no remote code: Qwen2.5-Math-PRM's ``Qwen2ForProcessRewardModel`` is a Qwen2
with a two-layer head (Linear, ReLU, Linear, weights ``score.0`` / ``score.2``), loaded here
as transformers' Qwen2ForTokenClassification with that head (training.model's ``mlp2``); a
token classifier whose head is one Linear loads as it is. A Math-Shepherd PRM is a causal LM:
only the tag positions' hidden states go through its LM head.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import torch

from training.public_prm import (
    Convention,
    InputError,
    encode_prefixes,
    encode_qwen,
    encode_shepherd,
    scored_token_ids,
)

DTYPES = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}
HEAD = "score"


class InputTooLong(InputError):
    def __init__(self, index: int, tokens: int, max_length: int) -> None:
        super().__init__(
            f"{tokens} tokens, more than max_length {max_length} (nothing is truncated)"
        )
        self.index = index


def pick_dtype(name: str | None, device: torch.device) -> torch.dtype:
    """``auto`` (or None): bf16 on a GPU that has it, else fp16 on a GPU, fp32 on a CPU."""
    if name and name != "auto":
        if name not in DTYPES:
            raise ValueError(f"dtype must be auto or one of {sorted(DTYPES)}, got {name!r}")
        return DTYPES[name]
    if device.type != "cuda":
        return torch.float32
    return torch.bfloat16 if torch.cuda.is_bf16_supported() else torch.float16


def head_weights(path: Path) -> dict[str, torch.Tensor]:
    """The checkpoint's ``score.*`` tensors, read alone (not the whole 7B checkpoint)."""
    from safetensors import safe_open

    index = path / "model.safetensors.index.json"
    if index.exists():
        weight_map = json.loads(index.read_text(encoding="utf-8"))["weight_map"]
        files = sorted({f for key, f in weight_map.items() if key.startswith(HEAD + ".")})
    else:
        files = ["model.safetensors"] if (path / "model.safetensors").exists() else []
    weights = {}
    for name in files:
        with safe_open(str(path / name), framework="pt") as fh:
            for key in fh.keys():  # noqa: SIM118 - safe_open has keys(), no iteration
                if key.startswith(HEAD + "."):
                    weights[key[len(HEAD) + 1 :]] = fh.get_tensor(key)
    return weights


def _quietly(load: Any, *args: Any, **kwargs: Any) -> Any:
    from transformers.utils import logging as hf_logging

    level = hf_logging.get_verbosity()
    hf_logging.set_verbosity_error()
    try:
        return load(*args, **kwargs)
    finally:
        hf_logging.set_verbosity(level)


def load_token_classifier(path: Path, dtype: torch.dtype) -> Any:
    """Two classes per token; a Qwen2.5-Math-PRM two-layer head when the checkpoint has one."""
    from transformers import AutoModelForTokenClassification

    from training.model import _mlp2

    weights = head_weights(path)
    model = _quietly(
        AutoModelForTokenClassification.from_pretrained, str(path), num_labels=2, dtype=dtype
    )
    if "0.weight" in weights and "2.weight" in weights:
        hidden = model.config.get_text_config().hidden_size
        head = _mlp2(hidden, model)
        head.load_state_dict({k: v for k, v in weights.items() if k[0] in "02"})
        setattr(model, HEAD, head)
    elif "weight" not in weights and not hasattr(model, "classifier"):
        raise ValueError(f"{path} has no token classification head ({HEAD}.* weights)")
    return model


def load_model(path: Path, convention: Convention, dtype: torch.dtype) -> Any:
    from transformers import AutoModelForCausalLM, AutoModelForSequenceClassification

    if convention.name == "qwen":
        return load_token_classifier(path, dtype)
    if convention.name == "math-shepherd":
        return _quietly(AutoModelForCausalLM.from_pretrained, str(path), dtype=dtype)
    model = _quietly(AutoModelForSequenceClassification.from_pretrained, str(path), dtype=dtype)
    if model.config.num_labels not in (1, 2):
        raise ValueError(f"{path}: a seq-cls PRM has 1 or 2 labels, not {model.config.num_labels}")
    return model


class PublicPRMScorer:
    too_long = InputTooLong  # what score_many raises for an input past max_length

    def __init__(
        self,
        model_dir: str | Path,
        *,
        convention: Convention,
        device: str | torch.device | None = None,
        dtype: str | None = None,
        batch_size: int = 8,
        max_length: int | None = None,
    ) -> None:
        from training.model import load_tokenizer

        self.model_dir = Path(model_dir)
        self.convention = convention
        self.device = torch.device(device or ("cuda" if torch.cuda.is_available() else "cpu"))
        self.tokenizer = load_tokenizer(self.model_dir)
        dtype_ = pick_dtype(dtype, self.device)
        self.model = load_model(self.model_dir, convention, dtype_).to(self.device).eval()
        self.model.config.pad_token_id = self.tokenizer.pad_token_id
        limit = getattr(self.model.config.get_text_config(), "max_position_embeddings", None)
        self.max_length = max_length or limit or 4096
        self.batch_size = batch_size
        if convention.name == "math-shepherd":
            self.candidates = list(scored_token_ids(self.tokenizer, convention))

    # --- one list of sequences, each with the positions scored in it ---------------------

    def _sequences(
        self, items: Sequence[tuple[str, Sequence[str]]]
    ) -> list[tuple[int, int, list[int], list[int]]]:
        """(item index, first step scored, token ids, positions); seq-cls: one sequence per
        prefix, scored at its last token (the model's own pooling)."""
        out = []
        for index, (problem, steps) in enumerate(items):
            if not steps:
                continue
            if self.convention.name == "seq-cls":
                encoded = [
                    (ids, [-1])
                    for ids in encode_prefixes(self.tokenizer, self.convention, problem, steps)
                ]
            elif self.convention.name == "qwen":
                encoded = [encode_qwen(self.tokenizer, self.convention, problem, steps)]
            else:
                encoded = [encode_shepherd(self.tokenizer, self.convention, problem, steps)]
            for first, (ids, positions) in enumerate(encoded):
                if len(ids) > self.max_length:
                    raise InputTooLong(index, len(ids), self.max_length)
                out.append((index, first, ids, positions))
        return out

    def _scores(self, batch: list[list[int]], positions: list[list[int]]) -> list[list[float]]:
        width = max(len(ids) for ids in batch)
        input_ids = torch.full((len(batch), width), self.tokenizer.pad_token_id, dtype=torch.long)
        mask = torch.zeros((len(batch), width), dtype=torch.long)
        for row, ids in enumerate(batch):
            input_ids[row, : len(ids)] = torch.tensor(ids)
            mask[row, : len(ids)] = 1
        input_ids, mask = input_ids.to(self.device), mask.to(self.device)
        name = self.convention.name
        if name == "seq-cls":
            logits = self.model(input_ids=input_ids, attention_mask=mask).logits.float()
            probs = logits.sigmoid()[:, 0] if logits.shape[-1] == 1 else logits.softmax(-1)[:, 1]
            return [[p] for p in probs.cpu().tolist()]
        if name == "qwen":
            logits = self.model(input_ids=input_ids, attention_mask=mask).logits.float()
            probs = logits.softmax(-1)[..., 1].cpu()
            return [probs[row, pos].tolist() for row, pos in enumerate(positions)]
        hidden = self.model.get_decoder()(input_ids=input_ids, attention_mask=mask)[0]
        head = self.model.get_output_embeddings()
        out = []
        for row, pos in enumerate(positions):
            logits = head(hidden[row, pos]).float()[:, self.candidates]
            out.append(logits.softmax(-1)[:, 0].cpu().tolist())
        return out

    def score_many(
        self,
        items: Sequence[tuple[str, Sequence[str]]],
        batch_size: int | None = None,
        deadline: Any = None,
    ) -> list[list[float]]:
        """Scores for (problem, steps) pairs, in their order; a solution with no steps gets [].
        ``deadline`` (training.score's): checked before each forward pass and after the last."""
        batch_size = batch_size or self.batch_size
        sequences = self._sequences(items)
        results: list[list[float]] = [[0.0] * len(steps) for _, steps in items]
        order = sorted(range(len(sequences)), key=lambda k: len(sequences[k][2]))
        with torch.inference_mode():
            for start in range(0, len(order), batch_size):
                if deadline is not None:
                    deadline.check()
                chunk = [sequences[k] for k in order[start : start + batch_size]]
                scores = self._scores([s[2] for s in chunk], [s[3] for s in chunk])
                for (index, first, _, _), found in zip(chunk, scores, strict=True):
                    results[index][first : first + len(found)] = found
        if deadline is not None:
            deadline.check()
        return results

    def score(
        self, problem: str, steps_list: Sequence[Sequence[str]], batch_size: int | None = None
    ) -> list[list[float]]:
        return self.score_many([(problem, steps) for steps in steps_list], batch_size)
