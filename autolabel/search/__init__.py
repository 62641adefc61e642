"""PRM-guided step-level beam search, and its comparison with best-of-N and majority vote at
equal generated tokens. Pure: no Django; ``python -m autolabel.search`` runs it."""

from .beam import AGGREGATIONS, Beam, SearchConfig, SearchResult, beam_search, final_answer
from .compare import SearchProblem, compare, sample_to_budget

__all__ = [
    "AGGREGATIONS",
    "Beam",
    "SearchConfig",
    "SearchProblem",
    "SearchResult",
    "beam_search",
    "compare",
    "final_answer",
    "sample_to_budget",
]
