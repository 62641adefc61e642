"""The PRM: AutoModelForTokenClassification (2 labels) on a causal LM checkpoint.

Label 1 is "correct", 0 "wrong"; the probability of a step being correct is the softmax of
the logits at its last token. The head is the model's `score` layer: a Linear (transformers'
default), or Qwen2.5-Math-PRM's two layers (Linear, ReLU, Linear) with `head="mlp2"`. The head
kind and the tokenization settings are stored in config.json (`prm_head`,
`prm_step_separator`, `prm_max_prompt_length`) so a saved PRM loads and scores as trained.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import torch
from torch import nn

from training.data import IGNORE, Tokenization

ID2LABEL = {0: "wrong", 1: "correct"}
HEAD = "score"


def load_tokenizer(path: str | Path) -> Any:
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(path))
    if tokenizer.pad_token_id is None:
        tokenizer.pad_token = tokenizer.eos_token or tokenizer.unk_token
    return tokenizer


def _mlp2(hidden: int, like: nn.Module) -> nn.Sequential:
    ref = next(like.parameters())
    head = nn.Sequential(nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 2))
    return head.to(device=ref.device, dtype=ref.dtype)


def _saved_head_weights(path: Path) -> dict[str, torch.Tensor]:
    from safetensors.torch import load_file

    index = path / "model.safetensors.index.json"
    files = (
        sorted(set(json.loads(index.read_text())["weight_map"].values()))
        if index.exists()
        else ["model.safetensors"]
    )
    weights = {}
    for name in files:
        for key, value in load_file(str(path / name)).items():
            if key.startswith(HEAD + "."):
                weights[key[len(HEAD) + 1 :]] = value
    return weights


def load_model(
    path: str | Path,
    *,
    head: str | None = None,
    dtype: torch.dtype | None = None,
    attn_implementation: str | None = None,
) -> Any:
    """A PRM from a causal LM checkpoint (new head), a saved PRM (its trained head), or a LoRA
    checkpoint of a run (its base model with the adapter and head merged in)."""
    from transformers import AutoConfig, AutoModelForTokenClassification

    path = Path(path)
    if (path / "adapter_config.json").exists():
        return _load_lora_checkpoint(path, dtype=dtype, attn_implementation=attn_implementation)
    saved = getattr(AutoConfig.from_pretrained(str(path)), "prm_head", None)
    if head is not None and saved is not None and head != saved:
        raise ValueError(f"{path} is a PRM with a {saved!r} head, not {head!r}")
    head = head or saved or "linear"
    label2id = {name: k for k, name in ID2LABEL.items()}
    kwargs: dict[str, Any] = {"num_labels": 2, "id2label": ID2LABEL, "label2id": label2id}
    if dtype is not None:
        kwargs["dtype"] = dtype
    if attn_implementation:
        kwargs["attn_implementation"] = attn_implementation
    if saved == "mlp2":
        # The checkpoint's score.0/score.2 do not fit the default Linear head built first:
        # its load report would call them unexpected and the Linear missing. They are loaded
        # into the two-layer head below.
        from transformers.utils import logging as hf_logging

        level = hf_logging.get_verbosity()
        hf_logging.set_verbosity_error()
        try:
            model = AutoModelForTokenClassification.from_pretrained(str(path), **kwargs)
        finally:
            hf_logging.set_verbosity(level)
    else:
        model = AutoModelForTokenClassification.from_pretrained(str(path), **kwargs)
    if not isinstance(getattr(model, HEAD, None), nn.Module):
        raise ValueError(f"{type(model).__name__} has no '{HEAD}' head; use a causal LM")
    if head == "mlp2":
        hidden = model.config.get_text_config().hidden_size
        setattr(model, HEAD, _mlp2(hidden, model))
        if saved == "mlp2":
            getattr(model, HEAD).load_state_dict(_saved_head_weights(path))
    model.config.prm_head = head
    # Packed batches must never build a KV cache (it makes attention cross examples).
    model.config.use_cache = False
    return model


def _load_lora_checkpoint(path: Path, **kwargs: Any) -> Any:
    from peft import PeftModel

    adapter = json.loads((path / "adapter_config.json").read_text())
    run = json.loads((path / "training_config.json").read_text())
    base = load_model(adapter["base_model_name_or_path"], head=run["head"], **kwargs)
    model = PeftModel.from_pretrained(base, str(path)).merge_and_unload()
    model.config.prm_step_separator = run["step_separator"]
    model.config.prm_max_prompt_length = run["max_prompt_length"]
    return model


def tokenization_of(model: Any) -> Tokenization:
    config = model.config
    return Tokenization(
        step_separator=getattr(config, "prm_step_separator", "\n"),
        max_length=None,
        max_prompt_length=getattr(config, "prm_max_prompt_length", None),
    )


def token_logits(model: Any, batch: dict[str, torch.Tensor]) -> torch.Tensor:
    """Float logits [batch, tokens, 2]; padded (attention_mask) or packed (position_ids)."""
    inputs = {k: batch[k] for k in ("input_ids", "attention_mask", "position_ids") if k in batch}
    return model(**inputs, use_cache=False).logits.float()


def step_loss(
    logits: torch.Tensor, labels: torch.Tensor, soft_labels: torch.Tensor | None = None
) -> torch.Tensor:
    """Cross-entropy over the labeled positions only (soft targets when given)."""
    mask = labels != IGNORE
    if not bool(mask.any()):
        return logits.sum() * 0.0
    picked = logits[mask]
    if soft_labels is None:
        return nn.functional.cross_entropy(picked, labels[mask])
    p = soft_labels[mask].to(picked.dtype)
    return nn.functional.cross_entropy(picked, torch.stack([1 - p, p], dim=-1))


def sha256_file(path: str | Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def model_card(
    *, base_model: str, head: str, data: dict[str, str], config: dict, metrics: dict
) -> str:
    lines = [
        "---",
        "library_name: transformers",
        "pipeline_tag: token-classification",
        "tags: [process-reward-model, prm, steplab]",
        "---",
        "",
        "# Process reward model (steplab)",
        "",
        f"Token classification (2 labels: 0 wrong, 1 correct) on `{base_model}`, "
        f"`{head}` head, trained by `python -m training.train` on step labels exported by "
        "steplab (TRL stepwise format).",
        "",
        "Each step is scored at its last token (the step's tokens followed by the separator "
        f"{json.dumps(config.get('step_separator', chr(10)))}); a step's score is the "
        "probability of label 1.",
        "",
        "```python",
        "from training.score import PRMScorer",
        'scores = PRMScorer("<this directory>").score(problem, [steps_a, steps_b])',
        "```",
        "",
        "## Data",
        "",
        "| file | sha256 |",
        "|---|---|",
        *[f"| `{name}` | `{digest}` |" for name, digest in data.items()],
        "",
        "## Metrics",
        "",
        "```json",
        json.dumps(metrics, indent=2, sort_keys=True),
        "```",
        "",
        "## Training config",
        "",
        "```json",
        json.dumps(config, indent=2, sort_keys=True),
        "```",
        "",
    ]
    return "\n".join(lines)


def save_prm(
    model: Any,
    tokenizer: Any,
    out: str | Path,
    *,
    settings: Tokenization,
    card: str | None = None,
    extra: dict[str, Any] | None = None,
    state_dict: dict[str, torch.Tensor] | None = None,
    is_main_process: bool = True,
    save_function: Any = torch.save,
) -> Path:
    """Model, tokenizer, tokenization settings in config.json, a model card and extra JSONs."""
    out = Path(out)
    model.config.prm_step_separator = settings.step_separator
    model.config.prm_max_prompt_length = settings.max_prompt_length
    if settings.dependencies != "none":  # steps are read as training/graph.with_uses renders
        model.config.prm_dependencies = settings.dependencies
    model.save_pretrained(
        str(out),
        state_dict=state_dict,
        is_main_process=is_main_process,
        save_function=save_function,
    )
    if not is_main_process:
        return out
    tokenizer.save_pretrained(str(out))
    if card is not None:
        (out / "README.md").write_text(card, encoding="utf-8")
    for name, value in (extra or {}).items():
        (out / name).write_text(json.dumps(value, indent=2, sort_keys=True), encoding="utf-8")
    return out
