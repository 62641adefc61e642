"""An endpoint's edit writes only what it changes: a secret rotated or a disable by the
deliveries, committed after the edit's request read the endpoint, stays."""

import pytest

from labeling.models import WebhookEndpoint
from labeling.services.webhooks.endpoints import (
    webhook_endpoint_disable,
    webhook_endpoint_update,
    webhook_secret_rotate,
)
from tests.factories import ProjectFactory

pytestmark = pytest.mark.django_db


def test_a_secret_rotated_meanwhile_is_kept(subscribe):
    endpoint = subscribe(ProjectFactory())
    stale = WebhookEndpoint.objects.get(pk=endpoint.pk)
    new_secret = webhook_secret_rotate(endpoint=endpoint)

    webhook_endpoint_update(endpoint=stale, description="billing team")

    row = WebhookEndpoint.objects.get(pk=endpoint.pk)
    assert row.description == "billing team"
    assert row.secret == new_secret
    assert row.secret_rotated_at is not None


def test_a_disable_meanwhile_is_kept_unless_the_edit_sets_active(subscribe):
    endpoint = subscribe(ProjectFactory())
    stale = WebhookEndpoint.objects.get(pk=endpoint.pk)
    webhook_endpoint_disable(endpoint_id=endpoint.pk, reason="410 Gone")

    webhook_endpoint_update(endpoint=stale, events=["annotation.submitted"])
    row = WebhookEndpoint.objects.get(pk=endpoint.pk)
    assert (row.active, row.disabled_reason) == (False, "410 Gone")
    assert row.events == ["annotation.submitted"]

    webhook_endpoint_update(endpoint=stale, active=True)  # the admin turns it back on
    row = WebhookEndpoint.objects.get(pk=endpoint.pk)
    assert (row.active, row.disabled_reason) == (True, "")
