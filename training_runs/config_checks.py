"""A client's training config: well-typed for everyone, within the operator's caps for non-staff.

TrainConfig (training/config.py) takes any value for any field: a string for `epochs` reached the
trainer (a run that fails on the GPU queue after its data was copied), 10^6 epochs held a GPU for
TRAINING_TIME_LIMIT_S (three days), `keep_checkpoints` 10^6 with `save_every` 1 filled the disk
with a full model every step, and `attn_implementation` is handed to transformers, which takes a
Hub repository name there (kernels downloaded and run). Here every field is checked against its
annotation, the choices are the known ones, and a non-staff user's numbers are capped by
settings.TRAINING_LIMITS (env TRAINING_LIMITS, JSON), which an operator may raise. Staff
(operators) are not capped. A refusal is a ValidationFailed naming `config.<field>`.
"""

from __future__ import annotations

import dataclasses
import math
import types
import typing
from typing import Any, Literal

from labeling.accounts.operators import acts_as_server, operator_caps
from labeling.errors import ValidationFailed

SCHEDULERS = (
    "linear",
    "cosine",
    "cosine_with_restarts",
    "polynomial",
    "constant",
    "constant_with_warmup",
    "inverse_sqrt",
)
ATTENTION = (None, "eager", "sdpa", "flash_attention_2")
TEXT_MAX = 100  # step_separator, eval_split, one domain name
DOMAINS_MAX = 50

# field -> (least, most) for a non-staff user's config; "most" is an operator's setting.
DEFAULTS: dict[str, float] = {
    "epochs": 20,
    "max_steps": 200_000,
    "batch_size": 64,
    "grad_accum": 256,
    "max_length": 8192,
    "max_prompt_length": 8192,
    "keep_checkpoints": 5,
    "lora_r": 256,
    "lora_alpha": 1024,
}
# Bounds for every user: what no run means.
RANGES: dict[str, tuple[float, float]] = {
    "lr": (0.0, 1.0),
    "weight_decay": (0.0, 10.0),
    "warmup_ratio": (0.0, 1.0),
    "max_grad_norm": (0.0, 1e6),
    "lora_dropout": (0.0, 1.0),
    "seed": (0, 2**32 - 1),
    "log_every": (1, 10**9),
    "eval_every": (0, 10**9),
    "save_every": (0, 10**9),
    "max_steps": (-1, 10**9),
    "epochs": (0.0, 1e6),
    "batch_size": (1, 10**6),
    "grad_accum": (1, 10**6),
    "max_length": (2, 10**7),
    "max_prompt_length": (1, 10**7),
    "keep_checkpoints": (1, 10**6),
    "lora_r": (1, 10**6),
    "lora_alpha": (1, 10**6),
}


def limits() -> dict[str, float]:
    """The caps in force: DEFAULTS with the operator's TRAINING_LIMITS over them."""
    return operator_caps("TRAINING_LIMITS", DEFAULTS)


def _fits(value: Any, hint: Any) -> bool:
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return any(_fits(value, arm) for arm in typing.get_args(hint))
    if hint is type(None):
        return value is None
    if origin is Literal:
        return value in typing.get_args(hint)
    if origin is list:
        return isinstance(value, list) and all(_fits(v, typing.get_args(hint)[0]) for v in value)
    if hint is bool:
        return isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint is float:
        number = isinstance(value, int | float) and not isinstance(value, bool)
        return number and math.isfinite(value)
    if hint is str:
        return isinstance(value, str)
    return False


def _refuse(name: str, message: str) -> ValidationFailed:
    return ValidationFailed(f"config.{name}: {message}.", field=f"config.{name}")


def _check_types(config: dict[str, Any]) -> None:
    from training.config import TrainConfig

    hints = typing.get_type_hints(TrainConfig)
    for f in dataclasses.fields(TrainConfig):
        if f.name in config and not _fits(config[f.name], hints[f.name]):
            raise _refuse(f.name, f"must be {_describe(hints[f.name])}, got {config[f.name]!r}")
    for name, (least, most) in RANGES.items():
        value = config.get(name)
        if value is not None and not least <= value <= most:
            raise _refuse(name, f"must be from {least:g} to {most:g}, got {value!r}")
    if "lr" in config and config["lr"] <= 0:
        raise _refuse("lr", f"must be more than 0, got {config['lr']!r}")


def _describe(hint: Any) -> str:
    if typing.get_origin(hint) is Literal:
        return "one of " + ", ".join(repr(a) for a in typing.get_args(hint))
    names = {int: "an integer", float: "a number", bool: "true or false", str: "a string"}
    if typing.get_origin(hint) is list:
        return "a list of strings"
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        arms = [a for a in typing.get_args(hint) if a is not type(None)]
        return " or ".join(_describe(a) for a in arms) + " or null"
    return names.get(hint, str(hint))


def _check_choices(config: dict[str, Any]) -> None:
    if config.get("lr_scheduler", "linear") not in SCHEDULERS:
        raise _refuse("lr_scheduler", f"must be one of {', '.join(SCHEDULERS)}")
    if config.get("attn_implementation") not in ATTENTION:
        known = ", ".join(a for a in ATTENTION if a)
        raise _refuse("attn_implementation", f"must be null or one of {known}")
    for name in ("step_separator", "eval_split"):
        if len(config.get(name, "")) > TEXT_MAX:
            raise _refuse(name, f"at most {TEXT_MAX} characters")
    domains = config.get("domains", [])
    if len(domains) > DOMAINS_MAX or any(len(d) > TEXT_MAX for d in domains):
        raise _refuse("domains", f"at most {DOMAINS_MAX} names of at most {TEXT_MAX} characters")


def check_client_config(config: dict[str, Any], *, user: Any) -> None:
    """Refuse a config a client sent (the app's reserved fields are checked before this)."""
    _check_types(config)
    _check_choices(config)
    if acts_as_server(user):
        return
    for name, most in limits().items():
        value = config.get(name)
        if value is not None and value > most:
            raise _refuse(
                name,
                f"at most {most:g} for a run (TRAINING_LIMITS[{name!r}]; a server admin may "
                f"raise it), got {value!r}",
            )
