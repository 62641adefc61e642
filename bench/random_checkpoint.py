"""A loadable causal LM checkpoint with random weights and a published model's shape.

    python3 bench/random_checkpoint.py --shape qwen2.5-0.5b|qwen2.5-1.5b|tiny --out DIR
        [--text FILE.jsonl] [--tokenizer-vocab 16384] [--dtype bfloat16|float32] [--seed 0]

Throughput and MFU do not depend on weight values, so a GPU benchmark (bench/gpu_train.py,
bench/reward_bench.py) can run on this where no real weights can be downloaded. The config is
Qwen2 with the published shape of Qwen2.5-0.5B / 1.5B: hidden size, layers, attention and KV
heads, intermediate size, RoPE theta, RMSNorm epsilon, tied embeddings, context length and the
embedding matrix's 151,936 rows, so parameters, memory and FLOPs are the real model's
(0.49 B / 0.36 B non-embedding; 1.54 B / 1.31 B). `tiny` is a 2-layer, 64-wide model for
CPU dry runs. Weights are transformers' own initialisation (normal, std 0.02) from `--seed`,
saved in bfloat16 as the published checkpoints are.

The tokenizer is not Qwen's: a byte-level BPE (bench/bpe_tokenizer.py) trained here on the
text of `--text` (JSONL rows, TRL stepwise `prompt` + `completions` or ProcessBench `problem`
+ `steps`; default: ../shared/data's ProcessBench sample), with Qwen's special tokens
<|endoftext|> (eos and pad), <|im_start|>, <|im_end|>. It has at most `--tokenizer-vocab`
tokens (fewer when the text has no more merges): the embedding rows past it are never looked
up. Its token counts on the training text are close to a real tokenizer's (whole words).

Imports neither Django nor the app: torch, transformers and tokenizers only.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))  # bench.bpe_tokenizer when run as a script
DEFAULT_TEXT = REPO.parent / "shared" / "data" / "processbench_sample.jsonl"
SPECIAL_TOKENS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
QWEN_VOCAB = 151_936  # the published embedding rows (Qwen2.5, all sizes)

# Published config.json values (Qwen/Qwen2.5-0.5B, Qwen/Qwen2.5-1.5B); vocab_size None: the
# tokenizer's own size.
SHAPES: dict[str, dict[str, Any]] = {
    "qwen2.5-0.5b": {
        "hidden_size": 896,
        "intermediate_size": 4864,
        "num_hidden_layers": 24,
        "num_attention_heads": 14,
        "num_key_value_heads": 2,
        "max_position_embeddings": 32768,
        "rope_theta": 1_000_000.0,
        "rms_norm_eps": 1e-6,
        "tie_word_embeddings": True,
        "vocab_size": QWEN_VOCAB,
    },
    "qwen2.5-1.5b": {
        "hidden_size": 1536,
        "intermediate_size": 8960,
        "num_hidden_layers": 28,
        "num_attention_heads": 12,
        "num_key_value_heads": 2,
        "max_position_embeddings": 131072,
        "rope_theta": 1_000_000.0,
        "rms_norm_eps": 1e-6,
        "tie_word_embeddings": True,
        "vocab_size": QWEN_VOCAB,
    },
    "tiny": {
        "hidden_size": 64,
        "intermediate_size": 128,
        "num_hidden_layers": 2,
        "num_attention_heads": 4,
        "num_key_value_heads": 2,
        "max_position_embeddings": 4096,
        "rope_theta": 1_000_000.0,
        "rms_norm_eps": 1e-6,
        "tie_word_embeddings": True,
        "vocab_size": None,
    },
}


def corpus_texts(path: Path) -> list[str]:
    """One text per JSONL row: its prompt (or problem) and steps, one per line."""
    texts = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        row = json.loads(line)
        prompt = row.get("prompt", row.get("problem"))
        steps = row.get("completions", row.get("steps"))
        if not isinstance(prompt, str) or not isinstance(steps, list):
            raise ValueError(f"{path}:{number}: expected prompt + completions or problem + steps")
        texts.append("\n".join([prompt, *steps]))
    if not texts:
        raise ValueError(f"{path}: no rows")
    return texts


def build_tokenizer(texts: Iterable[str], *, vocab_size: int) -> Any:
    from bench.bpe_tokenizer import train_byte_level_bpe

    return train_byte_level_bpe(
        texts,
        vocab_size=vocab_size,
        special_tokens=SPECIAL_TOKENS,
        eos_token="<|endoftext|>",
        pad_token="<|endoftext|>",
    )


def shape_config(shape: str, tokenizer: Any) -> Any:
    """The Qwen2 config of `shape` with the tokenizer's special token ids."""
    from transformers import AutoConfig

    values = dict(SHAPES[shape])
    values["vocab_size"] = values["vocab_size"] or len(tokenizer)
    if values["vocab_size"] < len(tokenizer):
        raise ValueError(f"{shape}: {len(tokenizer)} tokens do not fit {values['vocab_size']} rows")
    return AutoConfig.for_model(
        "qwen2",
        **values,
        max_window_layers=values["num_hidden_layers"],
        use_sliding_window=False,
        bos_token_id=tokenizer.eos_token_id,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
        steplab_random_checkpoint=shape,  # so nobody takes it for trained weights
    )


def build_checkpoint(
    out: Path,
    *,
    shape: str,
    texts: list[str],
    tokenizer_vocab: int = 16384,
    dtype: str = "bfloat16",
    seed: int = 0,
) -> Path:
    """Write the tokenizer, config and random weights of `shape` into `out`."""
    import torch
    from transformers import AutoModelForCausalLM

    tokenizer = build_tokenizer(texts, vocab_size=tokenizer_vocab)
    config = shape_config(shape, tokenizer)
    torch.manual_seed(seed)
    model = AutoModelForCausalLM.from_config(config, dtype=getattr(torch, dtype))
    out.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(str(out))
    tokenizer.save_pretrained(str(out))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--shape", required=True, choices=sorted(SHAPES))
    parser.add_argument("--out", required=True, type=Path)
    parser.add_argument("--text", type=Path, default=DEFAULT_TEXT, help="JSONL rows to train on")
    parser.add_argument("--tokenizer-vocab", type=int, default=16384)
    parser.add_argument("--dtype", default="bfloat16", choices=["bfloat16", "float32"])
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if not args.text.is_file():
        parser.error(f"--text {args.text}: no such file")
    started = time.perf_counter()
    out = build_checkpoint(
        args.out,
        shape=args.shape,
        texts=corpus_texts(args.text),
        tokenizer_vocab=args.tokenizer_vocab,
        dtype=args.dtype,
        seed=args.seed,
    )
    config = json.loads((out / "config.json").read_text())
    tokens = len(json.loads((out / "tokenizer.json").read_text())["model"]["vocab"])
    seconds = time.perf_counter() - started
    print(
        f"{args.shape}: random {args.dtype} weights in {out} ({seconds:.0f} s)"
        f"; hidden {config['hidden_size']}, {config['num_hidden_layers']} layers, "
        f"{config['num_attention_heads']}/{config['num_key_value_heads']} heads, intermediate "
        f"{config['intermediate_size']}; {config['vocab_size']} embedding rows, tokenizer "
        f"{tokens} tokens (BPE trained on {args.text.name})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
