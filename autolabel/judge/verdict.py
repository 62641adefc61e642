"""Asking a critic model for the earliest error, with optional majority voting."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from autolabel.completers.base import ChatCompleter
from autolabel.deadline import ItemDeadline
from autolabel.engines.base import StepSuggestion

from .parsing import parse_first_error
from .prompt import PROMPT_VERSION, judge_messages

RATIONALE_CHARS = 2000


@dataclass(frozen=True)
class JudgeVerdict:
    first_error: int | None  # -1: no error found; None: no vote could be read
    rationale: str  # a reply that voted for the verdict (truncated)
    replies: tuple[str, ...]
    votes: dict[str, int] = field(default_factory=dict)  # parsed index (or "unknown") -> count


def majority(parsed: Sequence[int | None]) -> int | None:
    """The most voted readable index; a tie goes to the earlier error (the cautious side)."""
    counts = Counter(p for p in parsed if p is not None)
    if not counts:
        return None
    top = max(counts.values())
    tied = [index for index, c in counts.items() if c == top]
    errors = [i for i in tied if i >= 0]
    return min(errors) if errors else -1


def judge_solution(
    critic: ChatCompleter,
    problem: str,
    steps: Sequence[str],
    *,
    votes: int = 1,
    temperature: float = 0.0,
    top_p: float = 1.0,
    max_tokens: int = 1024,
    seed: int | None = 0,
    deadline: ItemDeadline | None = None,
) -> JudgeVerdict:
    """The critic's verdict; ``deadline`` (an item's budget) goes to its chat call."""
    bounded = {} if deadline is None else {"deadline": deadline}
    replies = critic.chat(
        [judge_messages(problem, steps)],
        n=votes,
        temperature=temperature,
        top_p=top_p,
        max_tokens=max_tokens,
        stop=None,
        seed=seed,
        **bounded,
    )[0]
    parsed = [parse_first_error(r, len(steps)) for r in replies]
    winner = majority(parsed)
    rationale = next(
        (r for r, p in zip(replies, parsed, strict=True) if p == winner and p is not None),
        replies[0] if replies else "",
    )
    tally = Counter("unknown" if p is None else str(p) for p in parsed)
    return JudgeVerdict(winner, rationale[:RATIONALE_CHARS], tuple(replies), dict(tally))


def verdict_suggestions(
    verdict: JudgeVerdict, num_steps: int, *, model: str, sampling: dict[str, Any]
) -> list[StepSuggestion]:
    """Steps before the first error +1, the error step -1 with the rationale, later none."""
    if verdict.first_error is None:
        return []
    common = {
        "model": model,
        "sampling": sampling,
        "prompt": PROMPT_VERSION,
        "first_error": verdict.first_error,
        "votes": verdict.votes,
    }
    # The score is the share of all votes that agree with the verdict.
    agree = verdict.votes.get(str(verdict.first_error), 0) / max(sum(verdict.votes.values()), 1)
    end = num_steps if verdict.first_error == -1 else verdict.first_error
    suggestions = [StepSuggestion(i, 1, agree, dict(common)) for i in range(end)]
    if verdict.first_error >= 0:
        evidence = {**common, "rationale": verdict.rationale}
        suggestions.append(StepSuggestion(verdict.first_error, -1, agree, evidence))
    return suggestions
