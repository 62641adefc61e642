"""Reward server throughput: micro-batched forward passes vs one item per forward pass.

    .venv/bin/python bench/reward_bench.py [--clients 16] [--items 256] [--hidden 256]
        [--layers 4] [--device cpu] [--model DIR]

Both servers run in this process (training.serve.prm_server on 127.0.0.1) over the same PRM:
a small Qwen2 token-classification model built from a config, or ``--model``: a trained PRM
directory, or a causal LM checkpoint (bench/random_checkpoint.py's, say) made into a PRM once
here, so that every server scores with the same head. ``clients`` threads each send requests
of one item (a prompt and 3-8 steps of 10-30 words), as RL workers scoring rollouts one at a
time do, until ``items`` are scored.
Micro-batched: up to ``--max-batch`` items per pass, waiting at most ``--max-wait-ms``;
baseline: ``max_batch=1``. Prints items/s, steps/s, passes and the ratio; the two runs
alternate ``--repeats`` times and each keeps its best.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import threading
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

_TEXT = (
    "we add the two numbers then multiply by three and check the result so the total is "
    "x equals seven plus five minus two times four over six squared root of nine"
)
WORDS = _TEXT.split()


def build_prm(directory: Path, *, hidden: int, layers: int) -> Path:
    import torch
    from transformers import AutoConfig, AutoModelForTokenClassification

    from bench.bpe_tokenizer import train_byte_level_bpe

    rng = random.Random(0)
    text = "\n".join(" ".join(rng.choice(WORDS) for _ in range(30)) for _ in range(300))
    tokenizer = train_byte_level_bpe(
        [text],
        vocab_size=1000,
        special_tokens=["<|endoftext|>"],
        eos_token="<|endoftext|>",
        pad_token="<|endoftext|>",
    )
    config = AutoConfig.for_model(
        "qwen2",
        hidden_size=hidden,
        intermediate_size=hidden * 3,
        num_hidden_layers=layers,
        num_attention_heads=max(1, hidden // 64),
        num_key_value_heads=max(1, hidden // 128),
        vocab_size=len(tokenizer),
        max_position_embeddings=4096,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
        num_labels=2,
    )
    torch.manual_seed(0)
    base = directory / "base"
    AutoModelForTokenClassification.from_config(config).save_pretrained(base)
    tokenizer.save_pretrained(base)
    return as_prm(base, directory / "prm")


def is_prm(model: Path) -> bool:
    """A PRM directory (training's, any kind), not a causal LM checkpoint."""
    config = model / "config.json"
    return (model / "implicit_prm.json").exists() or (
        config.exists() and "prm_head" in json.loads(config.read_text(encoding="utf-8"))
    )


def as_prm(base: Path, out: Path) -> Path:
    """The PRM of a causal LM checkpoint, its head drawn once (seed 0) and saved: loading the
    checkpoint itself would draw a new head per server and the two runs would score apart."""
    import torch

    from training.data import Tokenization
    from training.model import load_model, load_tokenizer, save_prm

    torch.manual_seed(0)
    settings = Tokenization(step_separator="\n")
    return save_prm(load_model(base), load_tokenizer(base), out, settings=settings)


def make_items(count: int, seed: int = 0) -> list[dict]:
    rng = random.Random(seed)
    items = []
    for i in range(count):
        steps = [
            " ".join(rng.choice(WORDS) for _ in range(rng.randint(10, 30)))
            for _ in range(rng.randint(3, 8))
        ]
        items.append({"prompt": f"Problem {i}: what is {i} + {i + 1}?", "steps": steps})
    return items


def post(url: str, body: dict) -> dict:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=600) as reply:
        return json.loads(reply.read())


def run(model: Path, items: list[dict], *, clients: int, max_batch: int, max_wait_ms: float,
        device: str) -> dict:  # fmt: skip
    from training.serve import prm_server

    server = prm_server(
        str(model), device=device, max_batch=max_batch, max_wait_ms=max_wait_ms, max_items=4096
    )
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = server.url + "/v1/rewards"
    post(url, {"items": items[:2]})  # warm up
    before = (server.batcher.batches, server.batcher.items)
    started = time.perf_counter()
    with ThreadPoolExecutor(clients) as pool:
        replies = list(pool.map(lambda item: post(url, {"items": [item]}), items))
    elapsed = time.perf_counter() - started
    passes = server.batcher.batches - before[0]
    assert server.batcher.items - before[1] == len(items)
    server.shutdown()
    server.server_close()
    steps = sum(len(i["steps"]) for i in items)
    assert all(
        len(r["step_rewards"][0]) == len(i["steps"]) for r, i in zip(replies, items, strict=True)
    )
    return {
        "seconds": elapsed,
        "items_per_s": len(items) / elapsed,
        "steps_per_s": steps / elapsed,
        "passes": passes,
        "mean_batch": len(items) / passes,
        "rewards": [r["step_rewards"][0] for r in replies],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--items", type=int, default=256)
    parser.add_argument("--hidden", type=int, default=256)
    parser.add_argument("--layers", type=int, default=4)
    parser.add_argument("--max-batch", type=int, default=32)
    parser.add_argument("--max-wait-ms", type=float, default=5.0)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--model", type=Path, help="a PRM or causal LM directory instead")
    args = parser.parse_args()
    import torch

    with tempfile.TemporaryDirectory() as tmp:
        if args.model is None:
            model = build_prm(Path(tmp), hidden=args.hidden, layers=args.layers)
        else:
            model = args.model if is_prm(args.model) else as_prm(args.model, Path(tmp) / "prm")
        params = sum(
            p.numel()
            for p in __import__("training.model", fromlist=["x"]).load_model(model).parameters()
        )
        items = make_items(args.items)
        print(
            f"PRM {params / 1e6:.1f}M params on {args.device} (torch threads "
            f"{torch.get_num_threads()}), {args.items} items "
            f"({sum(len(i['steps']) for i in items)} steps), {args.clients} clients, "
            "one item per request"
        )
        best: dict[str, dict] = {}
        modes = {
            f"micro-batched (max {args.max_batch}, {args.max_wait_ms:g} ms)": (
                args.max_batch,
                args.max_wait_ms,
            ),
            "one item per forward": (1, 0.0),
        }
        for _ in range(args.repeats):
            for name, (max_batch, wait) in modes.items():
                result = run(
                    model, items, clients=args.clients, max_batch=max_batch, max_wait_ms=wait,
                    device=args.device,
                )  # fmt: skip
                if name not in best or result["items_per_s"] > best[name]["items_per_s"]:
                    best[name] = result
        (batched_name, batched), (single_name, single) = best.items()
        worst = max(
            abs(a - b)
            for x, y in zip(batched["rewards"], single["rewards"], strict=True)
            for a, b in zip(x, y, strict=True)
        )
        for name, r in best.items():
            print(
                f"{name:>34}: {r['items_per_s']:8.1f} items/s {r['steps_per_s']:9.1f} steps/s "
                f"{r['passes']:5d} passes (mean {r['mean_batch']:.1f} items)  {r['seconds']:.2f} s"
            )
        print(f"ratio: {batched['items_per_s'] / single['items_per_s']:.2f}x items/s")
        print(f"largest reward difference between the two: {worst:.2e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
