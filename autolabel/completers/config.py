"""Completers from JSON configs (engine params), built once per process.

Backend configs::

    {"kind": "transformers", "path": DIR_OR_GGUF, "gguf_file": null, "device": "cpu",
     "dtype": null, "batch_size": 8}
    {"kind": "openai", "base_url": URL, "model": NAME, "api_key_env": null, "timeout_s": 60,
     "max_retries": 2, "concurrency": 4, "tokenizer": null}
    {"kind": "scripted", "rules": [[SUBSTRING, P], ...], "default": 1.0, "gold": null,
     "wrong": null, "name": null}

``api_key_env`` names an environment variable (keys never live in run params);
``tokenizer`` is a local tokenizer directory whose chat template formats rollout prompts
for a remote model (otherwise the plain template of autolabel.prompts is used). A scripted
backend without ``gold`` answers with each solution's own gold answer.
"""

from __future__ import annotations

import json
import os
import threading
from collections import OrderedDict
from typing import Any

from .base import Completer
from .hf import TransformersCompleter
from .openai_compat import OpenAICompatibleCompleter
from .scripted import ScriptedCompleter

KEYS: dict[str, set[str]] = {
    "transformers": {"path", "gguf_file", "device", "dtype", "batch_size"},
    "openai": {
        "base_url",
        "model",
        "api_key_env",
        "timeout_s",
        "max_retries",
        "concurrency",
        "tokenizer",
    },
    "scripted": {"rules", "default", "gold", "wrong", "name"},
}
REQUIRED = {"transformers": {"path"}, "openai": {"base_url", "model"}, "scripted": set()}
MAX_CACHED = 4  # models are large: keep the few in use

_cache: OrderedDict[str, Any] = OrderedDict()
_lock = threading.Lock()


def validate_backend(config: Any) -> dict[str, Any]:
    """The config, checked: a known kind, its required keys, no unknown keys."""
    if not isinstance(config, dict):
        raise ValueError(f"backend must be an object, got {type(config).__name__}")
    kind = config.get("kind")
    if kind not in KEYS:
        raise ValueError(f"backend kind must be one of {sorted(KEYS)}, got {kind!r}")
    rest = set(config) - {"kind"}
    unknown = rest - KEYS[kind]
    if unknown:
        raise ValueError(f"unknown {kind} backend keys: {sorted(unknown)}")
    missing = {k for k in REQUIRED[kind] if not config.get(k)}
    if missing:
        raise ValueError(f"{kind} backend needs {sorted(missing)}")
    _check_numbers(config)
    return config


# A backend's numbers, bounded for every user (autolabel/limits.py caps a project admin's lower):
# key -> (integer only, least, most).
NUMBERS: dict[str, tuple[bool, float, float]] = {
    "batch_size": (True, 1, 1024),
    "timeout_s": (False, 0.001, 3600.0),
    "max_retries": (True, 0, 20),
    "concurrency": (True, 1, 256),
}


def _check_numbers(config: dict[str, Any]) -> None:
    """The worker passed these through int()/float(): a string or 10^9 threads or retries
    failed (or held) every item of the run instead of the request that made it."""
    for key, (integer, least, most) in NUMBERS.items():
        value = config.get(key)
        if value is None:
            continue
        kind = int if integer else int | float
        if isinstance(value, bool) or not isinstance(value, kind) or not least <= value <= most:
            what = "an integer" if integer else "a number"
            raise ValueError(f"{key} must be {what} from {least:g} to {most:g}, got {value!r}")


def _build(config: dict[str, Any], gold: str | None) -> Any:
    kind = config["kind"]
    if kind == "transformers":
        return TransformersCompleter(
            config["path"],
            gguf_file=config.get("gguf_file"),
            device=config.get("device") or "cpu",
            dtype=config.get("dtype"),
            batch_size=int(config.get("batch_size") or 8),
        )
    if kind == "openai":
        key_env = config.get("api_key_env")
        tokenizer = None
        if config.get("tokenizer"):
            from transformers import AutoTokenizer

            tokenizer = AutoTokenizer.from_pretrained(config["tokenizer"])
        return OpenAICompatibleCompleter(
            config["base_url"],
            config["model"],
            api_key=os.environ.get(key_env) if key_env else None,
            timeout_s=float(config.get("timeout_s") or 60),
            max_retries=int(config.get("max_retries", 2)),
            concurrency=int(config.get("concurrency") or 4),
            tokenizer=tokenizer,
        )
    if gold is None and not config.get("gold"):
        raise ValueError("a scripted backend needs a gold answer")
    return ScriptedCompleter.from_config(config, gold=gold or "")


def completer_from_config(config: dict[str, Any], *, gold: str | None = None) -> Completer:
    """The completer for ``config``, shared by every caller in this process.

    ``gold`` only matters to a scripted backend without its own ``gold``.
    """
    validate_backend(config)
    needs_gold = config["kind"] == "scripted" and not config.get("gold")
    key = json.dumps([config, gold if needs_gold else None], sort_keys=True, default=str)
    with _lock:
        if key in _cache:
            _cache.move_to_end(key)
            return _cache[key]
        completer = _build(config, gold)
        _cache[key] = completer
        while len(_cache) > MAX_CACHED:
            _, old = _cache.popitem(last=False)
            close = getattr(old, "close", None)
            if close is not None:
                close()
        return completer


def clear_completer_cache() -> None:
    with _lock:
        for completer in _cache.values():
            close = getattr(completer, "close", None)
            if close is not None:
                close()
        _cache.clear()
