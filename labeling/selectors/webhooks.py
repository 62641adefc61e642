"""Reads for the webhooks API: a project's endpoints and an endpoint's delivery log."""

from django.db.models import QuerySet

from labeling.models import Project, WebhookDelivery, WebhookEndpoint

DELIVERY_LOG_MAX = 100


def webhook_endpoint_list(*, project: Project) -> QuerySet[WebhookEndpoint]:
    return WebhookEndpoint.objects.filter(project=project).order_by("created_at", "pk")


def webhook_delivery_list(*, endpoint: WebhookEndpoint, limit: int = 50) -> list[WebhookDelivery]:
    """The endpoint's latest deliveries, newest first (at most DELIVERY_LOG_MAX)."""
    limit = max(1, min(limit, DELIVERY_LOG_MAX))
    return list(
        WebhookDelivery.objects.filter(endpoint=endpoint).order_by("-created_at", "-pk")[:limit]
    )
