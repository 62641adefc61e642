"""Tiny causal LMs (Qwen2 or Llama) built from a config, with a byte-level BPE tokenizer
trained here on toy step text: the same directory layout a real checkpoint has."""

from __future__ import annotations

import json
import random
from pathlib import Path

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


def toy_rows(count: int, *, seed: int = 0) -> list[dict]:
    """TRL stepwise rows whose labels are learnable: a step is wrong iff it says MARKER."""
    rng = random.Random(seed)
    rows = []
    for i in range(count):
        steps, labels = [], []
        for _ in range(rng.randint(2, 4)):
            words = rng.sample(WORDS, 4)
            wrong = rng.random() < 0.4
            if wrong:
                words.insert(rng.randint(0, 4), MARKER)
            steps.append(" ".join(words) + f" {rng.randint(1, 99)}.")
            labels.append(not wrong)
        rows.append(
            {"prompt": f"Problem {i}: what is {i} + {i}?", "completions": steps, "labels": labels}
        )
    return rows


def write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def build_tiny_lm(directory: Path, *, arch: str = "qwen2", bos: bool = False) -> Path:
    import torch
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import AutoConfig, AutoModelForCausalLM, PreTrainedTokenizerFast

    text = "\n".join(" ".join(r["completions"]) + " " + r["prompt"] for r in toy_rows(200, seed=1))
    bpe = Tokenizer(models.BPE())
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    bpe.decoder = decoders.ByteLevel()
    bpe.train_from_iterator(
        [text],
        trainers.BpeTrainer(
            vocab_size=400,
            special_tokens=["<|endoftext|>", "<s>"],
            initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        ),
    )
    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=bpe,
        eos_token="<|endoftext|>",
        pad_token="<|endoftext|>",
        bos_token="<s>" if bos else None,
    )
    config = AutoConfig.for_model(
        arch,
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        vocab_size=len(tokenizer),
        max_position_embeddings=4096,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
        tie_word_embeddings=True,
    )
    torch.manual_seed(0)
    AutoModelForCausalLM.from_config(config).save_pretrained(directory)
    tokenizer.save_pretrained(directory)
    return directory
