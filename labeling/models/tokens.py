import hashlib

from django.conf import settings
from django.db import models
from django.utils import timezone

# New secrets start with this, so they are recognisable (secret scanners, logs); legacy DRF
# authtoken keys (40 hex characters) were migrated as they are and have no such prefix.
KEY_PREFIX = "stp_"
# How many leading characters of the secret are kept in clear, to tell tokens apart.
DISPLAY_CHARS = 8


def key_hash(key: str) -> str:
    """sha256 of the secret, hex: the only form of it the database holds.

    A plain hash (no salt, no slow KDF) is enough: the secret is 238 random bits, not a password,
    and a lookup by hash must stay one indexed query per request.
    """
    return hashlib.sha256(key.encode()).hexdigest()


class ApiToken(models.Model):
    """A personal access token: named, optionally expiring, revoked one by one.

    The secret is shown once at creation; afterwards only `prefix` (its first characters) is
    known. A revoked token is kept (who revoked what when, and a clear 401 message) but no longer
    listed to its owner.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(max_length=100)
    key_hash = models.CharField(max_length=64, unique=True, editable=False)
    prefix = models.CharField(max_length=DISPLAY_CHARS, editable=False)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    expires_at = models.DateTimeField(null=True, blank=True)
    last_used_at = models.DateTimeField(null=True, blank=True, editable=False)
    revoked_at = models.DateTimeField(null=True, blank=True)
    # The token whose bearer created this one (null: made from a signed-in session or the
    # password exchange). A minted token expires no later than it and is revoked with it.
    minted_by = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="minted"
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["user", "revoked_at"], name="apitoken_user_live_idx")]
        verbose_name = "API token"

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…) of {self.user}"

    def is_expired(self, now=None) -> bool:
        return self.expires_at is not None and self.expires_at <= (now or timezone.now())


class HubToken(models.Model):
    """A user's own Hugging Face token: pushes and Hub imports they start use it instead of the
    server's HF_TOKEN. Stored sealed (labeling.accounts.sealed: encrypted under a key derived from
    SECRET_KEY); only its last four characters are kept in clear, to show which one is set."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="hub_token"
    )
    sealed = models.TextField(editable=False, help_text="The token, sealed: never in clear.")
    last4 = models.CharField(max_length=4, editable=False)
    hub_user = models.CharField(
        max_length=200, blank=True, help_text="Who the Hub said it belongs to (whoami), if asked."
    )
    checked_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = "Hugging Face token"

    def __str__(self) -> str:
        return f"Hugging Face token …{self.last4} of {self.user}"
