"""Train a PRM on step preferences with a Bradley-Terry loss.

    python -m training.pairwise --data pairs.jsonl --model PATH --out DIR [options]
    accelerate launch [--config_file CFG] -m training.pairwise ...   # every GPU (training.loop)

Rows come from steplab's pairwise export: `{prompt, prefix: [step, ...], chosen, rejected}`
(optional `split`). A pair is two examples, prompt + prefix + chosen and prompt + prefix +
rejected, tokenized as training.data does (each step followed by the separator). The model is
training.model's 2-label PRM; the score of a step is the logit difference
`s = logit[correct] - logit[wrong]` at its last token, and the loss is
`-log sigmoid(s_chosen - s_rejected)`. Because softmax over two logits is `sigmoid(s)`, the
saved directory is an ordinary PRM: `training.score.PRMScorer` loads it and its step
"probabilities" are `sigmoid(s)`, so training.evaluate's ProcessBench and best-of-N modes
evaluate it unchanged (Bradley-Terry fixes scores only up to a shift, so sweep the
ProcessBench threshold: `--sweep`). config.json records `prm_kind: "pairwise"`.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import torch

from training.data import DataError, Tokenization, TokenizedExample, build_example, read_objects
from training.kind_cli import kind_parser, run
from training.kinds import KindConfig, KindResult
from training.loop import KindLoop, split_train_held
from training.model import load_model, load_tokenizer, save_prm, token_logits
from training.packing import collate_padded

logger = logging.getLogger("training.pairwise")


@dataclass
class PairRow:
    prompt: str
    prefix: list[str]
    chosen: str
    rejected: str
    split: str | None = None


def parse_pair(raw: Any, where: str) -> PairRow:
    if not isinstance(raw, dict):
        raise DataError(f"{where}: expected a JSON object, got {type(raw).__name__}")
    for name in ("prompt", "chosen", "rejected"):
        if not isinstance(raw.get(name), str):
            raise DataError(f"{where}: field '{name}': a string expected (a pairwise row)")
    prefix = raw.get("prefix", [])
    if not isinstance(prefix, list) or not all(isinstance(s, str) for s in prefix):
        raise DataError(f"{where}: field 'prefix': a list of step strings expected")
    split = raw.get("split")
    return PairRow(raw["prompt"], list(prefix), raw["chosen"], raw["rejected"], split)


def read_pairs(paths: Sequence[str | Path]) -> list[PairRow]:
    rows = [parse_pair(raw, where) for p in paths for where, raw in read_objects(Path(p))]
    if not rows:
        raise DataError(f"no rows in {', '.join(map(str, paths))}")
    return rows


def tokenize_pairs(
    rows: Sequence[PairRow], tokenizer: Any, settings: Tokenization
) -> list[tuple[TokenizedExample, TokenizedExample]]:
    """(chosen, rejected) examples; the scored step is each example's last step position.
    A pair whose last step does not fit max_length is skipped (and counted in the log)."""
    sep = tokenizer.encode(settings.step_separator, add_special_tokens=False)

    def encode(text: str) -> list[int]:
        return tokenizer.encode(text, add_special_tokens=False) if text else []

    pairs, skipped = [], 0
    for row in rows:
        prompt_ids = encode(row.prompt)
        prefix_ids = [encode(s) for s in row.prefix]
        both = []
        for step in (row.chosen, row.rejected):
            steps = [*prefix_ids, encode(step)]
            example, _ = build_example(
                prompt_ids,
                steps,
                sep,
                bos_id=tokenizer.bos_token_id,
                labels=None,
                soft=None,
                settings=settings,
            )
            both.append(example if len(example.step_positions) == len(steps) else None)
        if both[0] is None or both[1] is None:
            skipped += 1
            continue
        pairs.append((both[0], both[1]))
    if skipped:
        logger.warning("%d pairs skipped: their last step does not fit max_length", skipped)
    return pairs


def step_score(logits: torch.Tensor) -> torch.Tensor:
    """One scalar per position: log-odds of "correct" (sigmoid of it = the PRM probability)."""
    return logits[..., 1] - logits[..., 0]


def pair_scores(
    model: Any, pairs: Sequence[tuple[TokenizedExample, TokenizedExample]], pad_id: int
) -> tuple[torch.Tensor, torch.Tensor]:
    """Scores of the last step of each chosen and each rejected example (one padded batch)."""
    examples = [e for pair in pairs for e in pair]
    batch = collate_padded(examples, pad_id)
    device = next(model.parameters()).device
    logits = token_logits(model, {k: v.to(device) for k, v in batch.items()})
    last = torch.tensor([e.step_positions[-1] for e in examples], device=device)
    scores = step_score(logits[torch.arange(len(examples), device=device), last])
    return scores[0::2], scores[1::2]


def bradley_terry_loss(chosen: torch.Tensor, rejected: torch.Tensor) -> torch.Tensor:
    return -torch.nn.functional.logsigmoid(chosen - rejected).mean()


def evaluate_pairs(
    model: Any,
    pairs: Sequence[tuple[TokenizedExample, TokenizedExample]],
    pad_id: int,
    loop: KindLoop,
) -> dict[str, float]:
    """Mean Bradley-Terry loss and pairwise accuracy (chosen scored above rejected), over
    every process's share of the pairs."""

    def measure(chunk: Sequence[tuple[TokenizedExample, TokenizedExample]]):
        c, r = pair_scores(model, chunk, pad_id)
        return bradley_terry_loss(c, r), (c > r).sum()

    return loop.evaluate(model, pairs, measure)


@dataclass
class PairwiseConfig(KindConfig):
    head: str = "linear"
    weight_decay: float = 0.0


def train_pairwise(config: PairwiseConfig) -> KindResult:
    """Train (on every process of an `accelerate launch`), save on the main process."""
    loop = KindLoop.of(config, unit="pairs")
    tokenizer, settings = load_tokenizer(config.model), config.tokenization()
    train_rows, held_rows = split_train_held(read_pairs(config.data), config.eval_split)
    train = tokenize_pairs(train_rows, tokenizer, settings)
    held = tokenize_pairs(held_rows, tokenizer, settings)
    if not train:
        raise DataError("no trainable pairs")
    pad = tokenizer.pad_token_id
    model = load_model(config.model, head=config.head)
    optimizer = torch.optim.AdamW(
        model.parameters(), lr=config.learning_rate, weight_decay=config.weight_decay
    )
    model, optimizer = loop.prepare(model, optimizer)
    before = evaluate_pairs(model, train, pad, loop)
    total = loop.steps_for(config.num_epochs, len(train))

    def loss_of(picked: list[int]) -> torch.Tensor:
        return bradley_terry_loss(*pair_scores(model, [train[i] for i in picked], pad))

    loop.fit(
        model, optimizer, size=len(train), steps=total, loss_of=loss_of, history=config.history
    )
    after = evaluate_pairs(model, train, pad, loop)
    held_metrics = evaluate_pairs(model, held, pad, loop) if held else None
    out = Path(config.output_dir)
    bare, state_dict = loop.save_state(model)
    bare.config.prm_kind = "pairwise"
    saved_config = {k: v for k, v in asdict(config).items() if k != "history"}
    metrics = {"train_before": before, "train": after, "eval": held_metrics}
    save_prm(
        bare,
        tokenizer,
        out,
        settings=settings,
        card=_card(config.model, saved_config, metrics),
        extra={"training_config.json": saved_config, "metrics.json": metrics},
        state_dict=state_dict,
        is_main_process=loop.main,
        save_function=loop.accelerator.save,
    )
    loop.done()
    return KindResult(out, total, before, after, held_metrics)


def _card(base: str, config: dict, metrics: dict) -> str:
    return "\n".join(
        [
            "# Pairwise process reward model (steplab)",
            "",
            f"`{base}` with a 2-label token head trained by `python -m training.pairwise` with "
            "a Bradley-Terry loss on step preferences (steplab's pairwise export). A step's "
            "score is sigmoid(logit[1] - logit[0]) at its last token; load it with "
            "`training.score.PRMScorer`.",
            "",
            "```json",
            json.dumps({"config": config, "metrics": metrics}, indent=2, sort_keys=True),
            "```",
            "",
        ]
    )


def build_parser() -> argparse.ArgumentParser:
    p = kind_parser(
        "python -m training.pairwise",
        __doc__,
        data="pairwise export(s), JSONL/Parquet",
        model="causal LM checkpoint or a saved PRM",
        learning_rate=1e-4,
        batch_size=8,
        unit="pairs",
    )
    p.add_argument("--head", default="linear", choices=["linear", "mlp2"])
    return p


def main(argv: list[str] | None = None) -> int:
    return run(build_parser(), PairwiseConfig, train_pairwise, argv)


if __name__ == "__main__":
    sys.exit(main())
