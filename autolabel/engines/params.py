"""Checking engine params: typed values with defaults, unknown keys refused."""

from __future__ import annotations

from typing import Any


def check_keys(params: dict[str, Any], allowed: set[str], *, engine: str) -> None:
    unknown = set(params) - allowed
    if unknown:
        raise ValueError(f"unknown {engine} params: {sorted(unknown)}; allowed: {sorted(allowed)}")


# No engine parameter is meaningful past these: a count, a token budget or a size of 2^63 is
# a mistake or an attack, refused when the run is created (autolabel/engines/checks.py).
INT_MAX = 1_000_000
FLOAT_MAX = 1_000_000.0


def int_param(
    params: dict[str, Any], key: str, default: int, *, minimum: int = 1, maximum: int = INT_MAX
) -> int:
    value = params.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not minimum <= value <= maximum:
        raise ValueError(f"{key} must be an integer from {minimum} to {maximum}, got {value!r}")
    return value


def float_param(
    params: dict[str, Any],
    key: str,
    default: float,
    *,
    minimum: float = 0.0,
    maximum: float = FLOAT_MAX,
) -> float:
    value = params.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"{key} must be a number, got {value!r}")
    if not minimum <= value <= maximum:  # NaN fails this too
        raise ValueError(f"{key} must be a number from {minimum:g} to {maximum:g}, got {value!r}")
    return float(value)


def timeout_param(params: dict[str, Any], default: float, *, maximum: float = 600.0) -> float:
    """timeout_s: seconds, more than 0 and at most `maximum` (10 minutes by default)."""
    value = float_param(params, "timeout_s", default, minimum=0.0, maximum=maximum)
    if value <= 0:
        raise ValueError(f"timeout_s must be more than 0, got {value!r}")
    return value


def seed_param(params: dict[str, Any], default: int | None = 0) -> int | None:
    value = params.get("seed", default)
    if value is not None and (
        isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**32
    ):
        raise ValueError(f"seed must be an integer from 0 to 2^32-1 or null, got {value!r}")
    return value


def stop_param(params: dict[str, Any]) -> tuple[str, ...] | None:
    value = params.get("stop")
    if value is None:
        return None
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(s, str) and s for s in value):
        raise ValueError(f"stop must be a string or a list of non-empty strings, got {value!r}")
    return tuple(value)


def agent_id(*parts: str, limit: int = 200) -> str:
    """``part:part:...``, cut to the Suggestion.agent column with a hash to stay unique."""
    import hashlib

    agent = ":".join(parts)
    if len(agent) <= limit:
        return agent
    digest = hashlib.sha256(agent.encode()).hexdigest()[:10]
    return f"{agent[: limit - 11]}~{digest}"
