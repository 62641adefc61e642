"""Accounts made from the UI: temporary passwords that must be changed, and invite links."""

import hashlib

from django.conf import settings
from django.db import models
from django.utils import timezone

from .project import Project, Role


def invite_hash(token: str) -> str:
    """sha256 of an invite's secret, hex: the database never holds the secret itself (a random
    256-bit value, so a plain hash is enough and a lookup stays one indexed query)."""
    return hashlib.sha256(token.encode()).hexdigest()


class TemporaryPassword(models.Model):
    """The user's password was made by the server and shown once to an admin: they must change
    it before doing anything else (the row goes when they do)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="temporary_password"
    )
    created_at = models.DateTimeField(default=timezone.now)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )

    def __str__(self) -> str:
        return f"temporary password of user {self.user_id}"


class Invite(models.Model):
    """A single-use, expiring link that makes an account with a preset role in one project."""

    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="invites")
    role = models.CharField(max_length=16, choices=Role.choices)
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
    used_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["project", "used_at", "revoked_at"])]

    def __str__(self) -> str:
        return f"invite {self.pk} to project {self.project_id} as {self.role}"

    def is_expired(self, now=None) -> bool:
        return (now or timezone.now()) >= self.expires_at
