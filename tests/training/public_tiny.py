"""Tiny public-PRM checkpoints built from a config (no download), each saved with a byte-level
BPE tokenizer trained here (tests/training/tiny.py): a Qwen2.5-Math-PRM-shaped token
classifier (two-layer head saved as ``score.0`` / ``score.2``, ChatML template,
``<extra_0>``), a Math-Shepherd-shaped causal LM (Llama, " ки" one token) and sequence
classifiers with one or two labels."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.training.tiny import tiny_tokenizer, toy_rows

CHATML = (
    "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n"
    "{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)


def _text() -> str:
    rows = toy_rows(120, seed=3)
    lines = [r["prompt"] + " " + " ки\n".join(r["completions"]) + " ки + -" for r in rows]
    return "\n".join(lines + ["Step 1: задачки ки + -", "Please reason step by step \\boxed{}"])


def public_tokenizer(*, chat: bool = True) -> Any:
    tokenizer = tiny_tokenizer(
        _text(),
        vocab_size=500,
        special_tokens=["<|endoftext|>", "<|im_start|>", "<|im_end|>", "<extra_0>"],
        eos_token="<|endoftext|>",
        pad_token="<|endoftext|>",
        additional_special_tokens=["<|im_start|>", "<|im_end|>", "<extra_0>"],
    )
    if chat:
        tokenizer.chat_template = CHATML
    return tokenizer


def _config(tokenizer: Any, arch: str, **extra: Any) -> Any:
    from transformers import AutoConfig

    return AutoConfig.for_model(
        arch,
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        vocab_size=len(tokenizer),
        max_position_embeddings=4096,  # Qwen2.5-Math-PRM-7B's
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
        **extra,
    )


def build_qwen_prm(directory: Path, *, head: str = "mlp2") -> tuple[Path, Any]:
    """A Qwen2 token classifier with Qwen2.5-Math-PRM's head; returns (dir, the model)."""
    import torch
    from transformers import AutoModelForTokenClassification

    tokenizer = public_tokenizer()
    torch.manual_seed(1)
    model = AutoModelForTokenClassification.from_config(
        _config(tokenizer, "qwen2", num_labels=2, architectures=["Qwen2ForProcessRewardModel"])
    )
    if head == "mlp2":
        model.score = torch.nn.Sequential(
            torch.nn.Linear(32, 32), torch.nn.ReLU(), torch.nn.Linear(32, 2)
        )
        torch.nn.init.normal_(model.score[2].weight, std=2.0)  # scores far from 0.5
    model.eval()
    model.save_pretrained(directory)
    tokenizer.save_pretrained(directory)
    return directory, model


def build_shepherd_prm(directory: Path) -> tuple[Path, Any]:
    import torch
    from transformers import AutoModelForCausalLM

    tokenizer = public_tokenizer(chat=False)
    torch.manual_seed(2)
    model = AutoModelForCausalLM.from_config(_config(tokenizer, "llama", tie_word_embeddings=True))
    model.eval()
    model.save_pretrained(directory)
    tokenizer.save_pretrained(directory)
    return directory, model


def build_seq_cls(directory: Path, *, num_labels: int, chat: bool = True) -> tuple[Path, Any]:
    import torch
    from transformers import AutoModelForSequenceClassification

    tokenizer = public_tokenizer(chat=chat)
    torch.manual_seed(3)
    model = AutoModelForSequenceClassification.from_config(
        _config(tokenizer, "qwen2", num_labels=num_labels)
    )
    model.eval()
    model.save_pretrained(directory)
    tokenizer.save_pretrained(directory)
    return directory, model
