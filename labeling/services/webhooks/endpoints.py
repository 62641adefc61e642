"""Managing a project's webhook endpoints: create, edit, delete, rotate the secret, test.

Every change recomputes `Project.webhook_events` (the event types some active endpoint
receives) under the project's row lock, so the hot paths (a submit) read it with the project
and skip events nobody listens to without a query. The sweep (delivery.webhook_sweep) also
recomputes it, which heals a value a concurrent full save of the project wrote back.
"""

from __future__ import annotations

import base64
import ipaddress
import re
import secrets
import socket
from dataclasses import dataclass

import httpx
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from labeling.errors import Conflict, ValidationFailed
from labeling.models import (
    DeliveryStatus,
    Project,
    WebhookDelivery,
    WebhookEndpoint,
)
from labeling.services.media.url_guard import SCHEMES, address_problem

from .events import EVENTS, TEST_EVENT, webhook_delivery_add

MAX_ENDPOINTS = 20  # per project
URL_MAX = 2000
DESCRIPTION_MAX = 500
SECRET_BYTES = 32
# Names that always mean this machine or its network, refused without a DNS lookup.
_LOCAL_NAMES = ("localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback")
_LOCAL_SUFFIXES = (".localhost", ".local", ".internal", ".localdomain")
# A host as it may be sent: an (IDNA-encoded) name, an IPv4 or an IPv6 address.
_HOST = re.compile(r"^[a-z0-9_-]+(?:\.[a-z0-9_-]+)*\.?$|^[0-9a-f.]*:[0-9a-f:.]*$")
# What inet_aton reads as an IPv4 address: decimal, octal or hex parts, one to four.
_LEGACY_IPV4 = re.compile(r"^(?:0x[0-9a-f]+|[0-9]+)(?:\.(?:0x[0-9a-f]+|[0-9]+)){0,3}$")


def allow_private() -> bool:
    return bool(getattr(settings, "WEBHOOK_ALLOW_PRIVATE", False))


def secret_make() -> str:
    """A Standard Webhooks secret: `whsec_` and 32 random bytes in base64."""
    return "whsec_" + base64.b64encode(secrets.token_bytes(SECRET_BYTES)).decode("ascii")


def webhook_url_check(url: str) -> str:
    """The URL stripped, or ValidationFailed (field `url`) for one no delivery would be sent to:
    not http(s), no host, a literal private address or a local name (unless
    WEBHOOK_ALLOW_PRIVATE). Names are resolved and checked again at every delivery."""
    url = url.strip()
    if len(url) > URL_MAX:
        raise ValidationFailed(f"The URL is longer than {URL_MAX} characters.", field="url")
    try:
        parsed = httpx.URL(url)
    except (httpx.InvalidURL, TypeError) as exc:
        raise ValidationFailed(f"{url!r} is not a valid URL ({exc}).", field="url") from exc
    if parsed.scheme not in SCHEMES:
        raise ValidationFailed("The URL must start with http:// or https://.", field="url")
    host = parsed.raw_host.decode("ascii", "replace").lower().rstrip(".")
    if not host:
        raise ValidationFailed("The URL has no host.", field="url")
    if parsed.userinfo:
        raise ValidationFailed("The URL may not carry a user name or password.", field="url")
    if not _HOST.match(host):
        shown = host[:100]
        raise ValidationFailed(f"The URL's host {shown!r} is not a valid host name.", field="url")
    if parsed.port is not None and not 0 < parsed.port < 65536:
        raise ValidationFailed(f"The URL's port {parsed.port} is not a valid port.", field="url")
    if allow_private():
        return url
    if host in _LOCAL_NAMES or host.endswith(_LOCAL_SUFFIXES):
        raise ValidationFailed(
            f"{host} names this server's own network; webhooks go to public addresses"
            " (WEBHOOK_ALLOW_PRIVATE allows private ones on a self-hosted server).",
            field="url",
        )
    ip = _literal_ip(host)
    if ip is None:
        return url
    problem = address_problem(ip)
    if problem:
        raise ValidationFailed(
            f"{ip} is {problem}; webhooks go to public addresses"
            " (WEBHOOK_ALLOW_PRIVATE allows private ones on a self-hosted server).",
            field="url",
        )
    return url


def _literal_ip(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """The address a host written as one means, in any form the resolver reads as an address
    (`127.1`, `0x7f000001`, `2130706433`, `[::1]`); None for a name."""
    try:
        return ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        pass
    if _LEGACY_IPV4.match(host):
        try:
            return ipaddress.IPv4Address(socket.inet_aton(host))
        except OSError:
            return None
    return None


def _events_check(events: list[str]) -> list[str]:
    unknown = [e for e in events if e not in EVENTS]
    if unknown:
        raise ValidationFailed(
            f"Unknown event {unknown[0]!r}; the events are {', '.join(EVENTS)}.", field="events"
        )
    if not events:
        raise ValidationFailed("Choose at least one event.", field="events")
    return [e for e in EVENTS if e in events]  # the fixed order, no repeats


def project_webhook_events_refresh(*, project_id: int) -> list[str]:
    """Recompute which event types the project's active endpoints receive; returns them."""
    with transaction.atomic():
        Project.objects.select_for_update().filter(pk=project_id).values_list("pk").first()
        listened: set[str] = set()
        for events in WebhookEndpoint.objects.filter(
            project_id=project_id, active=True
        ).values_list("events", flat=True):
            listened.update(events)
        ordered = [e for e in EVENTS if e in listened]
        Project.objects.filter(pk=project_id).exclude(webhook_events=ordered).update(
            webhook_events=ordered
        )
    return ordered


@dataclass(frozen=True)
class EndpointWithSecret:
    endpoint: WebhookEndpoint
    secret: str


@transaction.atomic
def webhook_endpoint_create(
    *,
    project: Project,
    url: str,
    events: list[str],
    description: str = "",
    active: bool = True,
    created_by=None,
) -> EndpointWithSecret:
    Project.objects.select_for_update().filter(pk=project.pk).values_list("pk").first()
    if WebhookEndpoint.objects.filter(project=project).count() >= MAX_ENDPOINTS:
        raise Conflict(f"A project has at most {MAX_ENDPOINTS} webhook endpoints.")
    secret = secret_make()
    endpoint = WebhookEndpoint.objects.create(
        project=project,
        url=webhook_url_check(url),
        secret=secret,
        events=_events_check(events),
        description=description.strip()[:DESCRIPTION_MAX],
        active=active,
        created_by=created_by if getattr(created_by, "pk", None) else None,
    )
    project_webhook_events_refresh(project_id=project.pk)
    return EndpointWithSecret(endpoint, secret)


@transaction.atomic
def webhook_endpoint_update(
    *,
    endpoint: WebhookEndpoint,
    url: str | None = None,
    events: list[str] | None = None,
    description: str | None = None,
    active: bool | None = None,
) -> WebhookEndpoint:
    changed = ["updated_at"]
    if url is not None:
        endpoint.url = webhook_url_check(url)
        changed.append("url")
    if events is not None:
        endpoint.events = _events_check(events)
        changed.append("events")
    if description is not None:
        endpoint.description = description.strip()[:DESCRIPTION_MAX]
        changed.append("description")
    if active is not None:
        endpoint.active = active
        changed.append("active")
        if active:
            endpoint.disabled_reason = ""
            changed.append("disabled_reason")
    # Only these: a secret rotated or a disable by the deliveries (too many failures) committed
    # since this request read the endpoint stays (a whole-row save would write back the old).
    endpoint.save(update_fields=changed)
    project_webhook_events_refresh(project_id=endpoint.project_id)
    return endpoint


@transaction.atomic
def webhook_endpoint_delete(*, endpoint: WebhookEndpoint) -> None:
    """Delete an endpoint and its deliveries. Its row is locked first: an event being emitted
    to it (which share-locks it) commits first, and its delivery is then deleted with it."""
    project_id = endpoint.project_id
    if WebhookEndpoint.objects.select_for_update().filter(pk=endpoint.pk).first() is None:
        return  # deleted meanwhile
    endpoint.delete()
    project_webhook_events_refresh(project_id=project_id)


@transaction.atomic
def webhook_endpoint_disable(*, endpoint_id: int, reason: str) -> None:
    """The receiver said it is gone (410): stop sending, and say why on the endpoint."""
    endpoint = WebhookEndpoint.objects.select_for_update().filter(pk=endpoint_id).first()
    if endpoint is None:
        return
    now = timezone.now()
    WebhookEndpoint.objects.filter(pk=endpoint_id).update(
        active=False, disabled_reason=reason[:DESCRIPTION_MAX], updated_at=now
    )
    WebhookDelivery.objects.filter(endpoint_id=endpoint_id, status=DeliveryStatus.PENDING).update(
        status=DeliveryStatus.FAILED,
        error="Not sent: the endpoint was disabled.",
        next_attempt_at=None,
        finished_at=now,
    )
    project_webhook_events_refresh(project_id=endpoint.project_id)


@transaction.atomic
def webhook_secret_rotate(*, endpoint: WebhookEndpoint) -> str:
    """A new secret, used from the next attempt on; the old one stops working at once."""
    endpoint.secret = secret_make()
    endpoint.secret_rotated_at = timezone.now()
    endpoint.save(update_fields=["secret", "secret_rotated_at", "updated_at"])
    return endpoint.secret


def webhook_test_send(*, endpoint: WebhookEndpoint, user) -> WebhookDelivery:
    """Send a `webhook.test` event to the endpoint now (active or not): its delivery log says
    how the receiver answered."""
    with transaction.atomic():
        return webhook_delivery_add(
            endpoint=endpoint,
            event_type=TEST_EVENT,
            data={
                "project_id": endpoint.project_id,
                "endpoint_id": endpoint.pk,
                "sent_by": {"id": user.pk, "username": user.username},
            },
        )
