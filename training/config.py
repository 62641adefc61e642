"""TrainConfig: every setting of a PRM training run, from a YAML/JSON file and CLI overrides.

    python -m training.train --config cfg.yaml --lr 5e-6 --max-steps 100

A field's CLI flag is its name with dashes (`--max-length`); lists take several values
(`--data a.jsonl b.jsonl`); booleans take `--packing` / `--no-packing`. Values from the command
line override the file's.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import types
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

HEADS = ("linear", "mlp2")


@dataclass
class TrainConfig:
    # Data: TRL stepwise exports (JSONL, .jsonl.gz or Parquet).
    data: list[str] = field(default_factory=list)
    eval_data: list[str] = field(default_factory=list)
    # Rows of `data` whose `split` column equals this are held out for evaluation (steplab's
    # hash split writes train / validation / test; rows of other splits are not trained on).
    eval_split: str = "validation"
    # Without a split column or eval_data: this fraction of problems (by a hash of the prompt).
    eval_fraction: float = 0.0
    label_column: Literal["labels", "soft_labels"] = "labels"
    # Only rows whose `domain` is one of these (a many-domains export; [] = every row): a
    # math-only PRM trains on the same export as the multi-domain one (training.domains).
    domains: list[str] = field(default_factory=list)

    # Model: a causal LM (or PRM) checkpoint directory; the PRM goes to `out`.
    model: str = ""
    out: str = ""
    head: Literal["linear", "mlp2"] = "linear"

    # Tokenization as TRL's PRMTrainer: prompt, then each step + separator, label on its last token.
    step_separator: str = "\n"
    max_length: int = 1024
    max_prompt_length: int | None = 512
    # Step dependencies (a `uses` column): "prefix" shows them to the model as "[uses 1,3] "
    # before each step's text (training/graph.py); "none" trains on the text alone.
    dependencies: Literal["none", "prefix"] = "none"

    # Optimisation.
    lr: float = 1e-5
    weight_decay: float = 0.0
    warmup_ratio: float = 0.0
    lr_scheduler: str = "linear"
    max_grad_norm: float = 1.0
    epochs: float = 1.0
    max_steps: int = -1  # optimizer steps; > 0 overrides epochs
    batch_size: int = 8  # examples per device per micro-batch
    grad_accum: int = 1
    packing: bool = False  # padding-free: a micro-batch is one row, position ids restart
    group_by_length: bool = False  # batches of similar lengths (less padding when not packing)
    bf16: bool = False
    gradient_checkpointing: bool = False
    attn_implementation: str | None = None  # e.g. "flash_attention_2", "sdpa"

    # LoRA through peft (optional dependency); the saved model is merged.
    lora: bool = False
    lora_r: int = 16
    lora_alpha: int = 32
    lora_dropout: float = 0.05

    seed: int = 42
    log_every: int = 10
    eval_every: int = 0  # 0: evaluate at the end only
    save_every: int = 0  # 0: no intermediate checkpoints
    keep_checkpoints: int = 2
    resume_from: str | None = None  # a checkpoint dir, or "latest" (in `out`)
    progress: bool = True

    def __post_init__(self) -> None:
        if isinstance(self.data, str):
            self.data = [self.data]
        if isinstance(self.eval_data, str):
            self.eval_data = [self.eval_data]

    def validate(self) -> TrainConfig:
        problems = []
        if not self.data:
            problems.append("data: at least one exported file is required")
        if not self.model:
            problems.append("model: a checkpoint directory is required")
        if not self.out:
            problems.append("out: an output directory is required")
        if self.head not in HEADS:
            problems.append(f"head: {self.head!r} is not one of {', '.join(HEADS)}")
        if self.label_column not in ("labels", "soft_labels"):
            problems.append("label_column: 'labels' or 'soft_labels'")
        if self.max_length < 2:
            problems.append("max_length: at least 2")
        if self.dependencies not in ("none", "prefix"):
            problems.append("dependencies: 'none' or 'prefix'")
        if self.batch_size < 1 or self.grad_accum < 1:
            problems.append("batch_size and grad_accum: at least 1")
        if not 0.0 <= self.eval_fraction < 1.0:
            problems.append("eval_fraction: in [0, 1)")
        if self.max_steps <= 0 and self.epochs <= 0:
            problems.append("epochs or max_steps: one must be positive")
        if problems:
            raise ValueError("invalid training config: " + "; ".join(problems))
        return self

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, values: dict[str, Any], *, source: str = "config") -> TrainConfig:
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(values) - names)
        if unknown:
            raise ValueError(f"{source}: unknown setting(s) {', '.join(unknown)}")
        return cls(**values)

    @classmethod
    def from_file(cls, path: str | Path) -> TrainConfig:
        path = Path(path)
        text = path.read_text(encoding="utf-8")
        if path.suffix in (".yaml", ".yml"):
            import yaml

            values = yaml.safe_load(text) or {}
        else:
            values = json.loads(text)
        if not isinstance(values, dict):
            raise ValueError(f"{path}: expected a mapping of settings")
        return cls.from_dict(values, source=str(path))

    @classmethod
    def from_args(cls, argv: list[str] | None = None) -> TrainConfig:
        parser = build_parser()
        args = parser.parse_args(argv)
        values: dict[str, Any] = {}
        if args.config:
            values = cls.from_file(args.config).to_dict()
        for f in dataclasses.fields(cls):
            given = getattr(args, f.name)
            if given is not None:
                values[f.name] = given
        return cls.from_dict(values).validate()


def _cli_type(annotation: Any) -> tuple[Any, bool]:
    """(element type, is_list) of a field annotation such as `int | None` or `list[str]`."""
    hint = annotation
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        hint = next(a for a in typing.get_args(hint) if a is not type(None))
    if typing.get_origin(hint) is list:
        return typing.get_args(hint)[0], True
    if typing.get_origin(hint) is Literal:
        return str, False
    return hint, False


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m training.train",
        description="Train a process reward model on a TRL stepwise export.",
    )
    parser.add_argument("--config", help="YAML or JSON file of settings; flags override it")
    hints = typing.get_type_hints(TrainConfig)
    for f in dataclasses.fields(TrainConfig):
        flag = "--" + f.name.replace("_", "-")
        kind, is_list = _cli_type(hints[f.name])
        if kind is bool:
            parser.add_argument(flag, dest=f.name, action=argparse.BooleanOptionalAction)
        elif is_list:
            parser.add_argument(flag, dest=f.name, nargs="+", type=kind)
        else:
            convert = _unescape if f.name == "step_separator" else kind
            parser.add_argument(flag, dest=f.name, type=convert)
    return parser


def _unescape(value: str) -> str:
    """`--step-separator '\\n\\n'` from a shell means two newlines."""
    for escaped, char in (("\\n", "\n"), ("\\t", "\t"), ("\\r", "\r")):
        value = value.replace(escaped, char)
    return value
