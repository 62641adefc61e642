"""What every PRM kind trained by training.loop shares: its config's common fields and the
result its training returns. Below training.loop and training.kind_cli, which both use them."""

from dataclasses import dataclass, field
from pathlib import Path

from training.data import Tokenization


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
