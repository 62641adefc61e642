"""PRMScorer: per-step probabilities that each step of a solution is correct.

    scorer = PRMScorer("runs/prm")
    scorer.score("What is 2 + 2?", [["2 + 2 = 4.", "So 4."], ["2 + 2 = 5."]])
    # [[0.97, 0.95], [0.12]]

Tokenization is the one the model was trained with (the separator and prompt limit stored in
its config.json) and nothing is truncated at max_length: every step gets a score. Solutions
are sorted by length and batched with padding. A caller's ``deadline`` (any object with a
``check()`` that raises once the time is up: autolabel.deadline.ItemDeadline) is checked before
each forward pass and after the last, so a call stops at the first batch boundary past it.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import torch

from training.data import StepwiseRow, tokenize_rows
from training.model import load_model, load_tokenizer, token_logits, tokenization_of
from training.packing import collate_padded


class PRMScorer:
    def __init__(
        self,
        model_dir: str | Path,
        *,
        device: str | torch.device | None = None,
        dtype: torch.dtype | None = None,
        batch_size: int = 8,
    ) -> None:
        self.model_dir = Path(model_dir)
        self.device = torch.device(device or ("cuda" if torch.cuda.is_available() else "cpu"))
        self.tokenizer = load_tokenizer(self.model_dir)
        self.model = load_model(self.model_dir, dtype=dtype).to(self.device).eval()
        self.settings = tokenization_of(self.model)
        self.batch_size = batch_size

    def score(
        self, problem: str, steps_list: Sequence[Sequence[str]], batch_size: int | None = None
    ) -> list[list[float]]:
        """One list of step scores per solution of `problem`."""
        return self.score_many([(problem, steps) for steps in steps_list], batch_size)

    def score_many(
        self,
        items: Sequence[tuple[str, Sequence[str]]],
        batch_size: int | None = None,
        deadline: Any = None,
    ) -> list[list[float]]:
        """Scores for (problem, steps) pairs, in their order; a solution with no steps gets []."""
        batch_size = batch_size or self.batch_size
        results: list[list[float]] = [[] for _ in items]
        todo = [i for i, (_, steps) in enumerate(items) if steps]
        rows = [
            StepwiseRow(
                prompt=items[i][0], completions=list(items[i][1]), labels=[True] * len(items[i][1])
            )
            for i in todo
        ]
        examples, _ = tokenize_rows(rows, self.tokenizer, self.settings, log=False)
        order = sorted(range(len(examples)), key=lambda k: len(examples[k]))
        with torch.no_grad():
            for start in range(0, len(order), batch_size):
                if deadline is not None:
                    deadline.check()
                chunk = order[start : start + batch_size]
                batch = collate_padded([examples[k] for k in chunk], self.tokenizer.pad_token_id)
                batch = {k: v.to(self.device) for k, v in batch.items()}
                probs = token_logits(self.model, batch).softmax(-1)[..., 1].cpu()
                for row, k in enumerate(chunk):
                    positions = examples[k].step_positions
                    results[todo[k]] = probs[row, positions].tolist()
        if deadline is not None:
            deadline.check()  # the last pass ended past it
        return results
