"""Delivering webhooks to a real receiver: signatures, retries, 410, redirects, SSRF, sweep."""

from datetime import timedelta

import pytest
from django.utils import timezone

from labeling.models import DeliveryStatus, OutboxMessage, WebhookDelivery, WebhookEndpoint
from labeling.services.media import url_guard
from labeling.services.webhooks.delivery import (
    webhook_deliveries_due,
    webhook_deliveries_prune,
    webhook_delivery_attempt,
    webhook_events_heal,
)
from labeling.services.webhooks.endpoints import (
    webhook_endpoint_update,
    webhook_secret_rotate,
    webhook_test_send,
)
from labeling.services.webhooks.events import (
    ANNOTATION_SUBMITTED,
    EXPORT_READY,
    webhook_event_emit,
)
from tests.factories import ProjectFactory, UserFactory

from .conftest import deliver_pending

pytestmark = pytest.mark.django_db


def test_a_delivery_is_signed_per_standard_webhooks_and_logged(subscribe, receiver):
    project = ProjectFactory()
    endpoint = subscribe(project, [EXPORT_READY])
    assert webhook_event_emit(project=project, event_type=EXPORT_READY, data={"export_id": 7}) == 1
    delivery = WebhookDelivery.objects.get()
    # The delivery starts through the transactional outbox (sent after the commit).
    assert OutboxMessage.objects.filter(
        task="labeling.tasks.webhook_deliver_task", args=[delivery.pk]
    ).exists()
    (delivery,) = deliver_pending()
    assert delivery.status == DeliveryStatus.DELIVERED
    assert (delivery.attempts, delivery.status_code, delivery.error) == (1, 200, "")
    assert delivery.duration_ms is not None and delivery.finished_at is not None
    (payload,) = receiver.verified()
    assert payload["type"] == "export.ready"
    assert payload["data"] == {"project_id": project.pk, "export_id": 7}
    assert payload["timestamp"].endswith("Z")
    headers = receiver.received[0].headers
    assert headers["webhook-id"] == delivery.message_id
    assert headers["webhook-signature"].startswith("v1,")
    assert headers["content-type"] == "application/json"
    assert endpoint.secret.startswith("whsec_")


def test_a_wrong_secret_does_not_verify(subscribe, receiver):
    project = ProjectFactory()
    endpoint = subscribe(project)
    webhook_secret_rotate(endpoint=endpoint)  # the receiver still has the old secret
    webhook_event_emit(project=project, event_type=EXPORT_READY, data={})
    deliver_pending(rounds=1)
    assert receiver.received and receiver.received[0].verified is None


def test_a_500_is_retried_until_the_receiver_takes_it(subscribe, receiver):
    project = ProjectFactory()
    subscribe(project)
    receiver.answers = [500, 503, 200]
    webhook_event_emit(project=project, event_type=EXPORT_READY, data={})
    delivery_id = WebhookDelivery.objects.get().pk
    retry_in = webhook_delivery_attempt(delivery_id=delivery_id)
    assert retry_in == 0.0  # WEBHOOK_RETRY_BASE_S = 0 in these tests
    failed = WebhookDelivery.objects.get()
    assert failed.status == DeliveryStatus.PENDING
    assert (failed.attempts, failed.status_code) == (1, 500)
    assert failed.error.startswith("HTTP 500") and "answered 500" in failed.error
    (delivery,) = deliver_pending()
    assert (delivery.status, delivery.attempts, delivery.status_code, delivery.error) == (
        DeliveryStatus.DELIVERED,
        3,
        200,
        "",
    )
    # One message id for every attempt: receivers drop repeats by it.
    ids = {r.headers["webhook-id"] for r in receiver.received}
    assert ids == {delivery.message_id} and len(receiver.verified()) == 3


def test_retries_back_off_exponentially_and_give_up(subscribe, receiver, settings):
    settings.WEBHOOK_RETRY_BASE_S = 30.0
    settings.WEBHOOK_MAX_ATTEMPTS = 3
    project = ProjectFactory()
    subscribe(project)
    receiver.answers = [500]
    webhook_event_emit(project=project, event_type=EXPORT_READY, data={})
    pk = WebhookDelivery.objects.get().pk
    waits = []
    for _ in range(3):
        waits.append(webhook_delivery_attempt(delivery_id=pk))
        # Not due yet: a duplicate message does nothing.
        assert webhook_delivery_attempt(delivery_id=pk) is None
        WebhookDelivery.objects.filter(pk=pk).update(next_attempt_at=timezone.now())
    assert waits == [30.0, 120.0, None]
    delivery = WebhookDelivery.objects.get()
    assert (delivery.status, delivery.attempts) == (DeliveryStatus.FAILED, 3)
    assert len(receiver.received) == 3


def test_410_gone_disables_the_endpoint(subscribe, receiver):
    project = ProjectFactory()
    endpoint = subscribe(project)
    receiver.answers = [410]
    webhook_event_emit(project=project, event_type=EXPORT_READY, data={})
    webhook_event_emit(project=project, event_type=EXPORT_READY, data={})
    first, second = WebhookDelivery.objects.order_by("pk")
    webhook_delivery_attempt(delivery_id=first.pk)
    endpoint.refresh_from_db()
    assert endpoint.active is False and "410 Gone" in endpoint.disabled_reason
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.status, first.status_code) == (DeliveryStatus.FAILED, 410)
    assert second.status == DeliveryStatus.FAILED and "disabled" in second.error
    project.refresh_from_db()
    assert project.webhook_events == []  # nothing listens any more
    assert webhook_event_emit(project=project, event_type=EXPORT_READY, data={}) == 0
    assert len(receiver.received) == 1


def test_a_redirect_is_not_followed(subscribe, receiver):
    project = ProjectFactory()
    subscribe(project)
    receiver.answers = [302]
    receiver.extra_headers = {"Location": "http://169.254.169.254/latest/meta-data/"}
    webhook_event_emit(project=project, event_type=EXPORT_READY, data={})
    webhook_delivery_attempt(delivery_id=WebhookDelivery.objects.get().pk)
    delivery = WebhookDelivery.objects.get()
    assert delivery.status_code == 302 and "Redirects are not followed" in delivery.error
    assert len(receiver.received) == 1


@pytest.mark.parametrize(
    "resolved", ["10.1.2.3", "169.254.169.254", "127.0.0.1", "::ffff:192.168.0.1"]
)
def test_a_name_that_resolves_to_a_private_address_is_refused_at_delivery(
    settings, monkeypatch, resolved
):
    settings.WEBHOOK_ALLOW_PRIVATE = False
    project = ProjectFactory()
    endpoint = WebhookEndpoint.objects.create(
        project=project,
        url="https://hooks.example.com/in",
        secret="whsec_" + "A" * 44,
        events=[EXPORT_READY],
    )
    calls = []
    monkeypatch.setattr(url_guard, "resolve", lambda host, port: calls.append(host) or [resolved])
    delivery = webhook_test_send(endpoint=endpoint, user=UserFactory())
    assert webhook_delivery_attempt(delivery_id=delivery.pk) is not None  # retried later
    delivery.refresh_from_db()
    assert calls == ["hooks.example.com"]
    assert delivery.status_code is None
    assert delivery.error.startswith("Refused:") and "private addresses" in delivery.error


def test_the_private_setting_lets_a_self_hoster_send_to_127_0_0_1(settings, subscribe, receiver):
    project = ProjectFactory()
    endpoint = subscribe(project)
    settings.WEBHOOK_ALLOW_PRIVATE = False  # the receiver is on 127.0.0.1
    webhook_test_send(endpoint=endpoint, user=UserFactory())
    (delivery,) = deliver_pending(rounds=1)
    assert "loopback" in delivery.error and not receiver.received
    settings.WEBHOOK_ALLOW_PRIVATE = True
    WebhookDelivery.objects.update(next_attempt_at=timezone.now())
    (delivery,) = deliver_pending()
    assert delivery.status == DeliveryStatus.DELIVERED
    assert receiver.verified()[0]["type"] == "webhook.test"


def test_the_sweep_finds_overdue_deliveries_and_prunes_old_ones(subscribe, receiver):
    project = ProjectFactory()
    subscribe(project)
    webhook_event_emit(project=project, event_type=EXPORT_READY, data={})
    delivery = WebhookDelivery.objects.get()
    assert webhook_deliveries_due(grace_s=60) == []  # just made: its message is on its way
    WebhookDelivery.objects.update(next_attempt_at=timezone.now() - timedelta(minutes=5))
    assert webhook_deliveries_due(grace_s=60) == [delivery.pk]
    deliver_pending()
    assert webhook_deliveries_due(grace_s=0) == []
    WebhookDelivery.objects.update(created_at=timezone.now() - timedelta(days=40))
    assert webhook_deliveries_prune(keep_days=30) == 1


def test_the_sweep_heals_a_stale_subscribed_event_set(subscribe):
    project = ProjectFactory()
    subscribe(project, [ANNOTATION_SUBMITTED])
    # A settings save that raced the endpoint's creation wrote the old, empty set back.
    type(project).objects.filter(pk=project.pk).update(webhook_events=[])
    webhook_events_heal()
    project.refresh_from_db()
    assert project.webhook_events == [ANNOTATION_SUBMITTED]


def test_a_slow_receiver_times_out_and_is_retried(subscribe, receiver, settings):
    settings.WEBHOOK_TIMEOUT_S = 1.0
    project = ProjectFactory()
    subscribe(project)
    receiver.delay_s = 3.0
    webhook_event_emit(project=project, event_type=EXPORT_READY, data={})
    pk = WebhookDelivery.objects.get().pk
    assert webhook_delivery_attempt(delivery_id=pk) is not None
    delivery = WebhookDelivery.objects.get()
    assert delivery.status == DeliveryStatus.PENDING and delivery.status_code is None
    assert delivery.error == "Timed out after 1 s."
    assert delivery.duration_ms < 2500


def test_a_paused_endpoint_gets_no_event_and_its_pending_ones_are_not_sent(subscribe, receiver):
    project = ProjectFactory()
    endpoint = subscribe(project)
    webhook_event_emit(project=project, event_type=EXPORT_READY, data={})
    webhook_endpoint_update(endpoint=endpoint, active=False)
    project.refresh_from_db()
    assert webhook_event_emit(project=project, event_type=EXPORT_READY, data={}) == 0
    (delivery,) = deliver_pending()
    assert delivery.status == DeliveryStatus.FAILED and "disabled" in delivery.error
    assert not receiver.received
