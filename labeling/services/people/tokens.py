"""API tokens (personal access tokens): create one, revoke one, note when one was used.

A user has up to LIVE_MAX live tokens (neither revoked nor expired), each with a name and an
optional expiry; past it, a new token revokes the user's least recently used live tokens of the
same name (a script that logs in with its password on every run keeps working, as GitHub does
per application and scope), and one of a new name is refused (409). Only the sha256 of a
secret is stored (labeling.models.tokens.key_hash): the secret is returned once, by
`token_create`. Every request looks its token up by hash, so a revoked one is refused at once
(labeling/api/tokens_auth.py).
"""

import secrets
import string
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from labeling.errors import Conflict, NotAuthenticated, ValidationFailed
from labeling.models import ApiToken
from labeling.models.tokens import DISPLAY_CHARS, KEY_PREFIX, key_hash

NAME_MAX = ApiToken._meta.get_field("name").max_length
EXPIRY_MAX_DAYS = 3650
# last_used_at is written at most once per this interval: not one write per request.
LAST_USED_RESOLUTION = timedelta(minutes=1)
PASSWORD_LOGIN_NAME = "API token (password login)"
PASSWORD_LOGIN_EXPIRY_DAYS = 30
# Letters and digits only (238 bits in 40 characters): a double click selects the whole secret.
SECRET_ALPHABET = string.ascii_letters + string.digits
SECRET_LENGTH = 40
LIVE_MAX = 200  # live tokens per user: each is a row every list shows and a secret to leak


@dataclass(frozen=True)
class NewToken:
    """A token just created, with its secret: the only time the secret is known."""

    token: ApiToken
    key: str


def _expiry(expires_in_days: int | None, now: datetime) -> datetime | None:
    if expires_in_days is None:
        return None
    if isinstance(expires_in_days, bool) or not isinstance(expires_in_days, int):
        raise ValidationFailed(
            "expires_in_days: a whole number of days, or null for never.", field="expires_in_days"
        )
    if not 1 <= expires_in_days <= EXPIRY_MAX_DAYS:
        raise ValidationFailed(
            f"expires_in_days: between 1 and {EXPIRY_MAX_DAYS}, or null for never.",
            field="expires_in_days",
        )
    return now + timedelta(days=expires_in_days)


def token_create(
    *,
    user: AbstractBaseUser,
    name: str = "API token",
    expires_in_days: int | None = None,
    minted_by: ApiToken | None = None,
) -> NewToken:
    """A new token for the user; the user's other tokens keep working.

    `minted_by`: the token that authenticated the request. The new token can outlive neither
    it (its expiry is capped at the parent's; "never" becomes the parent's expiry) nor its
    revocation (token_revoke revokes what a token minted).
    """
    name = (name or "").strip()
    if not name:
        raise ValidationFailed("name: give the token a name.", field="name")
    if len(name) > NAME_MAX:
        raise ValidationFailed(f"name: at most {NAME_MAX} characters.", field="name")
    now = timezone.now()
    expires_at = _expiry(expires_in_days, now)
    if minted_by is not None and minted_by.expires_at is not None:
        expires_at = min(expires_at or minted_by.expires_at, minted_by.expires_at)
    key = KEY_PREFIX + "".join(secrets.choice(SECRET_ALPHABET) for _ in range(SECRET_LENGTH))
    with transaction.atomic():
        if minted_by is not None and not _parent_live_locked(minted_by):
            raise NotAuthenticated("This token was revoked.")
        _room_make(user=user, name=name, now=now, keep=minted_by)
        token = ApiToken.objects.create(
            user=user,
            name=name,
            key_hash=key_hash(key),
            prefix=key[:DISPLAY_CHARS],
            created_at=now,
            expires_at=expires_at,
            minted_by=minted_by,
        )
    return NewToken(token=token, key=key)


def _room_make(*, user: AbstractBaseUser, name: str, now: datetime, keep: ApiToken | None) -> None:
    """Keep the user under LIVE_MAX live tokens with the new one: revoke the least recently
    used live tokens of the same name (never `keep`, the token minting this one), else refuse.
    The user's row is locked, so two creations at once count each other."""
    get_user_model().objects.select_for_update().filter(pk=user.pk).values_list("pk").first()
    live = ApiToken.objects.filter(user=user, revoked_at__isnull=True).filter(
        Q(expires_at__isnull=True) | Q(expires_at__gt=now)
    )
    over = live.count() - LIVE_MAX + 1
    if over <= 0:
        return
    oldest = (
        live.filter(name=name)
        .exclude(pk=getattr(keep, "pk", None))
        .order_by(F("last_used_at").asc(nulls_first=True), "created_at", "id")
    )
    ids = list(oldest.values_list("pk", flat=True)[:over])
    if len(ids) < over:
        raise Conflict(
            f"You have {LIVE_MAX} live API tokens, the most one person may have. Revoke some "
            "you no longer use, then create this one."
        )
    for token in ApiToken.objects.filter(pk__in=ids):
        token_revoke(token=token)


def _parent_live_locked(parent: ApiToken) -> bool:
    """Whether the minting token is still unrevoked, its row locked until the new token is
    committed. A revoke at the same moment (its UPDATE takes the same row lock) then either
    comes first, and the mint is refused, or waits, and its walk of what the token minted finds
    the new one: a token never outlives its parent's revocation."""
    live = ApiToken.objects.select_for_update().filter(pk=parent.pk, revoked_at__isnull=True)
    return bool(list(live.values_list("pk", flat=True)))


def token_revoke(*, token: ApiToken) -> ApiToken:
    """Revoke the token and every token it minted: requests that send them get 401 from now
    on. Revoking twice is a no-op."""
    if token.revoked_at is None:
        now = timezone.now()
        # Conditional update: two concurrent revokes keep the first time.
        ApiToken.objects.filter(pk=token.pk, revoked_at__isnull=True).update(revoked_at=now)
        token.refresh_from_db(fields=["revoked_at"])
    # What it minted goes with it, however deep (a chain of mints is short: one query a level).
    level = [token.pk]
    while level:
        ApiToken.objects.filter(pk__in=level, revoked_at__isnull=True).update(
            revoked_at=token.revoked_at
        )
        level = list(ApiToken.objects.filter(minted_by__in=level).values_list("pk", flat=True))
    return token


def token_mark_used(*, token: ApiToken, now: datetime | None = None) -> bool:
    """Record that the token authenticated a request, at most once per LAST_USED_RESOLUTION.

    Returns whether a row was written. The condition is in the UPDATE itself, so concurrent
    requests with the same token write once between them, not once each.
    """
    now = now or timezone.now()
    cutoff = now - LAST_USED_RESOLUTION
    if token.last_used_at is not None and token.last_used_at > cutoff:
        return False
    written = (
        ApiToken.objects.filter(pk=token.pk)
        .filter(Q(last_used_at__isnull=True) | Q(last_used_at__lte=cutoff))
        .update(last_used_at=now)
    )
    if written:
        token.last_used_at = now
    return bool(written)


def tokens_prune(*, keep_days: int, now: datetime | None = None) -> int:
    """Delete tokens revoked or expired more than `keep_days` ago; returns how many went.

    They are kept that long so that a script still sending one gets the clear "revoked" or
    "expired on ..." 401 rather than "Invalid token."; a script that logs in with its password
    on every run would otherwise leave a row per run behind for ever.
    """
    cutoff = (now or timezone.now()) - timedelta(days=keep_days)
    deleted, _ = ApiToken.objects.filter(
        Q(revoked_at__lt=cutoff) | Q(expires_at__lt=cutoff)
    ).delete()
    return deleted
