r"""A deterministic stand-in for a model, for tests and benchmarks.

``success(prompt)`` gives the probability that a continuation of ``prompt`` reaches the gold
answer; each continuation then ends in ``\boxed{gold}`` with that probability (drawn from a
seed derived from the call's seed, the prompt and the choice index) and in a wrong answer
otherwise. It counts what it was asked for, so tests can see cache hits.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Sequence
from typing import Any

from .base import Sampling, SamplingCompleter, derive_seed, short_hash, truncate_at_stop

DEFAULT_WRONG = "-7919"


def rule_success(rules: Sequence[Sequence[Any]], default: float) -> Callable[[str], float]:
    """P(success) from ``[[substring, p], ...]``: the first substring found in the prompt."""
    checked = [(str(sub), float(p)) for sub, p in rules]

    def success(prompt: str) -> float:
        for sub, p in checked:
            if sub in prompt:
                return p
        return default

    return success


class ScriptedCompleter(SamplingCompleter):
    def __init__(
        self,
        success: Callable[[str], float],
        gold: str,
        *,
        wrong: str | None = None,
        name: str = "scripted",
    ) -> None:
        self.success = success
        self.gold = gold
        self.wrong = wrong or (DEFAULT_WRONG if gold.strip() != DEFAULT_WRONG else "7919")
        self.id = f"scripted:{name}"
        self.tokenizer = None
        self.calls = 0
        self.samples = 0  # continuations produced, over all calls
        self.prompts_seen: list[str] = []
        self._lock = threading.Lock()

    @classmethod
    def from_config(cls, config: dict[str, Any], *, gold: str) -> ScriptedCompleter:
        """``{"kind": "scripted", "rules": [[substring, p], ...], "default": p, "gold": ...}``."""
        success = rule_success(config.get("rules") or [], float(config.get("default", 1.0)))
        name = config.get("name") or short_hash(repr(sorted(config.items())), length=8)
        return cls(success, config.get("gold") or gold, wrong=config.get("wrong"), name=name)

    def _text(self, prompt: str, rng: random.Random) -> str:
        p = min(max(self.success(prompt), 0.0), 1.0)
        if rng.random() < p:
            return f"We finish the computation.\nThe final answer is $\\boxed{{{self.gold}}}$."
        return f"We finish the computation.\nThe final answer is $\\boxed{{{self.wrong}}}$."

    def _complete(self, prompts: list[str], sampling: Sampling) -> list[list[str]]:
        n, seed = sampling.n, sampling.seed
        if sampling.deadline is not None:
            sampling.deadline.check()
        with self._lock:
            self.calls += 1
            self.samples += n * len(prompts)
            self.prompts_seen.extend(prompts)
        out = []
        for prompt in prompts:
            texts = []
            for j in range(n):
                rng = random.Random(derive_seed(seed, prompt, str(j)) if seed is not None else None)
                texts.append(truncate_at_stop(self._text(prompt, rng), sampling.stop))
            out.append(texts)
        return out
