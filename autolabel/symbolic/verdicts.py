"""Results of a step check: one ClaimResult per claimed equality, one StepVerdict per step."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

CHECKER_VERSION = "symbolic-1.18"

VERIFIED = "verified"
REFUTED = "refuted"
UNKNOWN = "unknown"

# Undecided claims that were real computations we could not finish: they keep a step from
# being "verified" (a definition or an equation to solve does not).
BLOCKING_REASONS = ("time limit", "too large", "could not decide", "not a real number")

MAX_EVIDENCE_CLAIMS = 40


@dataclass
class ClaimResult:
    text: str  # the claim as found in the step
    # arithmetic | algebraic | gsm8k_calc | percentage | chain | verbal | unit_conversion |
    # base_conversion | inequality | primality | divisibility | factorization | divisors |
    # simplification | ratio | count | substitution | rewriting | solving |
    # gcd_lcm | function_value (symbolic-1.9) | rearranging (symbolic-1.13) | slip (a false
    # link inside a chain whose result stands); floor_ceiling until symbolic-1.6 (floors are
    # read by the parser since 1.7: brackets.py)
    kind: str
    lhs: str
    rhs: str
    lhs_value: str
    rhs_value: str
    holds: bool | None
    reason: str
    source: str = ""  # math | prose | annotation

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class StepVerdict:
    verdict: str
    claims: list[ClaimResult] = field(default_factory=list)
    failed: list[ClaimResult] = field(default_factory=list)
    checker_version: str = CHECKER_VERSION
    note: str = ""

    def as_evidence(self) -> dict[str, Any]:
        """JSON-serializable, for Suggestion.evidence."""
        claims = self.claims[:MAX_EVIDENCE_CLAIMS]
        return {
            "checker": "symbolic",
            "checker_version": self.checker_version,
            "verdict": self.verdict,
            "checked": sum(c.holds is not None for c in self.claims),
            "claims": [c.as_dict() for c in claims],
            "claims_total": len(self.claims),
            "failed": [c.as_dict() for c in self.failed],
            "note": self.note,
        }


def aggregate(claims: list[ClaimResult], note: str = "") -> StepVerdict:
    """refuted if any claim fails; verified if one holds and none fails or is blocked."""
    failed = [c for c in claims if c.holds is False]
    if failed:
        return StepVerdict(REFUTED, claims, failed, note=note)
    blocked = any(c.holds is None and any(r in c.reason for r in BLOCKING_REASONS) for c in claims)
    if any(c.holds for c in claims) and not blocked:
        return StepVerdict(VERIFIED, claims, [], note=note)
    return StepVerdict(UNKNOWN, claims, [], note=note)


def undecided_for_now(verdict: StepVerdict) -> bool:
    """An unknown verdict that another run might decide (the checker ran out of time or
    failed), as opposed to a step the checker read and found nothing to decide in."""
    if verdict.verdict != UNKNOWN:
        return False
    if verdict.note.startswith(("time limit", "checker failed")):
        return True
    return any(c.holds is None and "time limit" in c.reason for c in verdict.claims)


def unknown(note: str) -> StepVerdict:
    return StepVerdict(UNKNOWN, [], [], note=note)
