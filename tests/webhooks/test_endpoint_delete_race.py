"""An endpoint deleted while an event is emitted to it (PostgreSQL, real threads): the event's
own transaction (a submit) never fails for it, and no delivery is left without its endpoint."""

import pytest

from labeling.models import WebhookDelivery, WebhookEndpoint
from labeling.services.webhooks.endpoints import webhook_endpoint_delete
from labeling.services.webhooks.events import ANNOTATION_SUBMITTED, webhook_event_emit
from tests.concurrency.threads import held
from tests.factories import ProjectFactory

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _emit(project_id: int):
    return lambda: webhook_event_emit(
        project=project_id, event_type=ANNOTATION_SUBMITTED, data={"annotation_id": 1}
    )


def test_endpoint_deleted_while_an_event_is_emitted_to_it(subscribe):
    project = ProjectFactory()
    stale = subscribe(project)

    emitted, deleted = held(_emit(project.pk), lambda: webhook_endpoint_delete(endpoint=stale))
    assert emitted == 1 and deleted is None, (emitted, deleted)  # neither raised
    assert not WebhookEndpoint.objects.exists()
    assert not WebhookDelivery.objects.exists()


def test_event_emitted_while_its_endpoint_is_deleted_is_skipped(subscribe):
    project = ProjectFactory()
    stale = subscribe(project)

    deleted, emitted = held(lambda: webhook_endpoint_delete(endpoint=stale), _emit(project.pk))
    assert deleted is None and emitted == 0, (deleted, emitted)
    assert not WebhookDelivery.objects.exists()
