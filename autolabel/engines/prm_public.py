"""The prm source's public PRMs: params of a ``convention`` other than steplab's, and the
scorer they name (training.public_scorer in the worker, or a vLLM server).

    {"convention": "qwen", "path": "/models/Qwen2.5-Math-PRM-7B"}            # transformers
    {"convention": "qwen", "backend": "vllm", "url": "http://prm:8000",
     "model": "Qwen/Qwen2.5-Math-PRM-7B", "task": "token_classify"}           # a vLLM server
    {"convention": "math-shepherd", "path": "/models/math-shepherd-mistral-7b-prm"}
    {"convention": "seq-cls", "path": "/models/my-orm", "template": "plain"}

Every key is checked, with bounds, and a key that does not apply to the convention or the
backend is refused by name (a ``system`` prompt for Math-Shepherd would silently do nothing).
"""

from __future__ import annotations

import json
import os
import re
from typing import Any

from .params import check_keys, int_param, timeout_param

CONVENTIONS = ("steplab", "qwen", "math-shepherd", "seq-cls")
BACKENDS = ("transformers", "vllm")
COMMON = {"model_id", "model", "threshold", "batch_size", "convention", "backend"}
OWN = {
    "steplab": set(),
    "qwen": {"system"},
    "math-shepherd": {"step_tag", "good_token", "bad_token", "number_steps"},
    "seq-cls": {"template", "joiner"},
}
BACKEND_KEYS = {
    "transformers": {"path", "device", "dtype", "max_length"},
    "vllm": {"url", "positive_index", "task", "timeout_s", "max_retries", "concurrency"}
    | {"api_key_env"},
}
ALL_KEYS = COMMON | set().union(*OWN.values()) | set().union(*BACKEND_KEYS.values())
DTYPES = ("auto", "float32", "bfloat16", "float16")
BATCH_MAX = 1024
_TASK = re.compile(r"[a-z_]{1,32}")
_ENV = re.compile(r"[A-Z_][A-Z0-9_]{0,63}")


def convention_of(params: dict[str, Any]) -> str:
    value = params.get("convention", "steplab")
    if value not in CONVENTIONS:
        raise ValueError(f"convention must be one of {CONVENTIONS}, got {value!r}")
    return value


def backend_of(params: dict[str, Any]) -> str:
    value = params.get("backend", "transformers")
    if value not in BACKENDS:
        raise ValueError(f"backend must be one of {BACKENDS}, got {value!r}")
    return value


def _text(params: dict[str, Any], key: str, default: str, *, limit: int, empty: bool) -> str:
    value = params.get(key, default)
    if not isinstance(value, str) or len(value) > limit or (not value and not empty):
        size = "" if empty else "non-empty "
        raise ValueError(f"{key} must be a {size}string of at most {limit} characters")
    return value


def _choice(params: dict[str, Any], key: str, choices: tuple[str, ...], default: str) -> str:
    value = params.get(key, default)
    if value not in choices:
        raise ValueError(f"{key} must be one of {choices}, got {value!r}")
    return value


def check_options(params: dict[str, Any]) -> None:
    """Every key's type and bound, and that it applies (the path and url are checked by
    check_required: a run's model_id is resolved to a path after this)."""
    check_keys(params, ALL_KEYS, engine="prm")
    convention, backend = convention_of(params), backend_of(params)
    if convention == "steplab" and backend != "transformers":
        raise ValueError("backend vllm serves a public PRM: pick its convention")
    allowed = COMMON | OWN[convention] | BACKEND_KEYS[backend]
    if convention == "steplab":
        allowed -= {"dtype", "max_length"}
    extra = sorted(set(params) - allowed)
    if extra:
        raise ValueError(
            f"{', '.join(extra)} do not apply to convention {convention} on backend {backend}"
        )
    int_param(params, "batch_size", 8, maximum=BATCH_MAX)
    _text(params, "system", "", limit=4000, empty=True)
    for key in ("step_tag", "good_token", "bad_token"):
        _text(params, key, "x", limit=16, empty=False)
    if not isinstance(params.get("number_steps", True), bool):
        raise ValueError("number_steps must be true or false")
    _choice(params, "template", ("auto", "chat", "plain"), "auto")
    _text(params, "joiner", "\n\n", limit=16, empty=True)
    _choice(params, "dtype", DTYPES, "auto")
    if "max_length" in params:
        int_param(params, "max_length", 4096, minimum=16, maximum=131072)
    _check_server(params)


def _check_server(params: dict[str, Any]) -> None:
    from autolabel.completers.vllm_pooling import check_url

    if "url" in params:
        check_url(params["url"])
    if "positive_index" in params:
        int_param(params, "positive_index", 1, minimum=0, maximum=1)
    task = params.get("task")
    if task is not None and (not isinstance(task, str) or not _TASK.fullmatch(task)):
        raise ValueError(f"task must be a vLLM pooling task such as token_classify, got {task!r}")
    timeout_param(params, 60.0)
    int_param(params, "max_retries", 2, minimum=0, maximum=10)
    int_param(params, "concurrency", 4, maximum=64)
    env = params.get("api_key_env")
    if env is not None and (not isinstance(env, str) or not _ENV.fullmatch(env)):
        raise ValueError("api_key_env must name an environment variable (A-Z, 0-9, _)")


def check_required(params: dict[str, Any]) -> None:
    """A model to load (path) or a server to ask (url and the served model's name)."""
    if backend_of(params) == "vllm":
        if "url" not in params:
            raise ValueError("backend vllm needs a url (the server's base URL)")
        if not isinstance(params.get("model"), str) or not params["model"]:
            raise ValueError("backend vllm needs a model (the served model's name)")
    elif not isinstance(params.get("path"), str) or not params["path"]:
        raise ValueError("prm params need a path (or a model_id, resolved to one)")


def model_name(params: dict[str, Any]) -> str:
    return str(params.get("model") or params.get("path") or "")


def scorer_key(params: dict[str, Any]) -> str:
    """What identifies one loaded scorer: every param but the verdict's threshold."""
    kept = {k: v for k, v in params.items() if k not in ("threshold", "batch_size", "model_id")}
    return json.dumps(kept, sort_keys=True)


def build_scorer(params: dict[str, Any]) -> Any:
    """A public PRM's scorer (score_many over (problem, steps) pairs)."""
    from training.public_prm import Convention

    options = {
        k: params[k] for k in ("system", "step_tag", "good_token", "bad_token") if k in params
    }
    options.update({k: params[k] for k in ("number_steps", "template", "joiner") if k in params})
    convention = Convention(convention_of(params), **options)
    batch_size = int_param(params, "batch_size", 8, maximum=BATCH_MAX)
    if backend_of(params) == "vllm":
        from autolabel.completers.vllm_pooling import VllmPoolingPRM

        env = params.get("api_key_env")
        return VllmPoolingPRM(
            params["url"],
            params["model"],
            convention=convention,
            timeout_s=timeout_param(params, 60.0),
            max_retries=int_param(params, "max_retries", 2, minimum=0, maximum=10),
            concurrency=int_param(params, "concurrency", 4, maximum=64),
            positive_index=params.get("positive_index"),
            task=params.get("task"),
            api_key=os.environ.get(env) if env else None,
        )
    from training.public_scorer import PublicPRMScorer

    return PublicPRMScorer(
        params["path"],
        convention=convention,
        device=params.get("device"),
        dtype=params.get("dtype"),
        batch_size=batch_size,
        max_length=params.get("max_length"),
    )
