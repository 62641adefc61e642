"""What the accelerate trainers share: the Accelerator with its launch check, evaluation sharded
over processes, and the step loop of the pairwise and implicit kinds.

Under `accelerate launch` / `torchrun` every process reads and tokenizes the same data and
draws the same order (a shared seed); each optimizer step takes a global batch of
batch_size x grad_accum x processes items from it, and process r trains on its own
batch_size-item slice of each micro-batch. The gradients are averaged over processes (DDP,
FSDP or ZeRO), so a step is the step a single process would take on the whole global batch.
"""

from __future__ import annotations

import logging
import math
import os
import random
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import torch

if TYPE_CHECKING:
    from training.kinds import KindConfig

logger = logging.getLogger("training.loop")
T = TypeVar("T")


class SettingError(ValueError):
    """A setting out of range, or one that does not fit how the processes were launched."""


def make_accelerator(*, grad_accum: int = 1, mixed_precision: str = "no") -> Any:
    """An Accelerator; refuses a launch whose processes accelerate would not join together."""
    from accelerate import Accelerator

    accelerator = Accelerator(
        gradient_accumulation_steps=grad_accum, mixed_precision=mixed_precision
    )
    launched = int(os.environ.get("WORLD_SIZE", "1"))
    if launched != accelerator.num_processes:
        # e.g. an FSDP or DeepSpeed launch config on a machine without GPUs: accelerate
        # falls back to independent processes that would all write the same out dir.
        raise RuntimeError(
            f"{launched} processes were launched but accelerate runs "
            f"{accelerator.num_processes} ({accelerator.distributed_type}); "
            "on CPUs launch with ACCELERATE_USE_CPU=true torchrun --nproc_per_node N"
        )
    return accelerator


def sharded_sums(
    model: Any,
    items: Sequence[T],
    batch_size: int,
    accelerator: Any,
    measure: Callable[[Sequence[T]], torch.Tensor],
) -> torch.Tensor:
    """`measure(batch)` (a float64 vector of sums) added over items, sharded over processes
    and reduced exactly; no gradients, the model in eval mode meanwhile.

    Every process runs the same number of forward passes (FSDP and ZeRO gather parameters
    in each one); a process with fewer items measures a stand-in batch and drops the result."""
    shard = list(items[accelerator.process_index :: accelerator.num_processes])
    rounds = math.ceil(math.ceil(len(items) / accelerator.num_processes) / batch_size)
    total: torch.Tensor | None = None
    was_training = model.training
    model.eval()
    with torch.no_grad():
        for r in range(rounds):
            part = shard[r * batch_size : (r + 1) * batch_size]
            sums = measure(part or items[:1]).detach().to("cpu", torch.float64)
            if total is None:
                total = torch.zeros_like(sums)
            if part:
                total += sums
    model.train(was_training)
    if total is None:
        raise ValueError("nothing to evaluate")
    return accelerator.reduce(total.to(accelerator.device), reduction="sum").cpu()


def split_train_held(rows: Sequence[Any], eval_split: str) -> tuple[list[Any], list[Any]]:
    """Rows (with a `split`) without a split or of `train` train; those of `eval_split` are
    held out."""
    train = [r for r in rows if r.split in (None, "train")]
    held = [r for r in rows if r.split == eval_split]
    return train, held


def global_batches(size: int, batch: int, seed: int) -> Iterator[list[int]]:
    """Endless batches of indices: shuffled epochs from random.Random(seed), one running
    into the next (a batch never comes up short)."""
    rng = random.Random(seed)
    order: list[int] = []
    while True:
        if len(order) < batch:
            more = list(range(size))
            rng.shuffle(more)
            order += more
        picked, order = order[:batch], order[batch:]
        yield picked


class KindLoop:
    """The accelerate step loop of a PRM kind (training.pairwise, training.implicit).

    `seed` seeds torch before the caller builds its model, so every process starts from
    the same weights (and a single process from the weights it always did)."""

    def __init__(
        self,
        *,
        batch_size: int,
        grad_accum: int,
        seed: int,
        device: str | None,
        out: str | Path,
        unit: str,
    ) -> None:
        for name, value in (("batch_size", batch_size), ("grad_accum", grad_accum)):
            if value < 1:
                raise SettingError(f"{name}: at least 1, got {value}")
        self.accelerator = make_accelerator(grad_accum=grad_accum)
        acc = self.accelerator
        if device is not None and acc.num_processes > 1:
            raise SettingError(
                f"device: {acc.num_processes} processes were launched and each one's device "
                f"is set by the launcher; drop --device (got {device!r})"
            )
        self.device = torch.device(device) if device is not None else acc.device
        self.batch_size, self.grad_accum, self.seed = batch_size, grad_accum, seed
        self.world, self.rank = acc.num_processes, acc.process_index
        self.main = acc.is_main_process
        self.out = Path(out)
        self.unit = unit
        torch.manual_seed(seed)

    @classmethod
    def of(cls, config: KindConfig, *, unit: str) -> KindLoop:
        return cls(
            batch_size=config.batch_size,
            grad_accum=config.grad_accum,
            seed=config.seed,
            device=config.device,
            out=config.output_dir,
            unit=unit,
        )

    @property
    def global_batch(self) -> int:
        return self.batch_size * self.grad_accum * self.world

    def steps_for(self, epochs: float, size: int) -> int:
        return max(1, round(epochs * size / self.global_batch))

    def prepare(self, model: Any, optimizer: Any) -> tuple[Any, Any]:
        """The model on this process's device, wrapped for data parallelism with its optimizer."""
        model = model.to(self.device)
        return self.accelerator.prepare(model, optimizer, device_placement=[False, False])

    def evaluate(
        self,
        model: Any,
        items: Sequence[T],
        measure: Callable[[Sequence[T]], tuple[torch.Tensor, torch.Tensor]],
    ) -> dict[str, float]:
        """Mean loss and accuracy over items; `measure(batch)` gives the batch's mean loss and
        its hits."""

        def sums(batch: Sequence[T]) -> torch.Tensor:
            loss, hits = measure(batch)
            values = [float(loss) * len(batch), float(hits), len(batch)]
            return torch.tensor(values, dtype=torch.float64)

        loss, hits, n = sharded_sums(model, items, self.batch_size, self.accelerator, sums).tolist()
        n = max(n, 1)
        return {"loss": loss / n, "accuracy": hits / n, self.unit: len(items)}

    def fit(
        self,
        model: Any,
        optimizer: Any,
        *,
        size: int,
        steps: int,
        loss_of: Callable[[list[int]], torch.Tensor],
        history: list[dict],
    ) -> None:
        """`steps` optimizer steps; `loss_of(indices)` is the mean loss of those training
        items. Each step's loss, averaged over its global batch, goes to `history` and (main
        process) to out/metrics.jsonl."""
        acc = self.accelerator
        if self.main:
            logger.info(
                "training %d %s on %d process(es): %d steps of %d x %d x %d %s",
                size,
                self.unit,
                self.world,
                steps,
                self.batch_size,
                self.grad_accum,
                self.world,
                self.unit,
            )
            self.out.mkdir(parents=True, exist_ok=True)
            (self.out / "metrics.jsonl").unlink(missing_ok=True)
        from training.metrics import MetricsLog

        log = MetricsLog(self.out / "metrics.jsonl", enabled=self.main)
        batches = global_batches(size, self.global_batch, self.seed)
        model.train()
        for step in range(1, steps + 1):
            picked = next(batches)
            sums = torch.zeros(2, dtype=torch.float64)
            for micro in range(self.grad_accum):
                start = (micro * self.world + self.rank) * self.batch_size
                with acc.accumulate(model):
                    loss = loss_of(picked[start : start + self.batch_size])
                    acc.backward(loss)
                    optimizer.step()
                    optimizer.zero_grad()
                sums += torch.tensor([float(loss.detach()), 1.0], dtype=torch.float64)
            total = acc.reduce(sums.to(acc.device), reduction="sum").cpu().tolist()
            record = {"step": step, "loss": total[0] / total[1], self.unit: len(picked)}
            history.append(record)
            log.write(record)

    def save_state(self, model: Any) -> tuple[Any, dict[str, torch.Tensor] | None]:
        """The bare model and its full state dict (gathered from every process: call it on
        all of them; the main process writes)."""
        acc = self.accelerator
        state_dict = acc.get_state_dict(model) if self.world > 1 else None
        return acc.unwrap_model(model), state_dict

    def done(self) -> None:
        self.accelerator.wait_for_everyone()
