"""A user's own Hugging Face token: save (optionally checked with the Hub's whoami), remove,
and whose token a push or a Hub import started by a user runs with (`hub_auth_for`).

The server's HF_TOKEN is the operator's: it may write to every repo of the operator's account and
organisations and read their private and gated datasets. A user who saved no token of their own
gets it only when they are staff (a server operator), or for a repo under one of the prefixes an
operator listed in settings.HUB_SERVER_TOKEN_REPOS (`my-org/`, `my-org/prm-`); anyone else talks
to the Hub without a token (public datasets still import; a push is refused in words). ``user``
None is the server itself (a management command run by the operator): the server's token.

The token is sealed before it is written (labeling.accounts.sealed) and read back only by a worker
about to talk to the Hub: a task message carries the user's id, never the token.
"""

from __future__ import annotations

import re

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from labeling.accounts.operators import acts_as_server
from labeling.accounts.sealed import SealBroken, seal, unseal
from labeling.errors import ValidationFailed
from labeling.hub.connection import (
    NONE,
    SERVER,
    USER,
    HubAuth,
    HubError,
    hub_whoami,
    repo_id_check,
    server_auth,
)
from labeling.models import HubToken

TOKEN_MIN, TOKEN_MAX = 8, 400
# Visible ASCII without spaces: what an Authorization header can carry as it is.
TOKEN_CHARS = re.compile(r"^[\x21-\x7e]+$")
# A listed prefix: a namespace (`owner/`) or the start of repo names in one (`owner/prm-`).
PREFIX = re.compile(r"^[a-z0-9][a-z0-9._-]{0,95}/[a-z0-9._-]{0,95}$")
SERVER_LISTED = "server_listed"  # hub_token_uses: the server's token, for the listed repos only
NO_TOKEN_TO_PUSH = (
    "No Hugging Face token may push to {repo_id} for you: save your own token in your "
    "settings (Hugging Face token), or ask a server admin to list its namespace in "
    "HUB_SERVER_TOKEN_REPOS."
)


def hub_token_check(token: str) -> str:
    if not isinstance(token, str) or not TOKEN_MIN <= len(token) <= TOKEN_MAX:
        raise ValidationFailed(
            f"A Hugging Face token is {TOKEN_MIN} to {TOKEN_MAX} characters.", field="token"
        )
    if not TOKEN_CHARS.match(token):
        raise ValidationFailed(
            "A Hugging Face token has no spaces or non-ASCII characters.", field="token"
        )
    return token


def hub_token_set(*, user, token: str, check: bool = True) -> HubToken:
    """Save (or replace) `user`'s token. With `check`, the Hub's whoami must accept it first
    and the account it names is kept beside it."""
    hub_token_check(token)
    hub_user = hub_whoami(token) if check else ""
    with transaction.atomic():
        saved, _ = HubToken.objects.update_or_create(
            user=user,
            defaults={
                "sealed": seal(token),
                "last4": token[-4:],
                "hub_user": hub_user,
                "checked_at": timezone.now() if check else None,
            },
        )
    return saved


def hub_token_delete(*, user) -> bool:
    """Remove `user`'s token; False when there was none."""
    deleted, _ = HubToken.objects.filter(user=user).delete()
    return bool(deleted)


def server_token_repos() -> tuple[str, ...]:
    """settings.HUB_SERVER_TOKEN_REPOS in the Hub's case (repo ids are case-insensitive there),
    a bare namespace given its `/`; an entry that is no owner/ prefix (`..`, a leading `/`, a
    second `/`, characters the Hub refuses) is left out: it covers nothing."""
    out: list[str] = []
    for raw in getattr(settings, "HUB_SERVER_TOKEN_REPOS", None) or ():
        entry = str(raw).strip().lower()
        if entry and "/" not in entry:
            entry += "/"
        if PREFIX.match(entry) and ".." not in entry and entry not in out:
            out.append(entry)
    return tuple(out)


def server_token_covers(repo_id: str) -> bool:
    """Whether `repo_id` (a valid owner/name, compared without case) is under a listed prefix:
    `my-org/` covers the namespace's repos, `my-org/prm-` the names starting so."""
    try:
        repo_id_check(repo_id)
    except HubError:
        return False
    repo = repo_id.lower()
    return any(repo.startswith(prefix) for prefix in server_token_repos())


def server_token_allowed(*, user, repo_id: str) -> bool:
    """Whether a push or import by `user` (None: the server itself) touching `repo_id` may use
    the server's HF_TOKEN when they saved no token of their own."""
    if acts_as_server(user):
        return True
    return server_token_covers(repo_id)


def hub_token_uses(*, user) -> str:
    """Whose token `user`'s pushes and Hub imports use, as far as it can be said without the
    repo: `user`, `server` (staff), `server_listed` (for the HUB_SERVER_TOKEN_REPOS only), or
    `none`."""
    if HubToken.objects.filter(user_id=getattr(user, "pk", None)).exists():
        return USER
    if not getattr(settings, "HF_TOKEN", ""):
        return NONE
    if acts_as_server(user):
        return SERVER
    return SERVER_LISTED if server_token_repos() else NONE


def hub_push_token_check(*, user, repo_id: str) -> None:
    """A push `user` asks for that would run with no token at all: a 400 in words now, rather
    than a refusal from the Hub later. `user` None (the command line) is not checked."""
    if user is None or HubToken.objects.filter(user_id=user.pk).exists():
        return
    if getattr(settings, "HF_TOKEN", "") and server_token_allowed(user=user, repo_id=repo_id):
        return
    raise ValidationFailed(NO_TOKEN_TO_PUSH.format(repo_id=repo_id), field="repo_id")


def hub_auth_for(*, user, repo_id: str) -> HubAuth:
    """The token a push or a Hub import started by `user` uses for `repo_id` (the repo pushed
    to or read): theirs when they saved one, else the server's HF_TOKEN where
    `server_token_allowed`, else none. A saved token that SECRET_KEY can no longer open is an
    error in words, not a silent switch to the server's token."""
    saved = HubToken.objects.filter(user_id=getattr(user, "pk", None)).only("sealed").first()
    if saved is None:
        if server_token_allowed(user=user, repo_id=repo_id):
            return server_auth()
        return HubAuth(None, NONE)
    try:
        return HubAuth(unseal(saved.sealed), USER)
    except SealBroken:
        raise HubError(
            "Your saved Hugging Face token can no longer be read (the server's SECRET_KEY "
            "changed): save it again in your settings (Hugging Face token), or remove it."
        ) from None
