"""Checking engine params: typed values with defaults, unknown keys refused."""

from __future__ import annotations

from typing import Any


def check_keys(params: dict[str, Any], allowed: set[str], *, engine: str) -> None:
    unknown = set(params) - allowed
    if unknown:
        raise ValueError(f"unknown {engine} params: {sorted(unknown)}; allowed: {sorted(allowed)}")


def int_param(params: dict[str, Any], key: str, default: int, *, minimum: int = 1) -> int:
    value = params.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ValueError(f"{key} must be an integer >= {minimum}, got {value!r}")
    return value


def float_param(params: dict[str, Any], key: str, default: float) -> float:
    value = params.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"{key} must be a number, got {value!r}")
    return float(value)


def seed_param(params: dict[str, Any], default: int | None = 0) -> int | None:
    value = params.get("seed", default)
    if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
        raise ValueError(f"seed must be an integer or null, got {value!r}")
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
