"""The judge source's critic as a ProcessBench first-error predictor (a generative PRM).

    python -m autolabel.judge.processbench FILE --base-url URL --model NAME [--votes 1]
        [--temperature 0] [--max-tokens 1024] [--workers 4] [--save-predictions OUT.jsonl]
        [--out metrics.json]

Each row of a ProcessBench-format file ({id, problem, steps, label}) goes to the critic with
the judge source's prompt (the ProcessBench critique template, majority over `--votes`
samples); its reply's earliest-error index is the prediction (-1: no error). The metric is
training.evaluate's: accuracy on erroneous rows (prediction == label), on correct rows
(prediction == -1), and their harmonic mean, per id subset too. A reply that cannot be read
counts as wrong on either kind of row and is counted under `unparsed`. The critic is any
OpenAI-compatible chat server (vLLM, `transformers serve`, an API), or a completer config
(`critic_judge(backend=...)` from Python, e.g. a local transformers model).

training.generative holds the evaluation and the command line's arguments; it imports no
autolabel, so this module hands it the critic as a callable (`critic_judge`). No Django.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

from autolabel.completers import completer_from_config
from autolabel.judge.verdict import judge_solution
from training import generative
from training.generative import FirstErrorJudge, JudgeSettings


def openai_backend(base_url: str, model: str, *, timeout_s: float | None = None) -> dict:
    backend: dict[str, Any] = {"kind": "openai", "base_url": base_url, "model": model}
    if timeout_s is not None:
        backend["timeout_s"] = timeout_s
    return backend


def critic_judge(
    backend: dict[str, Any],
    *,
    votes: int = 1,
    temperature: float | None = None,
    max_tokens: int = 1024,
    seed: int | None = 0,
) -> FirstErrorJudge:
    """(problem, steps) -> the critic's earliest-error index (None: no vote could be read).
    The temperature defaults to 0 for one vote and 0.7 for a majority of several."""
    critic = completer_from_config(backend)
    temp = temperature if temperature is not None else (0.7 if votes > 1 else 0.0)

    def judge(problem: str, steps: Sequence[str]) -> int | None:
        verdict = judge_solution(
            critic,
            problem,
            list(steps),
            votes=votes,
            temperature=temp,
            max_tokens=max_tokens,
            seed=seed,
        )
        return verdict.first_error

    return judge


def judge_from_settings(settings: JudgeSettings) -> FirstErrorJudge:
    """The JudgeFactory training.generative and training.compare take: an OpenAI-compatible
    server at `base_url` serving `model`."""
    return critic_judge(
        openai_backend(settings.base_url, settings.model),
        votes=settings.votes,
        temperature=settings.temperature,
        max_tokens=settings.max_tokens,
        seed=settings.seed,
    )


def main(argv: list[str] | None = None) -> int:
    return generative.main(argv, make_judge=judge_from_settings, description=__doc__)


if __name__ == "__main__":
    sys.exit(main())
