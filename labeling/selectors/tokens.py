"""Reads of API tokens: a user's own list, one of them, and the lookup by secret."""

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import QuerySet

from labeling.models import ApiToken
from labeling.models.tokens import key_hash
from labeling.pg.compiled import compile_queryset_once

LIST_FIELDS = ("id", "name", "prefix", "created_at", "expires_at", "last_used_at")


def token_list_for_user(*, user: AbstractBaseUser) -> QuerySet[ApiToken]:
    """The user's tokens that are not revoked (expired ones included, so the owner sees why a
    script stopped), newest first. Never the hash."""
    live = ApiToken.objects.filter(user=user, revoked_at__isnull=True)
    return live.only(*LIST_FIELDS).order_by("-created_at", "-id")


def token_get_for_user(*, user: AbstractBaseUser, token_id: int) -> ApiToken | None:
    """One of the user's tokens that is not revoked; None for another user's or a revoked one."""
    return ApiToken.objects.filter(user=user, pk=token_id, revoked_at__isnull=True).first()


def token_for_key(*, key: str) -> ApiToken | None:
    """The token whose secret is `key` (revoked and expired ones too: the caller says why it
    refuses), with its user. One indexed lookup by hash, compiled once (every API request
    makes it: labeling.pg.compiled)."""
    statement = compile_queryset_once(
        ("token by hash",),
        lambda s: ApiToken.objects.select_related("user").filter(key_hash=s["hash"]),
        strs=("hash",),
    )
    found = statement.fetch({"hash": key_hash(key)})
    return found[0] if found else None
