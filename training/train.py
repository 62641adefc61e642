"""Train a PRM on a TRL stepwise export with accelerate.

    python -m training.train --data export.jsonl --model PATH --out DIR [options]
    python -m training.train --config training/configs/example.yaml
    accelerate launch --config_file training/configs/accelerate_fsdp.yaml -m training.train ...

From Python (the app's TrainingRun does this): `train(TrainConfig(...), on_log=callback)`
returns a TrainResult; `on_log` receives every record written to out/metrics.jsonl.

Out dir: the final PRM (model, tokenizer, README.md card, training_config.json,
data_stats.json), metrics.jsonl, metrics.png, checkpoint-N/ (the PRM at step N plus
state/ with optimizer, scheduler and RNG states, and trainer_state.json).
"""

from __future__ import annotations

import json
import logging
import math
import os
import shutil
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch

from training.config import TrainConfig
from training.data import TokenizedExample
from training.loop import make_accelerator, sharded_sums
from training.metrics import MetricsLog, StepCounts, plot_metrics
from training.model import (
    load_model,
    load_tokenizer,
    model_card,
    save_prm,
    step_loss,
    token_logits,
)
from training.packing import Collator, real_tokens
from training.prepare import EpochSampler, prepare_data, tokenization_settings

logger = logging.getLogger("training.train")
TRAINER_STATE = "trainer_state.json"


@dataclass
class TrainResult:
    out_dir: Path
    global_step: int
    train_metrics: dict[str, float]
    eval_metrics: dict[str, float]
    data_stats: dict[str, dict[str, int]]
    tokens: int
    seconds: float
    tokens_per_second: float
    checkpoints: list[Path] = field(default_factory=list)


def evaluate_examples(
    model: Any,
    examples: Sequence[TokenizedExample],
    collator: Collator,
    accelerator: Any,
    batch_size: int,
) -> dict[str, float]:
    """Loss, accuracy and F1 over examples, sharded over processes and summed exactly
    (training.loop.sharded_sums)."""

    def measure(part: Sequence[TokenizedExample]) -> torch.Tensor:
        batch = {k: v.to(accelerator.device) for k, v in collator(part).items()}
        logits = token_logits(model, batch)
        loss = step_loss(logits, batch["labels"], batch.get("soft_labels"))
        counts = StepCounts()
        counts.add(logits, batch["labels"], float(loss) * len(part))
        counts.batches += len(part) - 1  # the loss is averaged per example
        return counts.as_tensor()

    total = sharded_sums(model, examples, batch_size, accelerator, measure)
    return StepCounts.from_tensor(total).summary()


def _resume_dir(config: TrainConfig) -> Path | None:
    if not config.resume_from:
        return None
    if config.resume_from != "latest":
        return Path(config.resume_from)
    found = sorted(_complete_checkpoints(Path(config.out)), key=lambda p: int(p.name.split("-")[1]))
    return found[-1] if found else None


def _complete_checkpoints(out: Path) -> list[Path]:
    """Checkpoints whose trainer_state.json exists: it is written last, atomically, so a
    checkpoint a killed process left half-written is never resumed from."""
    return [p for p in out.glob("checkpoint-*") if (p / TRAINER_STATE).is_file()]


def _apply_lora(model: Any, config: TrainConfig) -> Any:
    try:
        from peft import LoraConfig, get_peft_model
    except ImportError as exc:
        raise RuntimeError("lora: true needs peft (pip install peft)") from exc
    targets = sorted(
        {
            name.rsplit(".", 1)[-1]
            for name, module in model.named_modules()
            if isinstance(module, torch.nn.Linear) and not name.startswith("score")
        }
    )
    lora = LoraConfig(
        task_type="TOKEN_CLS",
        r=config.lora_r,
        lora_alpha=config.lora_alpha,
        lora_dropout=config.lora_dropout,
        target_modules=targets,
        modules_to_save=["score"],
    )
    return get_peft_model(model, lora)


class Run:
    """One training run: built from a config, executed by `fit()`."""

    def __init__(self, config: TrainConfig, on_log: Callable[[dict], None] | None = None) -> None:
        from accelerate.utils import set_seed

        self.config = config.validate()
        self.on_log = on_log
        self.out = Path(config.out)
        self.accelerator = make_accelerator(
            grad_accum=config.grad_accum, mixed_precision="bf16" if config.bf16 else "no"
        )
        set_seed(config.seed)
        self.main = self.accelerator.is_main_process
        if self.main:
            self.out.mkdir(parents=True, exist_ok=True)
        self.log = MetricsLog(self.out / "metrics.jsonl", enabled=self.main)
        self.tokenizer = load_tokenizer(config.model)
        self.data = prepare_data(config, self.tokenizer)
        self.collator = Collator(packing=config.packing, pad_id=self.tokenizer.pad_token_id)
        model = load_model(
            config.model, head=config.head, attn_implementation=config.attn_implementation
        )
        if config.gradient_checkpointing:
            model.gradient_checkpointing_enable(
                gradient_checkpointing_kwargs={"use_reentrant": False}
            )
        if config.lora:
            model = _apply_lora(model, config)
        self.sampler = EpochSampler(
            len(self.data.train),
            config.seed,
            batch_size=config.batch_size,
            lengths=[len(e) for e in self.data.train] if config.group_by_length else None,
        )
        loader = torch.utils.data.DataLoader(
            self.data.train,
            batch_size=config.batch_size,
            sampler=self.sampler,
            collate_fn=self.collator,
            # Each new iterator draws a seed: from its own generator, not the global RNG that
            # dropout uses, so a resumed run's skipping loader leaves dropout's stream alone.
            generator=torch.Generator().manual_seed(config.seed),
        )
        world = self.accelerator.num_processes
        self.batches_per_epoch = math.ceil(len(loader) / world)  # per process
        self.updates_per_epoch = math.ceil(self.batches_per_epoch / config.grad_accum)
        self.total_steps = (
            config.max_steps
            if config.max_steps > 0
            else math.ceil(config.epochs * self.updates_per_epoch)
        )
        optimizer = torch.optim.AdamW(
            [p for p in model.parameters() if p.requires_grad],
            lr=config.lr,
            weight_decay=config.weight_decay,
        )
        from transformers import get_scheduler

        scheduler = get_scheduler(
            config.lr_scheduler,
            optimizer,
            num_warmup_steps=int(config.warmup_ratio * self.total_steps) * world,
            num_training_steps=self.total_steps * world,
        )
        self.model, self.optimizer, self.loader, self.scheduler = self.accelerator.prepare(
            model, optimizer, loader, scheduler
        )
        self.global_step = 0
        self.epoch = 0
        self.batches_done = 0  # micro-batches of the current epoch already trained on
        self.tokens = 0
        self.checkpoints: list[Path] = []

    # -- checkpoints -------------------------------------------------------------------------

    def _save_model(self, directory: Path, *, card: str | None, final: bool) -> None:
        acc = self.accelerator
        model = acc.unwrap_model(self.model)
        state_dict = acc.get_state_dict(self.model)
        if final and self.config.lora:
            model = model.merge_and_unload()
            state_dict = None if not acc.is_main_process else model.state_dict()
        extra = {"training_config.json": self.config.to_dict()}
        extra["data_stats.json"] = self.data.stats
        save_prm(
            model,
            self.tokenizer,
            directory,
            settings=tokenization_settings(self.config),
            card=card,
            extra=extra,
            state_dict=state_dict,
            is_main_process=acc.is_main_process,
            save_function=acc.save,
        )

    def save_checkpoint(self) -> Path:
        directory = self.out / f"checkpoint-{self.global_step}"
        self.accelerator.save_state(str(directory / "state"))
        self._save_model(directory, card=None, final=False)
        if self.main:
            state = {
                "global_step": self.global_step,
                "epoch": self.epoch,
                "batches_done": self.batches_done,
                "tokens": self.tokens,
                "total_steps": self.total_steps,
            }
            partial = directory / (TRAINER_STATE + ".tmp")
            partial.write_text(json.dumps(state, indent=2))
            os.replace(partial, directory / TRAINER_STATE)  # the checkpoint is complete now
            # Half-written checkpoints of a killed run are of no use: drop them.
            complete = set(_complete_checkpoints(self.out))
            for stale in set(self.out.glob("checkpoint-*")) - complete:
                shutil.rmtree(stale, ignore_errors=True)
            # The newest `keep_checkpoints` in the out dir, this run's or a resumed one's.
            found = sorted(complete, key=lambda p: ((p / TRAINER_STATE).stat().st_mtime_ns, p.name))
            keep = max(self.config.keep_checkpoints, 1)
            for old in found[:-keep]:
                shutil.rmtree(old, ignore_errors=True)
            self.checkpoints = found[-keep:]
        self.accelerator.wait_for_everyone()
        return directory

    def resume(self, directory: Path) -> None:
        state = json.loads((directory / TRAINER_STATE).read_text())
        self.accelerator.load_state(str(directory / "state"))
        self.global_step = state["global_step"]
        self.epoch = state["epoch"]
        self.batches_done = state["batches_done"]
        self.tokens = state["tokens"]
        logger.info("resumed from %s at step %d", directory, self.global_step)

    # -- the loop ----------------------------------------------------------------------------

    def _record(self, record: dict[str, Any]) -> None:
        record = {"step": self.global_step, "epoch": round(self._epoch_float(), 4), **record}
        self.log.write(record)
        if self.on_log is not None and self.main:
            self.on_log(record)

    def _epoch_float(self) -> float:
        return self.epoch + self.batches_done / max(self.batches_per_epoch, 1)

    def _evaluate(self) -> dict[str, float]:
        if not self.data.eval:
            return {}
        metrics = evaluate_examples(
            self.model, self.data.eval, self.collator, self.accelerator, self.config.batch_size
        )
        self._record({"split": "eval", **metrics})
        return metrics

    def fit(self) -> TrainResult:
        config, acc = self.config, self.accelerator
        resume = _resume_dir(config)
        if resume is not None:
            self.resume(resume)
        logger.info(
            "training %d examples (%d eval), %d steps of %d x %d x %d examples",
            len(self.data.train),
            len(self.data.eval),
            self.total_steps,
            config.batch_size,
            config.grad_accum,
            acc.num_processes,
        )
        from tqdm.auto import tqdm

        bar = tqdm(
            total=self.total_steps,
            initial=self.global_step,
            disable=not (self.main and config.progress),
            desc="training",
            unit="step",
        )
        window = StepCounts()
        window_tokens = 0
        window_start = started = time.perf_counter()
        tokens_at_start = self.tokens
        train_metrics: dict[str, float] = {}
        eval_metrics: dict[str, float] = {}
        self.model.train()
        while self.global_step < self.total_steps:
            self.sampler.use_epoch(self.epoch)
            loader = (
                acc.skip_first_batches(self.loader, self.batches_done)
                if self.batches_done
                else self.loader
            )
            for batch in loader:
                with acc.accumulate(self.model):
                    logits = token_logits(self.model, batch)
                    loss = step_loss(logits, batch["labels"], batch.get("soft_labels"))
                    acc.backward(loss)
                    if acc.sync_gradients and config.max_grad_norm > 0:
                        acc.clip_grad_norm_(self.model.parameters(), config.max_grad_norm)
                    self.optimizer.step()
                    self.scheduler.step()
                    self.optimizer.zero_grad()
                self.batches_done += 1
                window.add(logits.detach(), batch["labels"], float(loss.detach()))
                window_tokens += real_tokens(batch)
                if not acc.sync_gradients:
                    continue
                self.global_step += 1
                bar.update(1)
                last = self.global_step >= self.total_steps
                if self.global_step % max(config.log_every, 1) == 0 or last:
                    counts = acc.reduce(window.as_tensor().to(acc.device), reduction="sum")
                    tokens = int(acc.reduce(torch.tensor(window_tokens, device=acc.device)))
                    self.tokens += tokens
                    elapsed = time.perf_counter() - window_start
                    train_metrics = StepCounts.from_tensor(counts.cpu()).summary()
                    self._record(
                        {
                            "split": "train",
                            **train_metrics,
                            "lr": self.scheduler.get_last_lr()[0],
                            "tokens": self.tokens,
                            "tokens_per_s": tokens / elapsed if elapsed > 0 else 0.0,
                        }
                    )
                    bar.set_postfix(loss=f"{train_metrics['loss']:.4f}")
                    window, window_tokens = StepCounts(), 0
                    window_start = time.perf_counter()
                if config.eval_every and self.global_step % config.eval_every == 0 and not last:
                    eval_metrics = self._evaluate()
                    window_start = time.perf_counter()
                if config.save_every and self.global_step % config.save_every == 0 and not last:
                    self.save_checkpoint()
                    window_start = time.perf_counter()  # tokens/s counts training only
                if last:
                    break
            else:
                self.epoch += 1
                self.batches_done = 0
        bar.close()
        seconds = time.perf_counter() - started
        eval_metrics = self._evaluate() or eval_metrics
        self.finish(train_metrics, eval_metrics)
        trained = self.tokens - tokens_at_start
        return TrainResult(
            out_dir=self.out,
            global_step=self.global_step,
            train_metrics=train_metrics,
            eval_metrics=eval_metrics,
            data_stats=self.data.stats,
            tokens=self.tokens,
            seconds=seconds,
            tokens_per_second=trained / seconds if seconds > 0 else 0.0,
            checkpoints=list(self.checkpoints),
        )

    def finish(self, train_metrics: dict[str, float], eval_metrics: dict[str, float]) -> None:
        metrics = {"step": self.global_step, "train": train_metrics, "eval": eval_metrics}
        card = model_card(
            base_model=self.config.model,
            head=self.config.head,
            data=self.data.digests,
            config=self.config.to_dict(),
            metrics={**metrics, "data": self.data.stats},
        )
        self._save_model(self.out, card=card, final=True)
        if self.main:
            plot_metrics(self.log.read(), self.out / "metrics.png")
        self.accelerator.wait_for_everyone()


def train(config: TrainConfig, *, on_log: Callable[[dict], None] | None = None) -> TrainResult:
    """Train, save the PRM into config.out and return what happened."""
    return Run(config, on_log=on_log).fit()


def main(argv: list[str] | None = None) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    config = TrainConfig.from_args(argv)
    result = train(config)
    summary = {
        "out": str(result.out_dir),
        "steps": result.global_step,
        "train": result.train_metrics,
        "eval": result.eval_metrics,
        "tokens_per_second": round(result.tokens_per_second, 1),
        "truncation": result.data_stats["train"]["steps_dropped"],
    }
    from accelerate import PartialState

    if PartialState().is_main_process:
        print(json.dumps(summary, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
