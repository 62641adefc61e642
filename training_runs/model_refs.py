"""What a client may point the server's model code at: local model paths, model server URLs and
the environment variable holding a model server's key.

The server uses these with its own privileges (it reads the directory, sends the variable's
value as a bearer key to the URL), so only staff users (server operators) may name anything.
Everyone else, a project admin included, gets:

- a path that resolves (realpath: ``..`` and symlinks do not escape) under one of the server's
  model directories (settings.MODEL_DIRS) or under one of this project's own training runs'
  directories (TRAINING_ROOT/run-<id>/ of a run of the project; never another project's);
- a URL under one of settings.MODEL_SERVER_URLS (scheme, host, port, and a path prefix);
- an ``api_key_env`` listed in settings.MODEL_API_KEY_ENVS, and never one of the server's own
  secrets (SECRET_KEY, DATABASE_URL, HF_TOKEN, AWS_* ...) whatever that setting says.

A refusal is a ValidationFailed naming the field and the setting an operator would change; it
never says whether a path outside the allowed directories exists. ``user`` None is the server
itself (a management command, a training run registering its own output).
"""

from __future__ import annotations

import os
from typing import Any
from urllib.parse import unquote, urlsplit

from django.conf import settings

from labeling.accounts.operators import acts_as_server
from labeling.errors import ValidationFailed
from training_runs.layout import run_dir
from training_runs.models import TrainingRun

ASK = "ask a server admin"
SECRET_ENVS = frozenset(
    {
        "SECRET_KEY",
        "DJANGO_SECRET_KEY",
        "DATABASE_URL",
        "REDIS_URL",
        "CELERY_BROKER_URL",
        "CELERY_RESULT_BACKEND",
        "HF_TOKEN",
        "HUGGING_FACE_HUB_TOKEN",
        "HF_HUB_TOKEN",
        "EMAIL_HOST_PASSWORD",
        "EMAIL_HOST_USER",
    }
)
SECRET_PREFIXES = ("AWS_", "DJANGO_")
DEFAULT_PORTS = {"http": 80, "https": 443}


def trusted(user: Any) -> bool:
    """Staff (a server operator) or the server itself may name any path, URL or variable."""
    return acts_as_server(user)


def is_secret_env(name: str) -> bool:
    upper = name.upper()
    return upper in SECRET_ENVS or upper.startswith(SECRET_PREFIXES)


def _real(path: str) -> str | None:
    try:
        return os.path.realpath(path)
    except (OSError, ValueError):  # a NUL byte, a loop: refused like any other
        return None


def _under(real: str, root: str) -> bool:
    return real == root or real.startswith(root.rstrip(os.sep) + os.sep)


def model_roots(project: Any) -> list[str]:
    """The directories a non-staff user's model paths must resolve under, resolved."""
    roots = [str(d) for d in getattr(settings, "MODEL_DIRS", []) if str(d)]
    if project is not None:
        runs = TrainingRun.objects.filter(project=project).only("pk")
        roots += [str(run_dir(run)) for run in runs]
    return [r for r in (_real(root) for root in roots) if r]


def check_model_path(value: Any, *, user: Any, project: Any, field: str) -> Any:
    """The path to use: as given for staff, else its resolved form under an allowed root."""
    if trusted(user):
        return value
    refused = ValidationFailed(
        f"{field}: {value!s:.300} is not under one of this server's model directories "
        f"(MODEL_DIRS) or this project's own training runs; {ASK}.",
        field=field,
    )
    if not isinstance(value, str) or not os.path.isabs(value):
        raise refused
    real = _real(value)
    if real is None or not any(_under(real, root) for root in model_roots(project)):
        raise refused
    return real


def _origin(parts: Any) -> tuple[str, str, int | None]:
    return (
        parts.scheme,
        (parts.hostname or "").lower(),
        parts.port or DEFAULT_PORTS.get(parts.scheme),
    )


def _url_allowed(url: str) -> bool:
    try:
        parts = urlsplit(url.strip())
        origin = _origin(parts)
    except ValueError:
        return False
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname or parts.username is not None:
        return False
    if parts.password is not None or "\\" in url:
        return False
    segments = unquote(parts.path).split("/")
    if any(s in (".", "..") for s in segments):
        return False
    for prefix in getattr(settings, "MODEL_SERVER_URLS", []):
        try:
            allowed = urlsplit(str(prefix).strip())
            if _origin(allowed) != origin or not allowed.hostname:
                continue
        except ValueError:
            continue
        base = allowed.path.rstrip("/")
        if parts.path.rstrip("/") == base or parts.path.startswith(base + "/"):
            return True
    return False


def check_model_url(value: Any, *, user: Any, field: str) -> None:
    if trusted(user):
        return
    if not isinstance(value, str) or not _url_allowed(value):
        raise ValidationFailed(
            f"{field}: {value!s:.300} is not one of this server's model servers "
            f"(MODEL_SERVER_URLS); {ASK}.",
            field=field,
        )


def check_api_key_env(value: Any, *, user: Any, field: str) -> None:
    if trusted(user) or value is None:
        return
    if not isinstance(value, str):
        raise ValidationFailed(f"{field} must name an environment variable.", field=field)
    if is_secret_env(value):
        raise ValidationFailed(
            f"{field}: {value!s:.100} is one of this server's own secrets, never a model key; "
            f"a model server's key needs its own variable (MODEL_API_KEY_ENVS); {ASK}.",
            field=field,
        )
    if value not in getattr(settings, "MODEL_API_KEY_ENVS", []):
        raise ValidationFailed(
            f"{field}: {value} is not one of this server's model key variables "
            f"(MODEL_API_KEY_ENVS); {ASK}.",
            field=field,
        )


def check_backend(config: dict[str, Any], *, user: Any, project: Any, field: str) -> dict:
    """A completer backend config (autolabel.completers.config), its paths resolved."""
    if trusted(user):
        return config
    config = dict(config)
    kind = config.get("kind")
    if kind == "transformers":
        path = check_model_path(
            config.get("path"), user=user, project=project, field=f"{field}.path"
        )
        config["path"] = path
        if config.get("gguf_file") is not None:
            gguf = config["gguf_file"]
            joined = os.path.join(path, gguf) if isinstance(gguf, str) else gguf
            check_model_path(joined, user=user, project=project, field=f"{field}.gguf_file")
    elif kind == "openai":
        check_model_url(config.get("base_url"), user=user, field=f"{field}.base_url")
        check_api_key_env(config.get("api_key_env"), user=user, field=f"{field}.api_key_env")
        if config.get("tokenizer") is not None:
            config["tokenizer"] = check_model_path(
                config["tokenizer"], user=user, project=project, field=f"{field}.tokenizer"
            )
    return config


def check_prm(params: dict[str, Any], *, user: Any, project: Any, field: str) -> dict:
    """params.prm: its path (transformers) or its url and api_key_env (a vLLM server)."""
    if trusted(user):
        return params
    params = dict(params)
    if "path" in params:
        params["path"] = check_model_path(
            params["path"], user=user, project=project, field=f"{field}.path"
        )
    if "url" in params:
        check_model_url(params["url"], user=user, field=f"{field}.url")
    check_api_key_env(params.get("api_key_env"), user=user, field=f"{field}.api_key_env")
    return params
