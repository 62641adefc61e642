"""Tiny causal LMs (Qwen2 or Llama) built from a config, with a byte-level BPE tokenizer
trained here on toy step text: the same directory layout a real checkpoint has.
`tiny_tokenizer` and `tiny_causal_lm` are the builder every test's tiny model uses
(tests/autolabel_rollouts/tiny_model.py trains one further)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

MARKER = "oops"  # steps containing it are wrong in the toy data
WORDS = [
    "add",
    "the",
    "two",
    "numbers",
    "then",
    "multiply",
    "by",
    "three",
    "and",
    "check",
    "result",
    "so",
    "we",
    "get",
    "total",
]


def toy_step(rng: random.Random, wrong: bool | float) -> tuple[str, bool]:
    """Four WORDS and a number; it says MARKER if `wrong` is True, or with that probability."""
    words = rng.sample(WORDS, 4)
    if not isinstance(wrong, bool):
        wrong = rng.random() < wrong
    if wrong:
        words.insert(rng.randint(0, 4), MARKER)
    return " ".join(words) + f" {rng.randint(1, 99)}.", wrong


def toy_solution(rng: random.Random) -> tuple[list[str], list[bool]]:
    """2 to 4 steps, each wrong with probability 0.4; the labels say which are correct."""
    steps = [toy_step(rng, 0.4) for _ in range(rng.randint(2, 4))]
    return [text for text, _ in steps], [not wrong for _, wrong in steps]


def toy_rows(count: int, *, seed: int = 0) -> list[dict]:
    """TRL stepwise rows whose labels are learnable: a step is wrong iff it says MARKER."""
    rng = random.Random(seed)
    rows = []
    for i in range(count):
        steps, labels = toy_solution(rng)
        rows.append(
            {"prompt": f"Problem {i}: what is {i} + {i}?", "completions": steps, "labels": labels}
        )
    return rows


def write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def tiny_tokenizer(text: str, *, vocab_size: int, special_tokens: list[str], **named: Any) -> Any:
    """A byte-level BPE trained on `text` (bench/bpe_tokenizer.py), as a
    PreTrainedTokenizerFast; `named` gives its eos/pad/bos tokens."""
    from bench.bpe_tokenizer import train_byte_level_bpe

    return train_byte_level_bpe(
        [text], vocab_size=vocab_size, special_tokens=special_tokens, **named
    )


def tiny_causal_lm(tokenizer: Any, *, arch: str = "qwen2", max_positions: int = 4096) -> Any:
    """A 2-layer, 32-wide causal LM for the tokenizer, initialised from seed 0."""
    import torch
    from transformers import AutoConfig, AutoModelForCausalLM

    config = AutoConfig.for_model(
        arch,
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        vocab_size=len(tokenizer),
        max_position_embeddings=max_positions,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
        tie_word_embeddings=True,
    )
    torch.manual_seed(0)
    return AutoModelForCausalLM.from_config(config)


def build_tiny_lm(directory: Path, *, arch: str = "qwen2", bos: bool = False) -> Path:
    text = "\n".join(" ".join(r["completions"]) + " " + r["prompt"] for r in toy_rows(200, seed=1))
    tokenizer = tiny_tokenizer(
        text,
        vocab_size=400,
        special_tokens=["<|endoftext|>", "<s>"],
        eos_token="<|endoftext|>",
        pad_token="<|endoftext|>",
        bos_token="<s>" if bos else None,
    )
    tiny_causal_lm(tokenizer, arch=arch).save_pretrained(directory)
    tokenizer.save_pretrained(directory)
    return directory
