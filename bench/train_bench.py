"""PRM training throughput: training.train against TRL 1.13.0's PRMTrainer, same data and model.

    .venv/bin/python bench/train_bench.py [--rows 120] [--hidden 128] [--layers 2] [--repeats 2]

TRL removed PRMTrainer after 1.13; 1.13.0 has it as trl.experimental.prm. The script installs
trl==1.13.0 (without dependencies) into its own venv, var/bench/trl-1.13.0, whose site
packages extend this venv's: both trainers run on the same torch, transformers and accelerate.

Data: the real ProcessBench sample (shared/data) as TRL stepwise rows (steps before the first
error positive, that step negative, none after it), repeated to --rows. Model: a small Qwen2
built from a config with a byte-level BPE tokenizer trained on that text. Each trainer runs in
its own process for one epoch: same batch size, learning rate, linear schedule, fp32, no
gradient checkpointing, dropout on, no truncation. Tokens/s = the dataset's tokens (padding not
counted) over the seconds of the training loop (model loading and tokenization excluded).
steplab runs three ways: padded batches in random order (what TRL does), padded batches grouped
by length (--group-by-length), and packed, padding-free batches.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))  # bench.bpe_tokenizer when run as a script
PROCESSBENCH = REPO.parent / "shared" / "data" / "processbench_sample.jsonl"
TRL_VENV = REPO / "var" / "bench" / "trl-1.13.0"
TRL_VERSION = "1.13.0"


def trl_rows(count: int) -> list[dict]:
    source = [json.loads(line) for line in PROCESSBENCH.read_text().splitlines() if line]
    rows = []
    while len(rows) < count:
        for row in source:
            first = row["label"]
            steps = row["steps"] if first < 0 else row["steps"][: first + 1]
            labels = [first < 0 or k < first for k in range(len(steps))]
            rows.append({"prompt": row["problem"], "completions": steps, "labels": labels})
    return rows[:count]


def build_model(
    directory: Path,
    text: list[str],
    *,
    hidden: int,
    layers: int,
    vocab_size: int = 4000,
    intermediate: int | None = None,
    heads: int | None = None,
    kv_heads: int | None = None,
    max_positions: int = 8192,
) -> Path:
    """A small Qwen2 causal LM from a config (seed 0) with a byte-level BPE trained on `text`,
    saved in `directory`. Defaults: intermediate 3 x hidden, a head per 32 of hidden, a key/value
    head per 64 (bench/multidomain_prm.py passes its own)."""
    import torch
    from transformers import AutoConfig, AutoModelForCausalLM

    from bench.bpe_tokenizer import train_byte_level_bpe

    tokenizer = train_byte_level_bpe(
        text,
        vocab_size=vocab_size,
        special_tokens=["<|endoftext|>"],
        eos_token="<|endoftext|>",
        pad_token="<|endoftext|>",
    )
    config = AutoConfig.for_model(
        "qwen2",
        hidden_size=hidden,
        intermediate_size=intermediate or hidden * 3,
        num_hidden_layers=layers,
        num_attention_heads=heads or max(hidden // 32, 1),
        num_key_value_heads=kv_heads or max(hidden // 64, 1),
        vocab_size=len(tokenizer),
        max_position_embeddings=max_positions,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
        tie_word_embeddings=True,
    )
    torch.manual_seed(0)
    AutoModelForCausalLM.from_config(config).save_pretrained(directory)
    tokenizer.save_pretrained(directory)
    return directory


def ensure_trl_venv() -> Path:
    """A venv with trl==1.13.0 only; everything else comes from this venv's site packages."""
    python = TRL_VENV / "bin" / "python"
    probe = [str(python), "-c", "import trl; print(trl.__version__)"]
    if python.exists():
        done = subprocess.run(probe, capture_output=True, text=True)
        if done.returncode == 0 and done.stdout.strip() == TRL_VERSION:
            return python
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(TRL_VENV)], check=True)
    ours = next(p for p in sys.path if p.endswith("site-packages") and Path(p).is_dir())
    theirs = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    Path(theirs).mkdir(parents=True, exist_ok=True)
    (Path(theirs) / "zz_steplab_venv.pth").write_text(ours + "\n")
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", theirs,
         f"trl=={TRL_VERSION}"],
        check=True,
    )  # fmt: skip
    done = subprocess.run(probe, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == TRL_VERSION, done.stdout
    return python


TRL_SCRIPT = textwrap.dedent(
    """
    import json, sys, time
    import torch
    from datasets import load_dataset
    from transformers import AutoModelForTokenClassification, AutoTokenizer
    from trl.experimental.prm import PRMConfig, PRMTrainer

    data, model_dir, out, batch_size, lr = sys.argv[1:6]
    torch.manual_seed(0)
    tokenizer = AutoTokenizer.from_pretrained(model_dir)
    model = AutoModelForTokenClassification.from_pretrained(model_dir, num_labels=2)
    args = PRMConfig(
        output_dir=out, per_device_train_batch_size=int(batch_size), learning_rate=float(lr),
        num_train_epochs=1, lr_scheduler_type="linear", bf16=False, fp16=False,
        gradient_checkpointing=False, disable_dropout=False, max_length=None,
        logging_steps=10**6, save_strategy="no", report_to=[], use_cpu=True,
        dataloader_num_workers=0, seed=0,
    )
    dataset = load_dataset("json", data_files=data, split="train")
    trainer = PRMTrainer(model=model, args=args, train_dataset=dataset,
                         processing_class=tokenizer)
    tokens = sum(len(ids) for ids in trainer.train_dataset["input_ids"])
    start = time.perf_counter()
    trainer.train()
    seconds = time.perf_counter() - start
    print(json.dumps({"tokens": tokens, "seconds": seconds, "trl": __import__("trl").__version__}))
    """
)

OURS_SCRIPT = textwrap.dedent(
    """
    import json, sys
    from training.config import TrainConfig
    from training.train import train

    data, model_dir, out, batch_size, lr, packing, grouped = sys.argv[1:8]
    result = train(TrainConfig(
        data=[data], model=model_dir, out=out, batch_size=int(batch_size), lr=float(lr),
        epochs=1, max_length=10**6, max_prompt_length=None, packing=packing == "1",
        group_by_length=grouped == "1",
        log_every=10**6, progress=False, seed=0,
    ))
    print(json.dumps({"tokens": result.tokens, "seconds": result.seconds}))
    """
)


def run_json(command: list[str], **kwargs) -> dict:
    done = subprocess.run(command, capture_output=True, text=True, **kwargs)
    if done.returncode != 0:
        sys.exit(f"{' '.join(command[:3])} failed:\n{done.stderr[-4000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=120)
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--layers", type=int, default=2)
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args()

    started = time.perf_counter()
    trl_python = ensure_trl_venv()
    print(f"TRL {TRL_VERSION} venv ready: {TRL_VENV} ({time.perf_counter() - started:.0f} s)")
    env = {**os.environ, "PYTHONPATH": str(REPO), "TOKENIZERS_PARALLELISM": "false"}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        rows = trl_rows(args.rows)
        data = tmp / "export.jsonl"
        data.write_text("".join(json.dumps(r) + "\n" for r in rows))
        text = [r["prompt"] + "\n" + "\n".join(r["completions"]) for r in rows]
        model = build_model(tmp / "model", text, hidden=args.hidden, layers=args.layers)
        common = [str(data), str(model)]
        bs, lr = str(args.batch_size), "1e-5"
        ours = [sys.executable, "-c", OURS_SCRIPT, *common]
        commands = {
            "trl": [str(trl_python), "-c", TRL_SCRIPT, *common, str(tmp / "trl"), bs, lr],
            "padded": [*ours, str(tmp / "a"), bs, lr, "0", "0"],
            "grouped": [*ours, str(tmp / "c"), bs, lr, "0", "1"],
            "packed": [*ours, str(tmp / "b"), bs, lr, "1", "0"],
        }
        runs: dict[str, list[dict]] = {name: [] for name in commands}
        # Alternate the trainers and keep each one's fastest run: other load on a shared
        # machine then hits them alike instead of whichever ran during a busy minute.
        for _ in range(args.repeats):
            for name, command in commands.items():
                runs[name].append(run_json(command, env=env))
                print(f"  {name}: {runs[name][-1]['tokens'] / runs[name][-1]['seconds']:.0f}"
                      " tokens/s", flush=True)  # fmt: skip
        trl, padded, grouped, packed = (
            max(runs[name], key=lambda r: r["tokens"] / r["seconds"]) for name in commands
        )
    if padded["tokens"] != trl["tokens"]:
        print(f"note: token counts differ (steplab {padded['tokens']}, TRL {trl['tokens']})")
    best = {"trl": trl, "padded": padded, "grouped": grouped, "packed": packed}
    rate = {name: r["tokens"] / r["seconds"] for name, r in best.items()}
    print(
        f"{args.rows} rows, {trl['tokens']} tokens, batch {args.batch_size}, Qwen2 hidden "
        f"{args.hidden} x {args.layers} layers, one epoch on {os.cpu_count()} CPU cores, "
        f"best of {args.repeats}"
    )
    print(f"  TRL {trl['trl']} PRMTrainer      {rate['trl']:10.0f} tokens/s")
    print(f"  steplab, padded batches   {rate['padded']:10.0f} tokens/s")
    print(f"  steplab, grouped by length {rate['grouped']:9.0f} tokens/s")
    print(f"  steplab, packed batches   {rate['packed']:10.0f} tokens/s")
    ratio = {name: rate[name] / rate["trl"] for name in rate}
    print(f"ratio steplab/TRL: padded {ratio['padded']:.2f}x, grouped by length "
          f"{ratio['grouped']:.2f}x, packed {ratio['packed']:.2f}x")  # fmt: skip


if __name__ == "__main__":
    main()
