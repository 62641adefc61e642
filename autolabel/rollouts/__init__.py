"""Rollout labels: Monte-Carlo per step and first-error binary search, over a shared cache.

Pure Python apart from :mod:`.db_cache` (which needs Django); models are reached through
:mod:`autolabel.completers`.
"""

from .binary_search import binary_search, find_first_error
from .cache import CachedRollouts, MemoryRolloutCache, RolloutCache, RolloutKey, prefix_hash
from .grading import grade, grader_version
from .labels import FinalAnswer, StepEstimate, final_answer_of, to_suggestion
from .mc import monte_carlo
from .sampler import RolloutBatch, RolloutSampler

__all__ = [
    "CachedRollouts",
    "FinalAnswer",
    "MemoryRolloutCache",
    "RolloutBatch",
    "RolloutCache",
    "RolloutKey",
    "RolloutSampler",
    "StepEstimate",
    "binary_search",
    "final_answer_of",
    "find_first_error",
    "grade",
    "grader_version",
    "monte_carlo",
    "prefix_hash",
    "to_suggestion",
]
