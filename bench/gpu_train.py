"""One GPU training run of a real 0.5-1.5B model in bf16: tokens/s and MFU, in under 10 minutes.

    .venv/bin/python bench/gpu_train.py --model /models/Qwen2.5-Math-1.5B [--data export.jsonl]
        [--epochs 1] [--minutes 8] [--batch-size 16] [--max-length 2048]
        [--gradient-checkpointing] [--attn flash_attention_2|sdpa] [--packing|--no-packing]
        [--peak-tflops 989]

Trains the PRM with training.train (accelerate, bf16 mixed precision) on a TRL stepwise export,
by default the real ProcessBench sample of shared/data turned into TRL rows (train_bench.py's
conversion) and repeated; a small --data file (bench/gpu_check.sh's) is gone over --epochs
times. It stops after --minutes of training (a log callback raises) or at the end of the data,
then reports throughput over the steps after the first logged window (CUDA and allocator
warm-up). `--model` may be a random-weight checkpoint (bench/random_checkpoint.py): throughput
and MFU do not depend on weight values.

MFU = model FLOPs per second / the GPU's peak dense bf16 FLOPs. Model FLOPs per trained token
are 6 * N + 12 * L * d * T (PaLM's appendix B): N the non-embedding parameters (a PRM computes
no vocabulary logits: its head is hidden x 2), L layers, d the hidden size, T the mean example
length (packed examples attend only within themselves). Activation recomputation
(--gradient-checkpointing) is not counted as model FLOPs, as in PaLM's MFU.
Packing defaults to on when flash-attn is installed (variable-length kernels), else off: with
sdpa, packed rows get a dense block-diagonal mask and cost more than padding; padded batches
are then grouped by length.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import json
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))
sys.path.insert(0, str(REPO))

# Peak dense bf16 tensor FLOPs (vendor datasheets, no sparsity), by a substring of the name.
PEAK_TFLOPS = [
    ("H200", 989.0),
    ("GH200", 989.0),
    ("H100 PCIe", 756.0),
    ("H100", 989.0),
    ("H800", 989.0),
    ("H20", 148.0),
    ("B200", 2250.0),
    ("A100", 312.0),
    ("A800", 312.0),
    ("L40S", 362.0),
    ("L40", 181.0),
    ("L4", 121.0),
    ("A10G", 125.0),
    ("A10", 125.0),
    ("RTX 4090", 165.0),
    ("RTX 3090", 71.0),
]


class TimeUp(Exception):
    pass


def peak_flops(name: str, override: float | None) -> float | None:
    if override:
        return override * 1e12
    for key, tflops in PEAK_TFLOPS:
        if key in name:
            return tflops * 1e12
    return None


def model_shape(model_dir: str) -> dict[str, int]:
    """Non-embedding parameters, layers and hidden size, counted on the meta device."""
    import torch
    from transformers import AutoConfig, AutoModelForTokenClassification

    config = AutoConfig.from_pretrained(model_dir, num_labels=2)
    with torch.device("meta"):
        model = AutoModelForTokenClassification.from_config(config)
    embeddings = sum(p.numel() for p in model.get_input_embeddings().parameters())
    total = sum(p.numel() for p in model.parameters())
    text = config.get_text_config()
    return {
        "params": total,
        "non_embedding": total - embeddings,
        "layers": text.num_hidden_layers,
        "hidden": text.hidden_size,
    }


def default_data(directory: Path, rows: int) -> Path:
    import train_bench

    if not train_bench.PROCESSBENCH.is_file():
        sys.exit(f"{train_bench.PROCESSBENCH} is missing: pass --data (a TRL stepwise export)")
    path = directory / "processbench_trl.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in train_bench.trl_rows(rows)))
    return path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", required=True, help="local causal LM checkpoint directory")
    parser.add_argument("--data", help="TRL stepwise export (default: ProcessBench sample)")
    parser.add_argument("--out", help="keep the run here (default: a temporary directory)")
    parser.add_argument("--epochs", type=float, default=1.0, help="passes over the data")
    parser.add_argument("--minutes", type=float, default=8.0, help="training time budget")
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--grad-accum", type=int, default=1)
    parser.add_argument("--max-length", type=int, default=2048)
    parser.add_argument("--head", default="mlp2", choices=["linear", "mlp2"])
    parser.add_argument("--gradient-checkpointing", action="store_true")
    parser.add_argument("--attn", help="attention implementation (default: flash-attn if any)")
    parser.add_argument("--packing", action=argparse.BooleanOptionalAction, default=None)
    parser.add_argument("--peak-tflops", type=float, help="the GPU's peak dense bf16 TFLOPs")
    parser.add_argument("--log-every", type=int, default=5)
    parser.add_argument("--cpu", action="store_true", help="dry run without a GPU (no MFU)")
    args = parser.parse_args()

    import torch

    cuda = torch.cuda.is_available()
    if not cuda and not args.cpu:
        print("no CUDA device: this benchmark needs a GPU (--cpu: a dry run)", file=sys.stderr)
        return 2
    from training.config import TrainConfig
    from training.train import Run

    has_flash = importlib.util.find_spec("flash_attn") is not None
    attn = args.attn or ("flash_attention_2" if has_flash else "sdpa")
    packing = args.packing if args.packing is not None else attn == "flash_attention_2"
    gpu = torch.cuda.get_device_name(0) if cuda else "CPU (dry run)"
    shape = model_shape(args.model)
    budget = args.minutes * 60

    with tempfile.TemporaryDirectory() as tmp:
        data = args.data or str(default_data(Path(tmp), 20_000 if cuda else 64))
        config = TrainConfig(
            data=[data],
            model=args.model,
            out=args.out or str(Path(tmp) / "prm"),
            head=args.head,
            max_length=args.max_length,
            lr=1e-5,
            warmup_ratio=0.0,
            epochs=args.epochs,
            batch_size=args.batch_size,
            grad_accum=args.grad_accum,
            packing=packing,
            group_by_length=not packing,
            bf16=True,
            gradient_checkpointing=args.gradient_checkpointing,
            attn_implementation=attn,
            log_every=args.log_every,
            progress=True,
        )
        marks: list[tuple[float, dict]] = []
        started: list[float] = []

        def on_log(record: dict) -> None:
            if record.get("split") != "train":
                return
            now = time.perf_counter()
            if not started:
                started.append(now)
            marks.append((now, record))
            if now - started[0] > budget:
                raise TimeUp

        if cuda:
            torch.cuda.reset_peak_memory_stats()
        run = Run(config, on_log=on_log)  # loads the model and tokenizes the data
        with contextlib.suppress(TimeUp):
            run.fit()
        stats = run.data.stats["train"]
    if len(marks) < 2:
        print("too few logged steps to measure: lower --log-every or raise --minutes")
        return 1
    (t0, first), (t1, last) = marks[0], marks[-1]
    tokens = last["tokens"] - first["tokens"]
    seconds = t1 - t0
    steps = last["step"] - first["step"]
    rate = tokens / seconds
    mean_len = stats["tokens"] / max(stats["examples"] - stats["examples_skipped"], 1)
    flops_per_token = 6 * shape["non_embedding"] + 12 * shape["layers"] * shape["hidden"] * mean_len
    achieved = rate * flops_per_token
    peak = peak_flops(gpu, args.peak_tflops) if cuda else None
    billions = shape["params"] / 1e9, shape["non_embedding"] / 1e9
    print(f"GPU: {gpu}; model {args.model}: {billions[0]:.2f} B parameters "
          f"({billions[1]:.2f} B non-embedding), {shape['layers']} layers")  # fmt: skip
    batches = "packed" if packing else "padded, grouped by length"
    print(f"attention {attn}, {batches} batches of {args.batch_size} x {args.grad_accum}, "
          f"gradient checkpointing {args.gradient_checkpointing}, bf16")  # fmt: skip
    print(f"measured {steps} steps, {tokens} tokens in {seconds:.1f} s (after warm-up); "
          f"mean example {mean_len:.0f} tokens; last loss {last['loss']:.4f}")  # fmt: skip
    print(f"tokens/s: {rate:,.0f}")
    print(f"model TFLOPs/s: {achieved / 1e12:.1f}")
    if peak:
        print(f"MFU: {100 * achieved / peak:.1f}% of {peak / 1e12:.0f} TFLOPs peak bf16")
    else:
        print("MFU: unknown GPU, pass --peak-tflops")
    if cuda:
        print(f"peak GPU memory: {torch.cuda.max_memory_allocated() / 2**30:.1f} GiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
