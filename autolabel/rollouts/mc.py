"""Per-step Monte-Carlo estimation (Math-Shepherd, Wang et al. 2024).

For each prefix ending at step i, N continuations are sampled and graded: the hard label is
+1 if any reaches the gold answer and -1 otherwise; the soft label (the score) is the
fraction that do. The last step is labeled by the solution's own final answer when it has
one that the check can decide.
"""

from __future__ import annotations

from collections.abc import Sequence

from .labels import FinalAnswer, PromptFor, StepEstimate, final_estimate
from .sampler import RolloutSampler


def monte_carlo(
    steps: Sequence[str],
    *,
    sampler: RolloutSampler,
    prompt_for: PromptFor,
    final: FinalAnswer,
) -> list[StepEstimate]:
    count = len(steps)
    if count == 0:
        return []
    last_known = final.correct is not None
    rolled = range(count - 1) if last_known else range(count)
    batches = sampler.run([prompt_for(steps[: i + 1]) for i in rolled])
    estimates = [StepEstimate.from_batch(i, b, "mc") for i, b in zip(rolled, batches, strict=True)]
    if last_known:
        estimates.append(final_estimate(count - 1, final))
    return estimates
