"""Webhook endpoints of a project and the deliveries made to them (labeling.services.webhooks)."""

from django.conf import settings
from django.db import models
from django.db.models import Q


class WebhookEndpoint(models.Model):
    """A URL that receives a project's events, signed with its Standard Webhooks secret.

    `secret` is stored as is (`whsec_<base64>`): the server signs every delivery with it. It is
    shown to the admin once, when it is made (on creation and on rotation).
    """

    project = models.ForeignKey(
        "labeling.Project", on_delete=models.CASCADE, related_name="webhook_endpoints"
    )
    url = models.CharField(max_length=2000)
    secret = models.CharField(max_length=100)
    events = models.JSONField(default=list, help_text="Event types this endpoint receives.")
    active = models.BooleanField(default=True)
    description = models.CharField(max_length=500, blank=True, default="")
    # Why the server turned it off (a 410 Gone answer); cleared when an admin turns it on.
    disabled_reason = models.CharField(max_length=500, blank=True, default="")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    secret_rotated_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["project", "active"], name="webhook_endpoint_project")]

    def __str__(self) -> str:
        return f"{self.url} ({', '.join(self.events)})"


class DeliveryStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    DELIVERED = "delivered", "Delivered"
    FAILED = "failed", "Failed"


class WebhookDelivery(models.Model):
    """One event sent to one endpoint: its payload, and how its attempts went.

    Written in the transaction that made the event, so it commits with it or not at all; a
    pending delivery whose `next_attempt_at` has passed is due (the sweep sends what a lost
    broker message left behind). `attempts`, `status_code`, `duration_ms` and `error` describe
    the latest attempt.
    """

    endpoint = models.ForeignKey(
        WebhookEndpoint, on_delete=models.CASCADE, related_name="deliveries"
    )
    event_type = models.CharField(max_length=60)
    # The webhook-id header: the same on every attempt, so receivers can drop repeats.
    message_id = models.CharField(max_length=60, unique=True)
    payload = models.JSONField()
    status = models.CharField(
        max_length=10, choices=DeliveryStatus.choices, default=DeliveryStatus.PENDING
    )
    attempts = models.PositiveSmallIntegerField(default=0)
    status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    duration_ms = models.PositiveIntegerField(null=True, blank=True)
    error = models.CharField(max_length=1000, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["endpoint", "-created_at"], name="webhook_delivery_log"),
            models.Index(
                fields=["next_attempt_at"],
                condition=Q(status="pending"),
                name="webhook_delivery_due",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event_type} → {self.endpoint_id} ({self.status})"
