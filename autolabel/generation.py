"""Sampling candidate solutions for problems that have none (Math-Shepherd sampled 15 each).

Pure apart from the step splitter, which defaults to the project rule in
``labeling.steps.splitting`` (imported on first use; pass ``split`` to run without Django).
The database side is :mod:`autolabel.generation_service`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from autolabel.completers.base import Completer, SamplingParams
from autolabel.prompts import default_stop, solution_prompt
from autolabel.rollouts.grading import extract_final_answer

Splitter = Callable[[str], list[str]]
DEFAULT_N = 15


@dataclass(frozen=True)
class GeneratedSolution:
    text: str
    steps: tuple[str, ...]
    final_answer: str | None


def rule_splitter(rule: str = "line", regex: str = "") -> Splitter:
    from labeling.steps.splitting import split_steps

    return lambda text: split_steps(text, rule, regex)


def normalized(text: str) -> str:
    return " ".join(text.split())


def build_solutions(texts: Sequence[str], *, split: Splitter) -> list[GeneratedSolution]:
    """Split, extract the final answer, drop empty texts and exact (whitespace) duplicates."""
    seen: set[str] = set()
    solutions = []
    for text in texts:
        key = normalized(text)
        if not key or key in seen:
            continue
        seen.add(key)
        steps = tuple(split(text.strip()))
        if not steps:
            continue
        solutions.append(GeneratedSolution(text.strip(), steps, extract_final_answer(text)))
    return solutions


def generate_solutions(
    completer: Completer,
    problems: Sequence[str],
    *,
    n: int = DEFAULT_N,
    temperature: float = 0.7,
    top_p: float = 1.0,
    max_tokens: int = 1024,
    seed: int | None = 0,
    split: Splitter | None = None,
) -> list[list[GeneratedSolution]]:
    """``n`` samples per problem (fewer after dropping duplicates), in the order given."""
    sampling = SamplingParams(
        n=n, temperature=temperature, top_p=top_p, max_tokens=max_tokens, seed=seed
    )
    tokenizer: Any = getattr(completer, "tokenizer", None)
    stop = default_stop(tokenizer)
    texts = completer.complete(
        [solution_prompt(p, tokenizer=tokenizer) for p in problems],
        n=sampling.n,
        temperature=sampling.temperature,
        top_p=sampling.top_p,
        max_tokens=sampling.max_tokens,
        stop=list(stop) if stop else None,
        seed=sampling.seed,
    )
    splitter = split or rule_splitter()
    return [build_solutions(t, split=splitter) for t in texts]
