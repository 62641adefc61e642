"""A user's own Hugging Face token: save (optionally checked with the Hub's whoami), remove,
and whose token a push or a Hub import started by a user runs with (`hub_auth_for`).

The token is sealed before it is written (labeling.accounts.sealed) and read back only by a worker
about to talk to the Hub: a task message carries the user's id, never the token.
"""

from __future__ import annotations

import re

from django.db import transaction
from django.utils import timezone

from labeling.accounts.sealed import SealBroken, seal, unseal
from labeling.errors import ValidationFailed
from labeling.hub.connection import USER, HubAuth, HubError, hub_whoami, server_auth
from labeling.models import HubToken

TOKEN_MIN, TOKEN_MAX = 8, 400
# Visible ASCII without spaces: what an Authorization header can carry as it is.
TOKEN_CHARS = re.compile(r"^[\x21-\x7e]+$")


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


def hub_auth_for(*, user) -> HubAuth:
    """The token a push or a Hub import started by `user` uses: theirs when they saved one,
    else the server's HF_TOKEN, else none. A saved token that SECRET_KEY can no longer open is
    an error in words, not a silent switch to the server's token."""
    saved = HubToken.objects.filter(user_id=getattr(user, "pk", None)).only("sealed").first()
    if saved is None:
        return server_auth()
    try:
        return HubAuth(unseal(saved.sealed), USER)
    except SealBroken:
        raise HubError(
            "Your saved Hugging Face token can no longer be read (the server's SECRET_KEY "
            "changed): save it again in your settings (Hugging Face token), or remove it to "
            "use the server's token."
        ) from None
