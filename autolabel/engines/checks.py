"""A run's params checked when it is created, not when a worker first runs them.

Engines check their own params when they run (in the worker); a mistake found there leaves a
run that fails chunk by chunk. Here the same checks run on the web process at creation, so a
bad value is a 400 naming `params.<source>.<key>` and nothing is stored. Each check is the
engine's own parsing code (no second copy of the rules), called without a model or a solution.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from autolabel.engines.params import check_keys, int_param, timeout_param

# Solutions per chunk (one task): at least 1 (0 made a run that never finished), at most 500.
CHUNK_SIZE_MAX = 500
RUN_KEYS = {"chunk_size"}


def chunk_size_of(params: dict[str, Any]) -> int:
    """A run's chunk size, kept in 1..CHUNK_SIZE_MAX even for a run stored before the check."""
    value = params.get("chunk_size", 20)
    return min(max(value, 1), CHUNK_SIZE_MAX) if type(value) is int else 20


def _timeout_only(engine: str, default: float) -> Callable[[dict[str, Any]], None]:
    def check(params: dict[str, Any]) -> None:
        check_keys(params, {"timeout_s"}, engine=engine)
        timeout_param(params, default)

    return check


def _no_params(engine: str) -> Callable[[dict[str, Any]], None]:
    def check(params: dict[str, Any]) -> None:
        check_keys(params, set(), engine=engine)

    return check


def _rollout(params: dict[str, Any]) -> None:
    from autolabel.engines.rollout import METHODS, PARAMS, sampling_params

    check_keys(params, PARAMS, engine="rollout")
    method = params.get("method", "mc")
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    separator = params.get("step_separator", "")
    if not isinstance(separator, str) or len(separator) > 100:
        raise ValueError("step_separator must be a string of at most 100 characters")
    if not isinstance(params.get("cache", True), bool):
        raise ValueError("cache must be true or false")
    sampling_params(params, method=method, tokenizer=None)


def _judge(params: dict[str, Any]) -> None:
    from autolabel.engines.judge import PARAMS, sampling_of

    check_keys(params, PARAMS, engine="judge")
    sampling_of(params)


def _code(params: dict[str, Any]) -> None:
    from autolabel.engines.code import MEMORY_MB_MAX, PARAMS
    from autolabel.sandbox import parse_tests

    check_keys(params, PARAMS, engine="code")
    timeout_param(params, 5.0, maximum=120.0)
    int_param(params, "memory_mb", 256, minimum=32, maximum=MEMORY_MB_MAX)
    if params.get("compare", "lines") not in ("lines", "tokens", "exact"):
        raise ValueError(f"compare must be lines, tokens or exact, got {params['compare']!r}")
    if not isinstance(params.get("all_tests", False), bool):
        raise ValueError("all_tests must be true or false")
    if params.get("tests"):
        try:  # assert-style code (a string) or input/output cases; anything else raises
            parse_tests(params["tests"])
        except ValueError as exc:
            raise ValueError(f"tests: {exc}") from exc


def _checks_list(engine: str) -> Callable[[dict[str, Any]], None]:
    def check(params: dict[str, Any]) -> None:
        module = __import__(f"autolabel.engines.{engine}", fromlist=["CHECKS"])
        check_keys(params, {"checks"}, engine=engine)
        checks = params.get("checks", module.CHECKS)
        if not isinstance(checks, list | tuple) or not all(isinstance(c, str) for c in checks):
            raise ValueError(f"checks must be a list of {', '.join(module.CHECKS)}")
        if set(checks) - set(module.CHECKS):
            raise ValueError(f"checks must be a list of {', '.join(module.CHECKS)}, got {checks!r}")

    return check


def _consensus(params: dict[str, Any]) -> None:
    from autolabel.consensus import ConsensusPolicy
    from labeling.rules.machine_sources import machine_sources

    ConsensusPolicy.from_params(params, known=machine_sources())


def _prm(params: dict[str, Any]) -> None:
    """The path itself is resolved and checked by autolabel.services (it needs the project)."""
    from autolabel.engines.prm import check_options

    check_options(params)


CHECKS: dict[str, Callable[[dict[str, Any]], None]] = {
    "answer": _timeout_only("answer", 3.0),
    "symbolic": _timeout_only("symbolic", 2.0),
    "rollout": _rollout,
    "judge": _judge,
    "code": _code,
    "agent": _checks_list("agent"),
    "subgoal": _checks_list("subgoal"),
    "graph": _no_params("graph"),
    "citation": _no_params("citation"),
    "consensus": _consensus,
    "prm": _prm,
}


def check_run_params(sources: list[str], params: dict[str, Any]) -> None:
    """ValueError("<key>: ...") for the first bad value; the key is `params.<...>`."""
    unknown = set(params) - set(sources) - RUN_KEYS
    if unknown:
        allowed = sorted({*sources, *RUN_KEYS})
        raise KeyError(f"unknown keys {sorted(unknown)}; allowed: {allowed}")
    try:
        int_param(params, "chunk_size", 20, maximum=CHUNK_SIZE_MAX)
    except ValueError as exc:
        raise ValueError(f"chunk_size: {exc}") from exc
    from autolabel.registry import PLUGINS

    for source in sources:
        own = params.get(source, {})
        if not isinstance(own, dict):
            raise ValueError(f"{source}: must be an object")
        try:
            if source in PLUGINS:  # a plug-in's declared schema, with its bounds
                PLUGINS[source].check_params(own)
            else:
                CHECKS[source](own)
        except ValueError as exc:
            wrapped = ValueError(f"{source}: {exc}")
            key = getattr(exc, "key", None)  # a plug-in's ParamError names its field
            wrapped.field = f"{source}.{key}" if key else source  # type: ignore[attr-defined]
            raise wrapped from exc


FILTER_KEYS = {"solution_ids", "only_unlabeled", "source"}


def check_run_filter(filter_: dict[str, Any]) -> None:
    """ValueError("<key>: ...") for a filter the solution query cannot take as it is."""
    unknown = set(filter_) - FILTER_KEYS
    if unknown:
        raise ValueError(f"{sorted(unknown)[0]}: unknown; allowed: {sorted(FILTER_KEYS)}")
    ids = filter_.get("solution_ids")
    if ids is not None:
        if not isinstance(ids, list) or len(ids) > 100_000:
            raise ValueError("solution_ids: must be a list of at most 100000 ids")
        if not all(type(i) is int and 1 <= i < 2**63 for i in ids):
            raise ValueError("solution_ids: every id must be a positive integer")
    if not isinstance(filter_.get("only_unlabeled", False), bool):
        raise ValueError("only_unlabeled: must be true or false")
    source = filter_.get("source", "")
    if not isinstance(source, str) or len(source) > 500:
        raise ValueError("source: must be a string of at most 500 characters")
