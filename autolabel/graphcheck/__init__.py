"""Claims about a given graph in a step's prose, decided exactly with networkx (domain `graph`).

    pg = build(problem_metadata)              # None when the problem carries no graph
    verdict = check_step(text, pg)            # StepVerdict: refuted / verified / unknown

claims.py finds the claims (distances, path lengths, edge weights, reachability, cycles,
topological orders, traversals, matchings, degrees, ...), verify.py decides each on the graph
(graph.py: exact Fraction weights), and a step is refuted when one claim fails, verified when
at least one holds and none fails, unknown when it makes no claim this checker reads.
No Django.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .claims import Claim, find_claims
from .graph import ProblemGraph, build
from .verify import ClaimResult, check_claim

CHECKER_VERSION = "graph-1.0"
VERIFIED, REFUTED, UNKNOWN = "verified", "refuted", "unknown"
MAX_EVIDENCE_CLAIMS = 40


@dataclass
class StepVerdict:
    verdict: str
    claims: list[ClaimResult] = field(default_factory=list)

    @property
    def failed(self) -> list[ClaimResult]:
        return [c for c in self.claims if c.holds is False]

    def as_evidence(self) -> dict[str, Any]:
        """JSON-serializable, for Suggestion.evidence (the symbolic checker's shape)."""
        return {
            "checker": "graph",
            "checker_version": CHECKER_VERSION,
            "verdict": self.verdict,
            "checked": len(self.claims),
            "claims": [c.as_dict() for c in self.claims[:MAX_EVIDENCE_CLAIMS]],
            "claims_total": len(self.claims),
            "failed": [c.as_dict() for c in self.failed],
        }


def check_step(text: str, pg: ProblemGraph) -> StepVerdict:
    results = [
        r for claim in find_claims(text, pg.nodes) if (r := check_claim(pg, claim)) is not None
    ]
    if any(r.holds is False for r in results):
        return StepVerdict(REFUTED, results)
    if results:
        return StepVerdict(VERIFIED, results)
    return StepVerdict(UNKNOWN, [])


__all__ = [
    "CHECKER_VERSION",
    "Claim",
    "ClaimResult",
    "ProblemGraph",
    "StepVerdict",
    "build",
    "check_step",
    "find_claims",
]
