"""First-error binary search (OmegaPRM, Luo et al. 2024).

A prefix is *bad* when none of its k rollouts reaches the gold answer. Assuming that once a
prefix is bad every longer one is too, the first bad step is found by binary search in
about k * ceil(log2 M) rollouts instead of k * M: go right when a probe succeeds, left when
it does not. Steps before it get +1 (with their counts where probed), the first bad step
-1, later steps no label. A final answer that the check decides stands in for probing the
last step.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from .labels import FinalAnswer, PromptFor, StepEstimate, final_estimate
from .sampler import RolloutBatch, RolloutSampler


def find_first_error(
    count: int, is_bad: Callable[[int], bool], *, last_good: bool | None = None
) -> int | None:
    """The first index in 0..count-1 with ``is_bad``, or None; probes ceil(log2(M+1)) times
    at most, ceil(log2 M) when ``last_good`` already says whether the last index is good."""
    lo = 0
    hi = count - 1 if last_good is not None and count > 0 else count
    while lo < hi:
        mid = (lo + hi) // 2
        if is_bad(mid):
            hi = mid
        else:
            lo = mid + 1
    if lo == count or (lo == count - 1 and last_good is True):
        return None
    return lo


def binary_search(
    steps: Sequence[str],
    *,
    sampler: RolloutSampler,
    prompt_for: PromptFor,
    final: FinalAnswer,
) -> list[StepEstimate]:
    count = len(steps)
    probes: dict[int, RolloutBatch] = {}

    def is_bad(i: int) -> bool:
        probes[i] = sampler.run([prompt_for(steps[: i + 1])])[0]
        return probes[i].n_correct == 0

    first = find_first_error(count, is_bad, last_good=final.correct)
    search = [
        {"step": i, "correct": b.n_correct, "total": b.total} for i, b in sorted(probes.items())
    ]
    end = count if first is None else first
    estimates: list[StepEstimate] = []
    for i in range(end):
        if i in probes:
            estimates.append(StepEstimate.from_batch(i, probes[i], "binary_search"))
        elif i == count - 1 and final.correct is not None:
            estimates.append(final_estimate(i, final))
        else:
            estimates.append(StepEstimate(i, 1, "binary_search", inferred=True))
    if first is not None:
        if first in probes:
            error = StepEstimate.from_batch(first, probes[first], "binary_search")
        else:
            error = final_estimate(first, final)
        estimates.append(replace(error, extra={**error.extra, "search": search}))
    return estimates
