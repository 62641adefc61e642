"""What one auto-label run may ask of a worker: the operator's caps on every costly knob.

The engines' own checks (autolabel/engines/params.py and each engine) refuse what no run could
mean (a negative count, 2^63, a string for a number). These caps are lower and an operator's
choice: how many rollouts, tokens, votes, seconds, megabytes and threads a run of a project admin
may spend per step, so that one project's run cannot hold the workers for hours, eat the
machine's memory or starve the other projects. settings.AUTOLABEL_LIMITS (env AUTOLABEL_LIMITS,
JSON) raises or lowers any of them; staff users (the operators themselves) are not capped,
but for the per-item budgets, which every run's items are held to in the worker: the code
sandbox's (code_tests, code_test_bytes, code_item_s: labeling/rules/code_tests.py), the
symbolic checks' (check_item_s) and the model calls' (rollout_item_s, judge_item_s,
prm_item_s), each item skipped "over budget" past them (autolabel/deadline.py).

A value above its cap is a ValidationFailed naming `params.<source>.<key>`, the cap and the
setting, when the run is created; nothing is stored.
"""

from __future__ import annotations

from typing import Any

from labeling.accounts.operators import acts_as_server, operator_caps
from labeling.errors import ValidationFailed
from labeling.rules import code_tests

DEFAULTS: dict[str, float] = {
    "rollouts": 64,  # rollout n (mc) and k (binary_search): completions per prefix or probe
    "max_tokens": 4096,  # tokens one completion (rollout, judge) may generate
    "votes": 16,  # judge completions per solution
    "timeout_s": 300,  # one model server request (openai backend, public PRM on vLLM)
    "max_retries": 5,  # retries of one model server request
    "concurrency": 16,  # requests in flight to a model server
    "batch_size": 64,  # sequences one forward pass holds (transformers backend, prm)
    "max_length": 8192,  # tokens of one sequence a PRM reads
    "check_timeout_s": 30,  # answer and symbolic checks, per check
    "code_timeout_s": 30,  # one sandboxed program of the code source
    "code_memory_mb": 2048,  # its address space
    # Per item, for every run (the tests an import carries included): labeling/rules/code_tests.
    **code_tests.DEFAULTS,
    # One solution's symbolic checks together, for every run (autolabel/symbolic/batch.py's
    # CHECK_ITEM_S, where the engines read it without Django).
    "check_item_s": 300,
    # One item's model calls, for every run (autolabel/engines/rollout.py's ROLLOUT_ITEM_S and
    # judge.py's JUDGE_ITEM_S, where the engines read them without Django).
    "rollout_item_s": 1200,
    "judge_item_s": 600,
    # One item's PRM scoring (autolabel/engines/prm.py's PRM_ITEM_S): a vLLM server's requests
    # and retries, or a local model's forward passes.
    "prm_item_s": 300,
}

# params.<source>.<key> -> the limit it is counted against.
KNOBS: dict[str, dict[str, str]] = {
    "rollout": {"n": "rollouts", "k": "rollouts", "max_tokens": "max_tokens"},
    "judge": {"votes": "votes", "max_tokens": "max_tokens"},
    "answer": {"timeout_s": "check_timeout_s"},
    "symbolic": {"timeout_s": "check_timeout_s"},
    "code": {"timeout_s": "code_timeout_s", "memory_mb": "code_memory_mb"},
    "prm": {
        "batch_size": "batch_size",
        "max_length": "max_length",
        "timeout_s": "timeout_s",
        "max_retries": "max_retries",
        "concurrency": "concurrency",
    },
}
BACKEND_KNOBS = {
    "batch_size": "batch_size",
    "timeout_s": "timeout_s",
    "max_retries": "max_retries",
    "concurrency": "concurrency",
}


def limits() -> dict[str, float]:
    """The caps in force: DEFAULTS with the operator's AUTOLABEL_LIMITS over them."""
    return operator_caps("AUTOLABEL_LIMITS", DEFAULTS)


def _over(value: Any, cap: float) -> bool:
    """A number above the cap (the engines' checks refuse what is not a number)."""
    return isinstance(value, int | float) and not isinstance(value, bool) and value > cap


def _refuse(field: str, name: str, cap: float, value: Any) -> ValidationFailed:
    return ValidationFailed(
        f"{field}: at most {cap:g} for a run (AUTOLABEL_LIMITS[{name!r}]; a server admin "
        f"may raise it), got {value!r}.",
        field=field,
    )


def check_run_limits(sources: list[str], params: dict[str, Any], *, user: Any) -> None:
    """Refuse a run whose params ask more than AUTOLABEL_LIMITS allow (staff: no caps, but
    for the per-item sandbox budget, which every run's items are held to in the worker).

    Runs after the engines' own checks (the values are well-typed by then)."""
    caps = limits()
    code = params.get("code")
    if "code" in sources and isinstance(code, dict) and code.get("tests"):
        over = code_tests.over_caps(code["tests"], caps)
        if over is not None:
            name, what = over
            raise ValidationFailed(
                f"params.code.tests: {what} for an item (AUTOLABEL_LIMITS[{name!r}]; a server "
                "admin may raise it).",
                field="params.code.tests",
            )
    if acts_as_server(user):
        return
    for source in sources:
        own = params.get(source)
        if not isinstance(own, dict):
            continue
        found = [(f"params.{source}.{key}", name, own.get(key)) for key, name in KNOBS.get(
            source, {}).items()]  # fmt: skip
        backend = own.get("backend")
        if isinstance(backend, dict):
            found += [(f"params.{source}.backend.{key}", name, backend.get(key))
                      for key, name in BACKEND_KNOBS.items()]  # fmt: skip
        for field, name, value in found:
            if _over(value, caps[name]):
                raise _refuse(field, name, caps[name], value)
