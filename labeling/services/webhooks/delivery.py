"""Sending a webhook delivery: one signed POST per attempt, retries with backoff, the sweep.

An attempt claims the delivery by moving its `next_attempt_at` forward by a lease (the
timeout and a margin) in one UPDATE that only matches a pending, due delivery: a duplicate
task message (a redelivery, or the sweep's resend) finds nothing to claim and does nothing.
The POST goes to an address vetted by labeling.services.media.url_guard at that moment (resolved
and pinned, so a DNS answer cannot change it to a private address between the check and the
connection) and never follows a redirect. The body is signed per the Standard Webhooks spec
(headers webhook-id, webhook-timestamp, webhook-signature).

A 2xx answer delivers it; 410 Gone disables the endpoint; anything else (another status, a
refused address, a network error or timeout) is retried after WEBHOOK_RETRY_BASE_S × 4^(n−1)
seconds, until WEBHOOK_MAX_ATTEMPTS attempts were made.
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass
from datetime import timedelta

import httpx
from django.conf import settings
from django.db.models import F, Q
from django.utils import timezone
from standardwebhooks import Webhook

from labeling.models import DeliveryStatus, Project, WebhookDelivery, WebhookEndpoint
from labeling.services.media.url_guard import UrlRefused, vet_url

from .endpoints import allow_private, project_webhook_events_refresh, webhook_endpoint_disable
from .events import TEST_EVENT

log = logging.getLogger(__name__)

ERROR_MAX = 1000
RESPONSE_PEEK = 300  # bytes of a failed answer's body kept in the log
LEASE_MARGIN_S = 30
SWEEP_BATCH = 500
USER_AGENT = "steplab-webhooks/1"


def timeout_s() -> float:
    return min(max(float(getattr(settings, "WEBHOOK_TIMEOUT_S", 10.0)), 1.0), 30.0)


def max_attempts() -> int:
    return min(max(int(getattr(settings, "WEBHOOK_MAX_ATTEMPTS", 5)), 1), 20)


def retry_delay_s(attempts: int) -> float:
    """Wait after the `attempts`-th failed attempt: base, 4×base, 16×base, ..."""
    base = float(getattr(settings, "WEBHOOK_RETRY_BASE_S", 30.0))
    return base * 4 ** (attempts - 1)


@dataclass(frozen=True)
class PostResult:
    status_code: int | None
    duration_ms: int
    error: str

    @property
    def ok(self) -> bool:
        return self.status_code is not None and 200 <= self.status_code < 300


def body_bytes(payload: dict) -> bytes:
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def signed_headers(*, secret: str, message_id: str, body: bytes) -> dict[str, str]:
    moment = timezone.now()
    return {
        "webhook-id": message_id,
        "webhook-timestamp": str(int(moment.timestamp())),
        "webhook-signature": Webhook(secret).sign(message_id, moment, body.decode("utf-8")),
    }


def webhook_post(*, url: str, secret: str, message_id: str, body: bytes) -> PostResult:
    """One POST of a signed body to a vetted, pinned address; never raises for the receiver's
    failures (they are the result's `error`)."""
    started = time.perf_counter()

    def done(status_code: int | None, error: str) -> PostResult:
        elapsed = int((time.perf_counter() - started) * 1000)
        return PostResult(status_code, elapsed, error[:ERROR_MAX])

    try:
        target = vet_url(url, allow_private=allow_private())
    except UrlRefused as exc:
        return done(None, f"Refused: {exc.reason}")
    headers = {
        "Host": target.host_header,
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        **signed_headers(secret=secret, message_id=message_id, body=body),
    }
    extensions = {"sni_hostname": target.sni_hostname} if target.sni_hostname else {}
    try:
        with httpx.Client(timeout=timeout_s(), follow_redirects=False) as client:
            request = client.build_request(
                "POST", target.pinned, content=body, headers=headers, extensions=extensions
            )
            response = client.send(request, stream=True)
            try:
                code = response.status_code
                if 200 <= code < 300:
                    return done(code, "")
                if 300 <= code < 400:
                    where = response.headers.get("location", "")
                    return done(code, f"Redirects are not followed (to {where[:200]!r}).")
                peek = b""
                deadline = started + timeout_s()
                for chunk in response.iter_bytes():
                    peek += chunk
                    # A body that drips in is not waited for past the timeout.
                    if len(peek) >= RESPONSE_PEEK or time.perf_counter() > deadline:
                        break
                text = peek[:RESPONSE_PEEK].decode("utf-8", "replace").strip()
                return done(code, f"HTTP {code}" + (f": {text}" if text else ""))
            finally:
                response.close()
    except httpx.TimeoutException:
        return done(None, f"Timed out after {timeout_s():g} s.")
    except httpx.HTTPError as exc:
        return done(None, f"{type(exc).__name__}: {exc}")


def _claim(delivery_id: int) -> WebhookDelivery | None:
    now = timezone.now()
    lease = now + timedelta(seconds=timeout_s() + LEASE_MARGIN_S)
    claimed = (
        WebhookDelivery.objects.filter(pk=delivery_id, status=DeliveryStatus.PENDING)
        .filter(Q(next_attempt_at__isnull=True) | Q(next_attempt_at__lte=now))
        .update(next_attempt_at=lease, attempts=F("attempts") + 1)
    )
    if not claimed:
        return None
    # None when its endpoint was deleted just now (the deliveries go with it).
    return WebhookDelivery.objects.select_related("endpoint").filter(pk=delivery_id).first()


def webhook_delivery_attempt(*, delivery_id: int) -> float | None:
    """Make the delivery's next attempt if it is due; returns the seconds until the one after
    (a failure with attempts left), else None (delivered, given up, or not due: nothing done)."""
    delivery = _claim(delivery_id)
    if delivery is None:
        return None
    endpoint: WebhookEndpoint = delivery.endpoint
    if not endpoint.active and delivery.event_type != TEST_EVENT:
        _finish(delivery, DeliveryStatus.FAILED, PostResult(None, 0, "The endpoint is disabled."))
        return None
    result = webhook_post(
        url=endpoint.url,
        secret=endpoint.secret,
        message_id=delivery.message_id,
        body=body_bytes(delivery.payload),
    )
    if result.ok:
        _finish(delivery, DeliveryStatus.DELIVERED, result)
        return None
    if result.status_code == 410:
        _finish(delivery, DeliveryStatus.FAILED, result)
        webhook_endpoint_disable(
            endpoint_id=endpoint.pk,
            reason=f"The receiver answered 410 Gone on {timezone.now():%Y-%m-%d %H:%M} UTC.",
        )
        return None
    if delivery.attempts >= max_attempts():
        _finish(delivery, DeliveryStatus.FAILED, result)
        return None
    delay = retry_delay_s(delivery.attempts)
    WebhookDelivery.objects.filter(pk=delivery.pk).update(
        status_code=result.status_code,
        duration_ms=result.duration_ms,
        error=result.error,
        next_attempt_at=timezone.now() + timedelta(seconds=delay),
    )
    return delay


def _finish(delivery: WebhookDelivery, status: str, result: PostResult) -> None:
    WebhookDelivery.objects.filter(pk=delivery.pk).update(
        status=status,
        status_code=result.status_code,
        duration_ms=result.duration_ms,
        error=result.error,
        next_attempt_at=None,
        finished_at=timezone.now(),
    )


def webhook_deliveries_due(*, grace_s: float, limit: int = SWEEP_BATCH) -> list[int]:
    """Pending deliveries overdue by `grace_s`: their message was lost (a broker restarted
    empty) or their worker died mid-attempt. The sweep sends them again."""
    cutoff = timezone.now() - timedelta(seconds=grace_s)
    return list(
        WebhookDelivery.objects.filter(status=DeliveryStatus.PENDING, next_attempt_at__lte=cutoff)
        .order_by("next_attempt_at")
        .values_list("pk", flat=True)[:limit]
    )


def webhook_deliveries_prune(*, keep_days: int) -> int:
    """Forget finished deliveries older than `keep_days`."""
    cutoff = timezone.now() - timedelta(days=keep_days)
    deleted, _ = WebhookDelivery.objects.filter(
        created_at__lt=cutoff, status__in=[DeliveryStatus.DELIVERED, DeliveryStatus.FAILED]
    ).delete()
    return deleted


def webhook_events_heal() -> int:
    """Recompute `Project.webhook_events` where it may be stale (projects with endpoints, or
    with a non-empty set); returns how many projects were checked."""
    ids = set(WebhookEndpoint.objects.values_list("project_id", flat=True).distinct())
    ids |= set(Project.objects.exclude(webhook_events=[]).values_list("pk", flat=True))
    for project_id in ids:
        project_webhook_events_refresh(project_id=project_id)
    return len(ids)
