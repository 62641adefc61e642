"""Train / validation / test by a hash of the problem: a problem is in exactly one split.

The key is the problem's external id (a dataset id or a hash of its normalized text, the
same in every database), hashed with the policy's seed to a fraction u in [0, 1) (the first
64 bits of the sha256).

Large exports: u falls into [0, train), [train, train + validation) or the rest, so a
problem's split depends on its key and the seed only (`split_of`).

Small projects (at most SMALL problems, `split_plan`): fractions of a hash leave a split
empty by chance (ten problems at 0.9 / 0.05 / 0.05 are all in train a third of the time).
Instead all the project's problems, ordered by u, get exact counts: the fractions times the
number of problems, rounded by largest remainder, and at least one problem for every non-zero
fraction when there are at least as many problems as such fractions (taken from the largest
split). The plan covers the project's problems whatever the export's filters, so two exports
of the project with the same seed agree on every problem's split (a filtered export leaks no
test problem into another's train); it changes when problems are added to the project.

Near-duplicate clusters: a problem's split is decided by its near-duplicate cluster's name
(Problem.near_cluster, kept at import: labeling/services/imports/near_keys.py) instead of its
own key when it has one, so a reworded copy of a problem lands in the same split as the
original and no near-duplicate crosses train and test, whatever the project's size.
"""

import hashlib
import math
from collections.abc import Iterable

from .options import SPLITS, SplitMode, SplitPolicy

# Up to this many problems an export plans its split with exact counts (split_plan).
SMALL = 2000


def _u(problem_key: str, policy: SplitPolicy) -> float:
    digest = hashlib.sha256(f"{policy.seed}\x00{problem_key}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def split_of(
    problem_key: str, policy: SplitPolicy, plan: dict[str, str] | None = None
) -> str | None:
    if policy.mode == SplitMode.NONE:
        return None
    if plan is not None and problem_key in plan:
        return plan[problem_key]
    u = _u(problem_key, policy)
    if u < policy.train:
        return "train"
    if u < policy.train + policy.validation or policy.test == 0:
        return "validation" if policy.validation > 0 else "train"
    return "test"


def split_counts(n: int, policy: SplitPolicy) -> dict[str, int]:
    """How many of `n` problems each split gets (largest remainder; every non-zero fraction
    at least one when n allows)."""
    fractions = {name: getattr(policy, name) for name in SPLITS}
    exact = {name: f * n for name, f in fractions.items()}
    counts = {name: math.floor(x) for name, x in exact.items()}
    order = SPLITS.index
    by_remainder = sorted(SPLITS, key=lambda name: (counts[name] - exact[name], order(name)))
    for name in by_remainder[: n - sum(counts.values())]:
        counts[name] += 1
    wanted = [name for name in SPLITS if fractions[name] > 0]
    if n >= len(wanted):
        for name in wanted:
            if counts[name] == 0:
                donor = max(wanted, key=lambda other: counts[other])
                counts[donor] -= 1
                counts[name] += 1
    return counts


def split_plan(problem_keys: Iterable[str], policy: SplitPolicy) -> dict[str, str] | None:
    """Problem key → split for a small project's problems; None for no split or more than
    SMALL keys."""
    if policy.mode == SplitMode.NONE:
        return None
    keys = sorted(set(problem_keys), key=lambda key: (_u(key, policy), key))
    if len(keys) > SMALL:
        return None
    counts = split_counts(len(keys), policy)
    plan, start = {}, 0
    for name in SPLITS:
        for key in keys[start : start + counts[name]]:
            plan[key] = name
        start += counts[name]
    return plan
