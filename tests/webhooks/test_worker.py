"""End to end through a real Celery worker: outbox → webhook_deliver_task → receiver, with a
retry the task schedules itself."""

import time

import pytest
from rest_framework.test import APIClient

from labeling.models import DeliveryStatus, WebhookDelivery
from tests.factories import MembershipFactory, ProjectFactory, UserFactory


@pytest.mark.django_db(transaction=True)
def test_send_test_event_reaches_the_receiver_through_a_worker(
    private_ok, receiver, celery_worker_live
):
    project = ProjectFactory()
    admin = UserFactory(username="hookadmin")
    MembershipFactory(project=project, user=admin, role="admin")
    client = APIClient()
    client.force_authenticate(admin)
    made = client.post(
        f"/api/projects/{project.pk}/webhooks/",
        {"url": receiver.url, "events": ["export.ready"]},
        format="json",
    ).json()
    receiver.secret = made["secret"]
    receiver.answers = [500, 200]  # the first attempt fails: the task retries itself
    delivery_id = client.post(
        f"/api/projects/{project.pk}/webhooks/{made['endpoint']['id']}/test/"
    ).json()["id"]
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        delivery = WebhookDelivery.objects.get(pk=delivery_id)
        if delivery.status != DeliveryStatus.PENDING:
            break
        time.sleep(0.1)
    assert (delivery.status, delivery.attempts, delivery.status_code) == ("delivered", 2, 200)
    assert [p["type"] for p in receiver.verified()] == ["webhook.test", "webhook.test"]
