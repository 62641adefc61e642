"""A multi-domain PRM against a math-only PRM, trained from one export and evaluated per
domain on the same held-out split (VersaPRM's comparison, as steplab runs it).

    .venv/bin/python bench/multidomain_prm.py [--export FILE] [--model DIR] [--steps 60]
        [--out var/bench/multidomain]

`--export`: a TRL export of a `mixed` project (`manage.py export --format trl ...`: its rows
carry `domain` and `split`). Without it the script writes a synthetic export of that shape:
math, text and code problems whose steps are wrong exactly when they contain their domain's
marker word (a signal a 2-layer model learns in a few dozen steps). `--model`: a causal LM
checkpoint; without it a tiny Qwen2 (hidden 64, 2 layers) is built from a config with a
byte-level BPE tokenizer trained on the export's text, as the training tests do.

Both PRMs train with the same settings on the same file: the multi-domain one on every
domain's training rows, the math-only one with `TrainConfig.domains = ["math"]` (the same
rows an export with `filters.domains = ["math"]` holds). training.domains then scores the
held-out rows of every domain with both and prints the table.

On CPU with the tiny model the numbers are a plumbing check (data, filter, training and
per-domain evaluation wired end to end: the math-only PRM should not find the text and code
markers it never saw), not evidence about real PRMs. docs/ml.md gives the GPU command with
open checkpoints (Qwen2.5-Math-1.5B, Qwen2.5-1.5B).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from training.config import TrainConfig  # noqa: E402
from training.data import read_files  # noqa: E402
from training.domains import evaluate_by_domain, held_out, markdown_table  # noqa: E402

# Per domain: its words and the marker that makes a step wrong.
VOCAB = {
    "math": ("oops", "add subtract multiply divide total sum equals number twice half"),
    "text": ("alas", "passage says author means sentence translate word reader claims"),
    "code": ("bug", "function returns loop index list call variable test value prints"),
}


def synthetic_export(problems: int, *, seed: int = 0) -> list[dict]:
    """TRL rows as a mixed project's export writes them: steps up to the first wrong one,
    a hash split (90/10 train/validation by problem), and the problem's domain."""
    rng = random.Random(seed)
    rows = []
    for domain, (marker, vocabulary) in VOCAB.items():
        words = vocabulary.split(" ")
        for p in range(problems):
            prompt = f"{domain} problem {p}: " + " ".join(rng.sample(words, 5)) + "?"
            h = int.from_bytes(hashlib.sha256(prompt.encode()).digest()[:8], "big") / 2**64
            split = "validation" if h < 0.25 else "train"
            for _ in range(2):
                steps, labels = [], []
                for _ in range(rng.randint(2, 5)):
                    step = rng.sample(words, 4)
                    wrong = rng.random() < 0.3
                    if wrong:
                        step.insert(rng.randint(0, 4), marker)
                    steps.append(" ".join(step) + f" {rng.randint(1, 99)}.")
                    labels.append(not wrong)
                    if wrong:
                        break
                rows.append(
                    {
                        "prompt": prompt,
                        "completions": steps,
                        "labels": labels,
                        "domain": domain,
                        "split": split,
                    }
                )
    return rows


def build_tiny_model(directory: Path, export: Path) -> Path:
    """bench/train_bench.py's small Qwen2 (hidden 64, 2 layers), its tokenizer on the export."""
    from bench.train_bench import build_model

    text = [r.prompt + "\n" + "\n".join(r.completions) for r in read_files([export])]
    return build_model(
        directory, text, hidden=64, layers=2, vocab_size=600, intermediate=128, heads=4,
        kv_heads=2, max_positions=2048,
    )  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--export", help="a TRL export of a mixed project (domain, split)")
    parser.add_argument("--model", help="base checkpoint directory (default: a tiny Qwen2)")
    parser.add_argument("--problems", type=int, default=40, help="synthetic: per domain")
    parser.add_argument("--steps", type=int, default=300, help="optimizer steps per PRM")
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--bf16", action="store_true", help="bf16 training (GPUs)")
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument("--math-domain", default="math", help="the single-domain PRM's domain")
    parser.add_argument("--threshold", type=float, default=0.5)
    parser.add_argument("--out", default=str(REPO / "var" / "bench" / "multidomain"))
    args = parser.parse_args(argv)
    from training.scorers import load_scorer
    from training.train import train

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if args.export:
        export = Path(args.export)
    else:
        export = out / "synthetic-mixed-trl.jsonl"
        rows = synthetic_export(args.problems)
        export.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    model = Path(args.model) if args.model else build_tiny_model(out / "base", export)
    held = held_out(read_files([export]), "validation")
    reports, seconds = {}, {}
    for name, domains in (("multi-domain", []), (f"{args.math_domain}-only", [args.math_domain])):
        config = TrainConfig(
            data=[str(export)],
            model=str(model),
            out=str(out / name),
            domains=domains,
            eval_split="validation",
            lr=args.lr,
            bf16=args.bf16,
            batch_size=args.batch_size,
            max_steps=args.steps,
            log_every=max(args.steps // 4, 1),
            packing=True,
            progress=False,
            seed=0,
        )
        started = time.perf_counter()
        train(config)
        seconds[name] = time.perf_counter() - started
        scorer = load_scorer(out / name)
        reports[name] = evaluate_by_domain(scorer.score_many, held, threshold=args.threshold)
    print(f"export: {export} ({len(held)} held-out rows); base model: {model}")
    print("training seconds: " + ", ".join(f"{k} {v:.1f}" for k, v in seconds.items()))
    print(markdown_table(reports))
    (out / "report.json").write_text(json.dumps(reports, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
