"""Beam search against best-of-N and majority vote at equal generated tokens.

For each problem the beam search runs first and its generated tokens become the budget. The
baselines then draw whole solutions from the same policy, one after another, until their
tokens reach that budget (the last draw may pass it, never by more than one solution, so the
baselines get at least the beam's tokens). From that one pool of N solutions:

* best-of-N: the solution the PRM ranks first (its steps scored as one prefix, aggregated as
  the search aggregates);
* majority vote: the most frequent final answer (ties: the one seen first);
* pass@N: any solution correct (an upper bound, not a method).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from autolabel.answers import extract_final_answer, normalize_answer
from autolabel.completers.base import Completer, derive_seed
from autolabel.prompts import default_stop, rollout_prompt

from .beam import (
    AGGREGATIONS,
    ScoreFn,
    SearchConfig,
    StepScorer,
    TokenCounter,
    as_score_fn,
    beam_search,
)

Grader = Callable[[str | None, str], bool]


@dataclass(frozen=True)
class SearchProblem:
    id: str
    problem: str
    gold: str


@dataclass
class Sample:
    text: str
    steps: list[str]
    answer: str | None
    tokens: int
    value: float = 0.0


def default_grade(answer: str | None, gold: str) -> bool:
    """math-verify equivalence under a hard time limit; undecidable counts as wrong."""
    from autolabel.rollouts.grading import answers_match

    return answer is not None and answers_match(answer, gold) is True


def split_steps(text: str, separator: str) -> list[str]:
    return [s.strip() for s in text.split(separator) if s.strip()]


def sample_to_budget(
    problem: str,
    completer: Completer,
    budget: int,
    config: SearchConfig,
    *,
    count: TokenCounter,
    chunk: int = 4,
) -> list[Sample]:
    """Whole solutions, drawn in order until their tokens reach ``budget``."""
    tokenizer = getattr(completer, "tokenizer", None)
    prompt = rollout_prompt(problem, [], tokenizer=tokenizer, separator=config.separator).text
    stop = list(default_stop(tokenizer) or ()) or None
    cap = config.beam_width * config.expansions * config.max_depth  # the search's most samples
    samples: list[Sample] = []
    used = 0
    draw = 0
    while used < budget and len(samples) < cap:
        seed = None if config.seed is None else derive_seed(config.seed, problem, "bon", str(draw))
        texts = completer.complete(
            [prompt],
            n=chunk,
            temperature=config.temperature,
            top_p=config.top_p,
            max_tokens=config.max_step_tokens * config.max_depth,
            stop=stop,
            seed=seed,
        )[0]
        for text in texts:
            if used >= budget or len(samples) >= cap:
                break
            tokens = count(text)
            used += tokens
            steps = split_steps(text, config.separator)
            samples.append(Sample(text, steps, extract_final_answer(text), tokens))
        draw += 1
    return samples


def majority_answer(samples: Sequence[Sample]) -> str | None:
    keys = [normalize_answer(s.answer) if s.answer else None for s in samples]
    counts = Counter(k for k in keys if k)
    if not counts:
        return None
    top = max(counts.values())
    return next(s.answer for s, k in zip(samples, keys, strict=True) if k and counts[k] == top)


def compare_problem(
    item: SearchProblem,
    completer: Completer,
    scorer: StepScorer | ScoreFn,
    config: SearchConfig,
    *,
    count: TokenCounter,
    grade: Grader,
) -> dict[str, Any]:
    score_fn = as_score_fn(scorer)
    search = beam_search(item.problem, completer, score_fn, config, count_tokens=count)
    pool = sample_to_budget(item.problem, completer, search.tokens, config, count=count)
    scored = score_fn([(item.problem, s.steps) for s in pool]) if pool else []
    for sample, scores in zip(pool, scored, strict=True):
        sample.value = AGGREGATIONS[config.aggregate](scores)
    best = max(pool, key=lambda s: s.value) if pool else None  # first of equals
    graded: dict[str | None, bool] = {}

    def correct(answer: str | None) -> bool:
        if answer not in graded:
            graded[answer] = grade(answer, item.gold)
        return graded[answer]

    voted = majority_answer(pool)
    return {
        "id": item.id,
        "gold": item.gold,
        "beam": {**search.as_dict(), "correct": correct(search.answer)},
        "best_of_n": {
            "answer": best.answer if best else None,
            "score": best.value if best else None,
            "correct": correct(best.answer) if best else False,
        },
        "majority": {"answer": voted, "correct": correct(voted)},
        "pass@n": any(correct(s.answer) for s in pool),
        "n": len(pool),
        "baseline_tokens": sum(s.tokens for s in pool),
    }


def summarize(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    total = len(rows)

    def accuracy(key: str) -> float:
        hits = sum(bool(r[key] if key == "pass@n" else r[key]["correct"]) for r in rows)
        return hits / total if total else float("nan")

    acc = {k: accuracy(k) for k in ("beam", "best_of_n", "majority", "pass@n")}
    beam_tokens = sum(r["beam"]["tokens"] for r in rows)
    base_tokens = sum(r["baseline_tokens"] for r in rows)
    return {
        "problems": total,
        "accuracy": acc,
        "tokens": {"beam": beam_tokens, "baseline": base_tokens},
        "mean_n": sum(r["n"] for r in rows) / total if total else 0.0,
        "ratio": {
            "beam/best_of_n": acc["beam"] / acc["best_of_n"] if acc["best_of_n"] else None,
            "beam/majority": acc["beam"] / acc["majority"] if acc["majority"] else None,
        },
    }


def compare(
    problems: Sequence[SearchProblem],
    completer: Completer,
    scorer: StepScorer | ScoreFn,
    config: SearchConfig | None = None,
    *,
    count_tokens: TokenCounter,
    grade: Grader = default_grade,
    token_counter: str = "",
) -> dict[str, Any]:
    """The report: summary, config and one row per problem."""
    config = config or SearchConfig()
    rows = [
        compare_problem(p, completer, scorer, config, count=count_tokens, grade=grade)
        for p in problems
    ]
    return {
        **summarize(rows),
        "config": asdict(config),
        "token_counter": token_counter,
        "rows": rows,
    }
