"""A settings change writes only the fields it changes: what others wrote to the project's
row meanwhile (a delete, a pending refresh's mark, the webhooks' events) stays."""

import pytest
from django.utils import timezone

from labeling.models import Project
from labeling.services.projects.edit import project_update
from tests.factories import ProjectFactory

pytestmark = pytest.mark.django_db


def test_a_delete_committed_meanwhile_is_not_undone():
    project = ProjectFactory()
    stale = Project.objects.get(pk=project.pk)  # the request's copy, read before the delete
    deleted_at = timezone.now()
    Project.objects.filter(pk=project.pk).update(deleted_at=deleted_at)

    project_update(project=stale, description="new words")

    row = Project.objects.get(pk=project.pk)
    assert row.description == "new words"
    assert row.deleted_at == deleted_at


def test_fields_written_by_others_meanwhile_stay():
    project = ProjectFactory()
    stale = Project.objects.get(pk=project.pk)
    mark = timezone.now()
    Project.objects.filter(pk=project.pk).update(
        queue_refresh_since=mark, webhook_events=["submission.created"], review_reasons_stored=True
    )

    project_update(project=stale, name="renamed", lock_ttl_seconds=600)

    row = Project.objects.get(pk=project.pk)
    assert (row.name, row.lock_ttl_seconds) == ("renamed", 600)
    assert row.queue_refresh_since == mark
    assert row.webhook_events == ["submission.created"]
    assert row.review_reasons_stored is True
