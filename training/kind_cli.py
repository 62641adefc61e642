"""What the PRM kinds training.pairwise and training.implicit share: their command line and
its before/after report (their config's common fields are training.kinds). Both run under
`accelerate launch` / `torchrun` (training.loop)."""

import argparse
import json
import logging
import sys
from collections.abc import Callable
from typing import Any

from training.data import DataError
from training.kinds import KindResult
from training.loop import SettingError


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
