"""Serving metrics: live for small projects, a snapshot refreshed by a worker for large ones."""

import time

import pytest
from rest_framework.test import APIClient

from labeling.models import MetricsSnapshot
from labeling.services.projects.metrics import metrics_get, metrics_refresh, metrics_request_refresh
from tests.factories import MembershipFactory, ProjectFactory, SolutionFactory, UserFactory
from tests.review.test_review_queue import submitted


def _labeled_project():
    project = ProjectFactory()
    solution = SolutionFactory(problem__project=project, steps=2)
    a, b = UserFactory(username="sa"), UserFactory(username="sb")
    submitted(solution, a, [1, -1])
    submitted(solution, b, [1, 1])
    return project, solution


@pytest.mark.django_db
def test_small_projects_are_computed_live_and_kept_at_their_version(settings):
    settings.METRICS_LIVE_MAX_ANNOTATIONS = 10
    project, _ = _labeled_project()
    answer = metrics_get(project=project)
    assert not answer.cached and answer.data["pairs"][0]["agreement"] == 0.5
    snapshot = MetricsSnapshot.objects.get(project=project)
    assert snapshot.labels_version == 0  # nothing moved the version: factories' rows
    again = metrics_get(project=project)
    assert again.cached and again.data == answer.data and again.computed_at == answer.computed_at
    assert not metrics_get(project=project, refresh=True).cached  # asked: computed now


@pytest.mark.django_db
def test_large_projects_queue_one_refresh_and_serve_the_snapshot(
    settings, django_capture_on_commit_callbacks
):
    settings.METRICS_LIVE_MAX_ANNOTATIONS = 1
    project, solution = _labeled_project()
    with django_capture_on_commit_callbacks() as queued:
        first = metrics_get(project=project)
        second = metrics_get(project=project)  # already queued: nothing more
    assert first.data is None and first.refreshing and second.data is None
    assert len(queued) == 1
    metrics_refresh(project=project)  # what the task runs
    answer = metrics_get(project=project)
    assert answer.cached and not answer.refreshing
    assert answer.data["pairs"][0]["agreement"] == 0.5
    # New labels do not show until the next refresh; asking for one queues it.
    submitted(solution, UserFactory(username="sc"), [1, 1])
    assert len(metrics_get(project=project).data["pairs"]) == 1
    with django_capture_on_commit_callbacks() as queued:
        assert metrics_get(project=project, refresh=True).refreshing
    assert len(queued) == 1
    assert metrics_request_refresh(project=project) is False  # still pending


@pytest.mark.django_db(transaction=True)
def test_api_refreshes_through_a_real_worker(settings, celery_worker_live):
    settings.METRICS_LIVE_MAX_ANNOTATIONS = 1
    project, _ = _labeled_project()
    reviewer = UserFactory(username="srev")
    MembershipFactory(project=project, user=reviewer, role="reviewer")
    client = APIClient()
    client.force_authenticate(reviewer)
    url = f"/api/projects/{project.pk}/metrics/"
    assert client.get(url).status_code == 202
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        response = client.get(url)
        if response.status_code == 200:
            break
        time.sleep(0.1)
    body = response.json()
    assert response.status_code == 200, body
    assert body["cached"] is True and body["pairs"][0]["steps"] == 2
    assert body["computed_at"]


@pytest.mark.django_db
def test_the_refresh_sends_the_task_by_its_registered_name(
    settings, monkeypatch, django_capture_on_commit_callbacks
):
    """The service does not import labeling.tasks (tasks import services): it sends the task
    by name, which must be the name the task is registered under."""
    from labeling import tasks
    from labeling.services.jobs import outbox
    from labeling.services.projects import metrics

    assert tasks.project_metrics_refresh_task.name == metrics.REFRESH_TASK
    sent = []
    monkeypatch.setattr(
        outbox, "_publish", lambda messages: sent.extend((m.task, m.args) for m in messages)
    )
    settings.METRICS_LIVE_MAX_ANNOTATIONS = 1
    project, _ = _labeled_project()
    with django_capture_on_commit_callbacks(execute=True):
        metrics_get(project=project)
    assert sent == [(tasks.project_metrics_refresh_task.name, [project.pk])]
