"""The command line the single-device PRM kinds share (training.pairwise, training.implicit)."""

import argparse
import json
import logging
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from training.data import DataError


@dataclass
class KindResult:
    """What a single-device PRM kind's training returns (and its CLI reports)."""

    out_dir: Path
    steps: int
    before: dict[str, float]
    after: dict[str, float]
    eval: dict[str, float] | None


def add_common_arguments(p: argparse.ArgumentParser) -> None:
    """Tokenization, split and device options, after each kind's own."""
    p.add_argument("--step-separator", default="\n")
    p.add_argument("--max-length", type=int, default=1024)
    p.add_argument("--max-prompt-length", type=int, default=512)
    p.add_argument("--eval-split", default="validation")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--device")


def run(
    parser: argparse.ArgumentParser,
    make_config: Callable[..., Any],
    train: Callable[[Any], KindResult],
    argv: list[str] | None,
) -> int:
    """Parse, train, print the before/after report as JSON; exit 2 on bad data."""
    args = vars(parser.parse_args(argv))
    args["step_separator"] = args["step_separator"].encode().decode("unicode_escape")
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    try:
        result = train(make_config(**args))
    except DataError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    report = {"out": str(result.out_dir), "steps": result.steps, "train_before": result.before}
    report |= {"train": result.after, "eval": result.eval}
    print(json.dumps(report, indent=2))
    return 0
