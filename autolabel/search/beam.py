r"""PRM-guided step-level beam search.

Each round expands every live beam with ``expansions`` (k) sampled next steps (sampling stops
at the step separator), scores every extended prefix with a process reward model, and keeps
the ``beam_width`` (b) best prefixes by their aggregated step scores (last / min / product).
A kept prefix whose last step states a final answer (``\boxed{}``, "final answer is",
``####``) is finished: it leaves the beam and keeps its slot, so the beam narrows by one per
finished path. The search ends when b paths finished, no beam is live, or after
``max_depth`` steps. The answer is the best-scored finished path (the best live one when none
finished).

Generated tokens are counted for every sampled continuation, kept or not: the tokens of its
text, plus the separator's tokens when the continuation did not end the solution (the model
generated the separator to stop there). Whole solutions (the baselines in ``compare``) are
charged their text's tokens, separators between steps included.

The scorer is anything with ``score_many(items)`` (``training.score.PRMScorer``) or a plain
callable with that signature: ``[(problem, steps), ...] -> [[score per step], ...]``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from autolabel.answers import extract_final_answer
from autolabel.completers.base import Completer, derive_seed
from autolabel.prompts import DEFAULT_SEPARATOR, default_stop, rollout_prompt

Items = Sequence[tuple[str, Sequence[str]]]
ScoreFn = Callable[[Items], list[list[float]]]
TokenCounter = Callable[[str], int]

AGGREGATIONS: dict[str, Callable[[Sequence[float]], float]] = {
    "last": lambda s: s[-1] if s else 0.0,
    "min": lambda s: min(s) if s else 0.0,
    "product": lambda s: math.prod(s) if s else 0.0,
}

_ANSWER_MARK = re.compile(r"\\boxed|\\fbox|final answer|^\s*####", re.IGNORECASE | re.MULTILINE)


class StepScorer(Protocol):
    def score_many(self, items: Items) -> list[list[float]]: ...


def as_score_fn(scorer: StepScorer | ScoreFn) -> ScoreFn:
    """A PRMScorer-like object or a plain callable, as one callable."""
    method = getattr(scorer, "score_many", None)
    if method is not None:
        return method
    if callable(scorer):
        return scorer
    raise TypeError("scorer must have score_many(items) or be callable")


def final_answer(text: str) -> str | None:
    r"""The final answer ``text`` states (``\boxed{}``, "final answer is X", ``#### X``)."""
    if not _ANSWER_MARK.search(text):
        return None
    return extract_final_answer(text)


def token_counter(tokenizer: Any) -> tuple[TokenCounter, str]:
    """Count with ``tokenizer`` (no special tokens); without one, whitespace words (and say so)."""
    if tokenizer is None:
        return (lambda text: len(text.split())), "whitespace-words"

    def count(text: str) -> int:
        return len(tokenizer(text, add_special_tokens=False).input_ids)

    name = getattr(tokenizer, "name_or_path", "") or type(tokenizer).__name__
    return count, f"tokenizer:{name}"


@dataclass(frozen=True)
class SearchConfig:
    beam_width: int = 4  # b: prefixes kept per round
    expansions: int = 4  # k: next steps sampled per kept prefix
    max_depth: int = 12  # steps at most
    aggregate: str = "last"  # how a prefix's step scores rank it: last / min / product
    temperature: float = 0.7
    top_p: float = 1.0
    max_step_tokens: int = 256
    separator: str = DEFAULT_SEPARATOR
    seed: int | None = 0

    def __post_init__(self) -> None:
        if self.beam_width < 1 or self.expansions < 1 or self.max_depth < 1:
            raise ValueError("beam_width, expansions and max_depth must be at least 1")
        if self.aggregate not in AGGREGATIONS:
            raise ValueError(f"aggregate must be one of {sorted(AGGREGATIONS)}")
        if not self.separator:
            raise ValueError("separator must not be empty")


@dataclass
class Beam:
    steps: list[str]
    scores: list[float]
    answer: str | None = None  # set when the last step states a final answer
    value: float = 0.0  # the aggregated score the search ranks by

    @property
    def finished(self) -> bool:
        return self.answer is not None


@dataclass
class SearchResult:
    problem: str
    best: Beam | None
    finished: list[Beam] = field(default_factory=list)
    tokens: int = 0  # generated tokens, every sampled continuation
    samples: int = 0  # continuations sampled
    depth: int = 0  # rounds run

    @property
    def answer(self) -> str | None:
        return self.best.answer if self.best else None

    def as_dict(self) -> dict[str, Any]:
        return {
            "problem": self.problem,
            "answer": self.answer,
            "steps": self.best.steps if self.best else [],
            "step_scores": self.best.scores if self.best else [],
            "score": self.best.value if self.best else None,
            "finished_paths": len(self.finished),
            "tokens": self.tokens,
            "samples": self.samples,
            "depth": self.depth,
        }


def continuation_tokens(text: str, *, ended: bool, separator: str, count: TokenCounter) -> int:
    """What a step continuation cost: its text, plus the separator it stopped at."""
    return count(text) + (0 if ended else count(separator))


def beam_search(
    problem: str,
    completer: Completer,
    scorer: StepScorer | ScoreFn,
    config: SearchConfig = SearchConfig(),
    *,
    count_tokens: TokenCounter | None = None,
) -> SearchResult:
    score_fn = as_score_fn(scorer)
    count = count_tokens or token_counter(getattr(completer, "tokenizer", None))[0]
    aggregate = AGGREGATIONS[config.aggregate]
    tokenizer = getattr(completer, "tokenizer", None)
    stop = [config.separator, *(default_stop(tokenizer) or ())]
    result = SearchResult(problem=problem, best=None)
    beams: list[Beam] = [Beam(steps=[], scores=[])]
    for depth in range(config.max_depth):
        prompts = [
            rollout_prompt(problem, b.steps, tokenizer=tokenizer, separator=config.separator).text
            for b in beams
        ]
        seed = None if config.seed is None else derive_seed(config.seed, problem, str(depth))
        texts = completer.complete(
            prompts,
            n=config.expansions,
            temperature=config.temperature,
            top_p=config.top_p,
            max_tokens=config.max_step_tokens,
            stop=stop,
            seed=seed,
        )
        candidates: list[Beam] = []
        for beam, outs in zip(beams, texts, strict=True):
            seen: set[str] = set()
            for text in outs:
                answer = final_answer(text)
                result.samples += 1
                result.tokens += continuation_tokens(
                    text, ended=answer is not None, separator=config.separator, count=count
                )
                step = text.strip()
                if not step or step in seen:  # an empty step ends nothing; duplicates add nothing
                    continue
                seen.add(step)
                candidates.append(Beam(steps=[*beam.steps, step], scores=[], answer=answer))
        result.depth = depth + 1
        if not candidates:
            break
        scored = score_fn([(problem, c.steps) for c in candidates])
        for c, scores in zip(candidates, scored, strict=True):
            if len(scores) != len(c.steps):
                raise ValueError(f"scorer gave {len(scores)} scores for {len(c.steps)} steps")
            c.scores = [float(s) for s in scores]
            c.value = aggregate(c.scores)
        # Finished paths keep their slots: at most beam_width paths are ever finished.
        # Stable sort: equal scores keep sampling order, so the search is deterministic.
        room = config.beam_width - len(result.finished)
        kept = sorted(candidates, key=lambda c: -c.value)[:room]
        result.finished.extend(c for c in kept if c.finished)
        beams = [c for c in kept if not c.finished]
        if not beams:
            break
    pool = result.finished or beams
    result.best = max(pool, key=lambda c: c.value) if pool else None
    return result
