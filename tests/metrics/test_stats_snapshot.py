"""A large project's stats and review progress come with its metrics snapshot: pages that show
the project stop counting its steps and annotations on every load (bench/scale_bench.py)."""

import pytest
from django.db import transaction
from rest_framework.test import APIClient

from labeling.metrics.domains import project_metrics_by_domain
from labeling.models import MetricsSnapshot
from labeling.selectors.labeling_page import project_stats
from labeling.selectors.review import review_queue_counts
from labeling.services.projects.metrics import metrics_refresh, project_stats_get
from labeling.services.projects.metrics_version import metrics_version_bump
from labeling.services.review.reasons import review_reasons_fill
from tests.factories import SolutionFactory, UserFactory
from tests.metrics.test_metrics_serving import _labeled_project

pytestmark = pytest.mark.django_db


def test_small_projects_count_their_stats_now(settings):
    settings.METRICS_LIVE_MAX_ANNOTATIONS = 10
    project, _ = _labeled_project()
    answer = project_stats_get(project=project)
    assert answer.computed_at is None
    assert answer.stats == project_stats(project=project)
    assert answer.stats["solutions"] == 1 and answer.stats["steps"] == 2


def test_large_projects_read_the_snapshot_and_queue_a_refresh_without_one(
    settings, django_capture_on_commit_callbacks
):
    settings.METRICS_LIVE_MAX_ANNOTATIONS = 1
    project, _ = _labeled_project()
    SolutionFactory(problem__project=project, steps=3)  # two solutions: past the live max
    with django_capture_on_commit_callbacks() as queued:
        first = project_stats_get(project=project)  # no snapshot: counted now, once
    assert first.computed_at is None and first.stats["solutions"] == 2
    assert len(queued) == 1  # the refresh that will store them
    snapshot = metrics_refresh(project=project)
    with transaction.atomic():  # a write since: the snapshot is served by its age
        metrics_version_bump(project_id=project.pk)
    answer = project_stats_get(project=project)
    assert answer.computed_at == snapshot.computed_at
    assert answer.stats == project_stats(project=project)
    # Until the next refresh the pages show the snapshot's counts, and say when they are from.
    SolutionFactory(problem__project=project, steps=3)
    assert project_stats_get(project=project).stats["solutions"] == 2
    client = APIClient()
    client.force_authenticate(UserFactory(username="st-staff", is_staff=True))
    body = client.get(f"/api/projects/{project.pk}/").json()
    assert body["stats"]["solutions"] == 2 and body["stats_computed_at"] is not None
    metrics = client.get(f"/api/projects/{project.pk}/metrics/").json()
    assert "stats" not in metrics and metrics["cached"] is True
    metrics_refresh(project=project)
    assert project_stats_get(project=project).stats["solutions"] == 3


def test_metrics_carry_the_queues_exact_review_progress(settings):
    settings.METRICS_LIVE_MAX_ANNOTATIONS = 10
    project, _ = _labeled_project()
    review_reasons_fill(project=project)
    review = project_metrics_by_domain(project)["review"]
    assert review["unresolved"] == review_queue_counts(project=project, state="unresolved")
    assert review["unresolved"]["disagreement"] == 1 and review["unresolved"]["total"] == 1
    assert review["resolved"] == 0
    stored = MetricsSnapshot.objects.filter(project=project).first()
    assert stored is None  # live: nothing stored for a small project
