"""What the PRM kinds training.pairwise and training.implicit share: their config's common
fields, their command line and its before/after report. Both run under `accelerate launch` /
`torchrun` (training.loop)."""

import argparse
import json
import logging
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from training.data import DataError, Tokenization
from training.loop import SettingError


@dataclass
class KindResult:
    """What a PRM kind's training returns (and its CLI reports)."""

    out_dir: Path
    steps: int
    before: dict[str, float]
    after: dict[str, float]
    eval: dict[str, float] | None


@dataclass
class KindConfig:
    """The settings every kind has; a kind's config adds its own (and its own defaults)."""

    model: str
    data: list[str]
    output_dir: str
    learning_rate: float = 1e-4
    num_epochs: float = 1.0
    batch_size: int = 8  # items per process per micro-batch
    grad_accum: int = 1  # micro-batches per optimizer step
    step_separator: str = "\n"
    max_length: int | None = 1024
    max_prompt_length: int | None = 512
    eval_split: str = "validation"
    seed: int = 0
    device: str | None = None  # one process only; a launcher places each of several
    history: list[dict] = field(default_factory=list, repr=False)

    def tokenization(self) -> Tokenization:
        return Tokenization(self.step_separator, self.max_length, self.max_prompt_length)


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"at least 1, got {value}")
    return value


def kind_parser(
    prog: str,
    description: str | None,
    *,
    data: str,
    model: str,
    learning_rate: float,
    batch_size: int,
    unit: str,
) -> argparse.ArgumentParser:
    """The options of KindConfig; each kind adds its own after them."""
    p = argparse.ArgumentParser(
        prog=prog, description=description, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--data", nargs="+", required=True, help=data)
    p.add_argument("--model", required=True, help=model)
    p.add_argument("--out", required=True, dest="output_dir")
    p.add_argument("--learning-rate", type=float, default=learning_rate)
    p.add_argument("--num-epochs", type=float, default=1.0)
    p.add_argument(
        "--batch-size",
        type=_positive,
        default=batch_size,
        help=f"{unit} per process per micro-batch; a step takes batch-size x grad-accum x "
        "processes",
    )
    p.add_argument("--grad-accum", type=_positive, default=1, help="micro-batches per step")
    p.add_argument("--step-separator", default="\n")
    p.add_argument("--max-length", type=int, default=1024)
    p.add_argument("--max-prompt-length", type=int, default=512)
    p.add_argument("--eval-split", default="validation")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--device", help="one process only (a launcher places each of several)")
    return p


def run(
    parser: argparse.ArgumentParser,
    make_config: Callable[..., Any],
    train: Callable[[Any], KindResult],
    argv: list[str] | None,
) -> int:
    """Parse, train, print the before/after report as JSON (main process); exit 2 on bad
    data or settings."""
    args = vars(parser.parse_args(argv))
    args["step_separator"] = args["step_separator"].encode().decode("unicode_escape")
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    try:
        result = train(make_config(**args))
    except (DataError, SettingError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    from accelerate import PartialState

    if PartialState().is_main_process:
        report = {"out": str(result.out_dir), "steps": result.steps}
        report |= {"train_before": result.before, "train": result.after, "eval": result.eval}
        print(json.dumps(report, indent=2))
    return 0
