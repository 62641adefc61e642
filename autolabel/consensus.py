"""Consensus: combine the machine sources' step labels into one suggestion with provenance.

Qwen's "Lessons of developing PRMs": Monte-Carlo labels measure recoverability, not correctness;
keep a sample when MC and an LLM judge agree on the first error (consensus filtering). Here a
solution is `consensus` when every required source gave a first error and they all agree, and
no symbolic refutation contradicts it (a refuted step before the agreed first error breaks it).

The steps before the agreed first error become +1 only when a required source rates steps
correct (rollout, judge, prm). Sources that only refute (symbolic, code, agent: their "checks
out" and "tests pass" are evidence, not ratings) agree on where an error is, not that the steps
before it are right: on the public samples those +1s were below the base rate of correct steps
(bench/label_quality.py), so a consensus of refuters keeps only its −1.
Pure Python: no Django.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

DEFAULT_REQUIRED = ("rollout", "judge")
# Sources whose only rating is −1: they never vouch for a step being correct.
REFUTERS = frozenset({"symbolic", "code", "agent"})
REQUIRED_MAX = 64


@dataclass(frozen=True)
class ConsensusPolicy:
    required: tuple[str, ...] = DEFAULT_REQUIRED
    symbolic_veto: bool = True

    @classmethod
    def from_params(
        cls, params: Mapping[str, Any], *, known: Sequence[str] | None = None
    ) -> "ConsensusPolicy":
        """`known`: the sources `required` may name (labeling.rules.machine_sources: the built-ins
        and the installed plug-ins), checked when a run is created; None takes any."""
        unknown = set(params) - {"required", "symbolic_veto"}
        if unknown:
            raise ValueError(f"unknown consensus params: {sorted(unknown)}")
        raw = params.get("required", DEFAULT_REQUIRED)
        if isinstance(raw, str) or not isinstance(raw, list | tuple) or len(raw) > REQUIRED_MAX:
            raise ValueError(f"required must be a list of at most {REQUIRED_MAX} sources")
        required = tuple(raw)
        if not required or not all(isinstance(s, str) for s in required):
            raise ValueError("consensus.required must be a non-empty list of sources")
        if known is not None:
            allowed = [s for s in known if s != "consensus"]
            bad = [s for s in required if s not in allowed]
            if bad:
                raise ValueError(
                    f"required: unknown source {bad[0]!r}; known: {', '.join(allowed)}"
                )
        return cls(required=required, symbolic_veto=bool(params.get("symbolic_veto", True)))


@dataclass
class ConsensusResult:
    agreed: bool
    first_error: int | None  # the agreed 0-based first wrong step, -1 for none, None if no deal
    first_errors: dict[str, int] = field(default_factory=dict)
    reason: str = ""
    labels: list[int | None] = field(default_factory=list)


def first_error(values: Sequence[int | None]) -> int | None:
    """Index of the first −1; −1 when every step is labeled and none is wrong; else None."""
    for i, value in enumerate(values):
        if value == -1:
            return i
    return -1 if values and all(v is not None for v in values) else None


def _by_source(suggestions: Mapping[str, Sequence[int | None]]) -> dict[str, list[int | None]]:
    """Merge agents of one source (`source:agent` keys): the most negative label per step wins."""
    merged: dict[str, list[int | None]] = {}
    for key, values in suggestions.items():
        source = key.split(":", 1)[0]
        current = merged.setdefault(source, [None] * len(values))
        for i, value in enumerate(values):
            if value is not None and (current[i] is None or value < current[i]):
                current[i] = value
    return merged


def combine(
    suggestions: Mapping[str, Sequence[int | None]], *, steps: int, policy: ConsensusPolicy
) -> ConsensusResult:
    sources = _by_source(suggestions)
    found = {s: first_error(sources[s]) for s in policy.required if s in sources}
    first_errors = {s: e for s, e in found.items() if e is not None}
    missing = [s for s in policy.required if s not in first_errors]
    if missing:
        return ConsensusResult(False, None, first_errors, f"no first error from {missing}")
    if len(set(first_errors.values())) != 1:
        return ConsensusResult(False, None, first_errors, "sources disagree on the first error")
    agreed = next(iter(first_errors.values()))
    if policy.symbolic_veto and "symbolic" in sources:
        refuted = [i for i, v in enumerate(sources["symbolic"]) if v == -1]
        stop = steps if agreed == -1 else agreed
        if any(i < stop for i in refuted):
            return ConsensusResult(
                False, None, first_errors, f"symbolic refutes step {refuted[0] + 1}"
            )
    end = steps if agreed == -1 else agreed
    vouched = not set(policy.required) <= REFUTERS
    labels: list[int | None] = [1 if vouched else None] * end + ([-1] if agreed != -1 else [])
    labels += [None] * (steps - len(labels))
    return ConsensusResult(True, agreed, first_errors, "sources agree", labels)
