"""One way to reach the Hub: the endpoint from settings (HF_ENDPOINT), a token and whose it is
(HubAuth: the user's own, the server's HF_TOKEN, one given on the command line, or none), and
the library's errors turned into messages a user can act on, which never echo a token."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

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


# What a Hub token looks like when a message names one: hf_ (user, fine-grained) or api_org_
# and 30-odd letters and digits (so hf_hub_download and the like are left alone).
TOKEN_LIKE = re.compile(r"\b(?:hf|api_org)_[A-Za-z0-9]{20,}\b")
WHOAMI_TIMEOUT_S = 10.0

# HubTokenKind's values (labeling.models), spelled here so the Hub layer imports no model.
USER, SERVER, GIVEN, NONE = "user", "server", "given", "none"
WHOSE = {
    USER: "your own Hugging Face token (your settings)",
    SERVER: "the server's HF_TOKEN",
    GIVEN: "the token given",
    NONE: "no token",
}


@dataclass(frozen=True)
class HubAuth:
    """A token and whose it is. The token is left out of repr, so a log line or a traceback's
    locals never show it."""

    token: str | None = field(default=None, repr=False)
    kind: str = NONE

    @property
    def whose(self) -> str:
        return WHOSE[self.kind]


def server_auth(token: str | None = None) -> HubAuth:
    """The token given (the command line's --token), else the server's HF_TOKEN, else none."""
    if token:
        return HubAuth(token, GIVEN)
    if server := getattr(settings, "HF_TOKEN", ""):
        return HubAuth(server, SERVER)
    return HubAuth(None, NONE)


def hub_api(auth: HubAuth | None = None):
    from huggingface_hub import HfApi

    auth = auth or server_auth()
    # False, not None: None would make the library read a token saved on the server's disk.
    return HfApi(endpoint=settings.HF_ENDPOINT, token=auth.token or False)


def scrub(text: str, auth: HubAuth | None = None) -> str:
    """`text` with the token, and anything that looks like a Hub token, blotted out."""
    if auth is not None and auth.token:
        text = text.replace(auth.token, "[token]")
    return TOKEN_LIKE.sub("[token]", text)


def hub_whoami(token: str) -> str:
    """The Hub account a token belongs to (GET /api/whoami-v2, with a timeout: a web request
    waits on it); HubError when the Hub refuses the token or cannot be reached."""
    import httpx

    auth = HubAuth(token, USER)
    try:
        answer = httpx.get(
            f"{settings.HF_ENDPOINT.rstrip('/')}/api/whoami-v2",
            headers={"Authorization": f"Bearer {token}"},
            timeout=WHOAMI_TIMEOUT_S,
        )
    except httpx.HTTPError as exc:
        reach = f"Could not reach the Hub at {settings.HF_ENDPOINT} to check the token: {exc}."
        raise HubError(
            scrub(reach, auth) + " Save it without the check to keep it anyway.",
            field="token",
        ) from None
    if answer.status_code in (401, 403):
        raise HubError(
            f"The Hub refused this token (whoami answered {answer.status_code}).", field="token"
        )
    if answer.status_code != 200:
        raise HubError(
            f"The Hub answered {answer.status_code} to whoami; save the token without the check "
            "to keep it anyway.",
            field="token",
        )
    try:
        name = answer.json().get("name")
    except ValueError:
        name = None
    if not isinstance(name, str) or not name:
        raise HubError("The Hub's whoami answer names no account.", field="token")
    return scrub(name, auth)[:200]


@contextmanager
def hub_errors(repo_id: str, auth: HubAuth | None = None) -> Iterator[None]:
    """The library's exceptions as HubError with what went wrong in words, naming whose token
    was used and never the token."""
    from huggingface_hub.errors import (
        EntryNotFoundError,
        GatedRepoError,
        HfHubHTTPError,
        RepositoryNotFoundError,
        RevisionNotFoundError,
    )

    auth = auth or server_auth()
    try:
        yield
    except HubError as exc:  # raised inside (a card too large): words of ours, scrubbed anyway
        exc.message = scrub(exc.message, auth)
        exc.args = (exc.message,)
        raise
    except GatedRepoError:
        raise HubError(f"{repo_id} is gated: accept its conditions on the Hub first.") from None
    except RepositoryNotFoundError:
        raise HubError(
            f"No dataset repo {repo_id} on the Hub, or it is private and the token cannot read it "
            f"({auth.whose}).",
            field="repo_id",
        ) from None
    except RevisionNotFoundError:
        raise HubError(f"{repo_id} has no such revision.", field="revision") from None
    except EntryNotFoundError as exc:
        raise HubError(scrub(f"{repo_id}: a file is missing ({exc}).", auth)) from None
    except HfHubHTTPError as exc:
        status = getattr(exc.response, "status_code", None)
        if status in (401, 403):
            raise HubError(_refused(repo_id, status, auth)) from None
        raise HubError(scrub(f"The Hub answered {status} for {repo_id}: {exc}", auth)) from None
    except _transport_errors() as exc:  # connection refused, DNS, timeouts
        raise HubError(
            scrub(f"Could not reach the Hub at {settings.HF_ENDPOINT}: {exc}", auth)
        ) from None


def _refused(repo_id: str, status: int, auth: HubAuth) -> str:
    fix = {
        USER: "save a token with write access to it in your settings (Hugging Face token)",
        SERVER: "set HF_TOKEN to a token with write access to it, or save your own token in "
        "your settings (Hugging Face token)",
        GIVEN: "give a token with write access to it",
        NONE: "save your Hugging Face token in your settings, or set HF_TOKEN on the server",
    }[auth.kind]
    return f"The Hub refused {auth.whose} for {repo_id} ({status}): {fix}."


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
