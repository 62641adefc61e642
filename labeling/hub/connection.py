"""One way to reach the Hub: the endpoint from settings (HF_ENDPOINT), the token given or the
server's (HF_TOKEN), and the library's errors turned into messages a user can act on."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings

from labeling.errors import DomainError

# owner/name as the Hub spells them (letters, digits, -, _, .; at most 96 characters each).
REPO_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,95}/[A-Za-z0-9][A-Za-z0-9._-]{0,95}$")
REVISION = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._/-]{0,199}$")
CONFIG = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$")


class HubError(DomainError):
    code = "hub_error"


def repo_id_check(repo_id: str) -> str:
    if not isinstance(repo_id, str) or not REPO_ID.match(repo_id) or ".." in repo_id:
        raise HubError(
            "A Hub dataset repo is owner/name (letters, digits, '-', '_', '.').",
            field="repo_id",
        )
    return repo_id


def name_check(value: str, pattern: re.Pattern[str], field: str) -> str:
    if not isinstance(value, str) or not pattern.match(value) or ".." in value:
        raise HubError(f"{field} {value!r} is not a valid Hub name.", field=field)
    return value


def hub_token(token: str | None = None) -> str | None:
    return token or getattr(settings, "HF_TOKEN", "") or None


def hub_api(token: str | None = None):
    from huggingface_hub import HfApi

    return HfApi(endpoint=settings.HF_ENDPOINT, token=hub_token(token) or False)


@contextmanager
def hub_errors(repo_id: str) -> Iterator[None]:
    """The library's exceptions as HubError with what went wrong in words."""
    from huggingface_hub.errors import (
        EntryNotFoundError,
        GatedRepoError,
        HfHubHTTPError,
        RepositoryNotFoundError,
        RevisionNotFoundError,
    )

    try:
        yield
    except GatedRepoError:
        raise HubError(f"{repo_id} is gated: accept its conditions on the Hub first.") from None
    except RepositoryNotFoundError:
        raise HubError(
            f"No dataset repo {repo_id} on the Hub, or it is private and the token cannot read it.",
            field="repo_id",
        ) from None
    except RevisionNotFoundError:
        raise HubError(f"{repo_id} has no such revision.", field="revision") from None
    except EntryNotFoundError as exc:
        raise HubError(f"{repo_id}: a file is missing ({exc}).") from None
    except HfHubHTTPError as exc:
        status = getattr(exc.response, "status_code", None)
        if status in (401, 403):
            raise HubError(
                f"The Hub refused the token for {repo_id} ({status}): set HF_TOKEN to a token "
                "with write access to it."
            ) from None
        raise HubError(f"The Hub answered {status} for {repo_id}: {exc}") from None
    except _transport_errors() as exc:  # connection refused, DNS, timeouts
        raise HubError(f"Could not reach the Hub at {settings.HF_ENDPOINT}: {exc}") from None


def _transport_errors() -> tuple[type[BaseException], ...]:
    """What the HTTP stack huggingface_hub uses raises when the Hub cannot be reached."""
    import httpx

    errors: list[type[BaseException]] = [OSError, httpx.TransportError]
    try:
        import httpx2  # huggingface_hub >= 2 talks through this fork of httpx

        errors.append(httpx2.TransportError)
    except ImportError:
        pass
    return tuple(errors)
