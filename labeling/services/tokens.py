"""API tokens (DRF authtoken, one per user): create a new one, revoke it.

A token is checked against the table on every request, so a deleted token is refused at once.
"""

from django.db import transaction
from rest_framework.authtoken.models import Token


@transaction.atomic
def token_create(*, user) -> Token:
    """A fresh token for the user; the old one, if any, stops working."""
    Token.objects.filter(user=user).delete()
    return Token.objects.create(user=user)


def token_revoke(*, user) -> int:
    """Delete the user's token; returns how many were deleted (0 or 1)."""
    deleted, _ = Token.objects.filter(user=user).delete()
    return deleted


def token_get(*, user) -> Token | None:
    return Token.objects.filter(user=user).first()
