"""Metrics while a team labels: a snapshot behind the version whose computation is not cheap
(its last one took more than METRICS_LIVE_MAX_MS) is served as it is, one statement, with how
old it is (`computed_at`, `changes_since`: the writes since), and refreshed in the background
at most once per `refresh_interval`; the refresh brings it back to a fresh computation.

The annotator's writes here are the services' own (claim, submit), so the version moves as it
does on the labeling page.
"""

import json
from datetime import timedelta

import pytest
from django.core.serializers.json import DjangoJSONEncoder
from rest_framework.test import APIClient

from labeling.metrics.domains import project_metrics_by_domain
from labeling.models import MetricsSnapshot
from labeling.selectors.labeling_page import project_stats
from labeling.services.labeling.annotations import annotation_submit
from labeling.services.projects.edit import project_update
from labeling.services.projects.metrics import (
    REFRESH_TASK,
    metrics_get,
    metrics_refresh,
    project_stats_get,
    refresh_interval,
)
from labeling.services.projects.metrics_version import metrics_version_get
from labeling.services.queue.claim import task_claim_next
from tests.factories import MembershipFactory
from tests.metrics.test_metrics_version import World

pytestmark = pytest.mark.django_db

SLOW_MS = 1_000  # a computation as the 10k project's (docs/benchmarks.md)


@pytest.fixture
def world(settings) -> World:
    settings.METRICS_LIVE_MAX_ANNOTATIONS = 1_000
    settings.METRICS_LIVE_MAX_MS = 150
    settings.METRICS_REFRESH_DUTY = 10
    settings.METRICS_REFRESH_MIN_SECONDS = 5
    return World()


def _fresh(project) -> dict:
    return json.loads(json.dumps(project_metrics_by_domain(project), cls=DjangoJSONEncoder))


def _submit(world: World, user) -> None:
    claim = task_claim_next(project=world.project, user=user)
    annotation_submit(
        annotation=claim.annotation,
        user=user,
        version=claim.annotation.version,
        labels=world.labels(claim.annotation, [1, -1, 1]),
    )


def _slow_snapshot(world: World) -> dict:
    """The metrics computed now (no snapshot yet), their computation then recorded as slow."""
    first = metrics_get(project=world.project)
    assert not first.cached and first.data == _fresh(world.project)
    MetricsSnapshot.objects.filter(project=world.project).update(duration_ms=SLOW_MS)
    return first.data


def test_a_slow_snapshot_behind_is_served_with_its_age_in_one_statement(
    world, django_assert_num_queries, django_capture_on_commit_callbacks
):
    before = _slow_snapshot(world)
    computed_at = MetricsSnapshot.objects.get(project=world.project).computed_at
    version = metrics_version_get(project_id=world.project.pk)
    _submit(world, world.c)
    moved = metrics_version_get(project_id=world.project.pk) - version
    assert moved >= 1
    # One statement: the snapshot with the version; nothing computed, nothing queued.
    with django_capture_on_commit_callbacks() as queued, django_assert_num_queries(1):
        answer = metrics_get(project=world.project)
    assert answer.cached and not answer.refreshing and not queued
    assert answer.data == before != _fresh(world.project)  # as of computed_at, said so
    assert answer.computed_at == computed_at and answer.changes_since == moved


def test_the_project_stats_come_from_the_same_snapshot(world, django_assert_num_queries):
    """The dashboard's other request: the project's stats, one moment with the metrics."""
    _slow_snapshot(world)
    counted = project_stats(project=world.project)
    snapshot = MetricsSnapshot.objects.get(project=world.project)
    _submit(world, world.c)
    with django_assert_num_queries(1):
        answer = project_stats_get(project=world.project)
    assert answer.stats == counted != project_stats(project=world.project)
    assert answer.computed_at == snapshot.computed_at  # the page says when they were counted
    MetricsSnapshot.objects.filter(project=world.project).update(duration_ms=150)  # cheap
    now = project_stats_get(project=world.project)
    assert now.stats == project_stats(project=world.project) and now.computed_at is None


def test_past_its_interval_one_refresh_is_queued_and_brings_it_back_exact(
    world, django_capture_on_commit_callbacks
):
    before = _slow_snapshot(world)
    _submit(world, world.c)
    snapshot = MetricsSnapshot.objects.get(project=world.project)
    assert refresh_interval(snapshot) == timedelta(seconds=10)  # 10 x 1 s
    MetricsSnapshot.objects.filter(project=world.project).update(
        computed_at=snapshot.computed_at - timedelta(seconds=11)
    )
    with django_capture_on_commit_callbacks() as queued:
        answer = metrics_get(project=world.project)
        again = metrics_get(project=world.project)  # pending: nothing more queued
    assert len(queued) == 1
    assert answer.refreshing and again.refreshing and answer.data == again.data == before
    assert answer.changes_since == again.changes_since >= 1
    metrics_refresh(project=world.project)  # what the queued task runs
    served = metrics_get(project=world.project)
    assert served.cached and not served.refreshing and served.changes_since == 0
    assert served.data == _fresh(world.project)


def test_a_cheap_computation_is_still_live_and_refresh_computes_any_small_one(world):
    _slow_snapshot(world)
    MetricsSnapshot.objects.filter(project=world.project).update(duration_ms=150)
    _submit(world, world.c)
    live = metrics_get(project=world.project)  # 150 ms: within the budget
    assert not live.cached and live.changes_since == 0 and live.data == _fresh(world.project)
    MetricsSnapshot.objects.filter(project=world.project).update(duration_ms=SLOW_MS)
    project_update(project=world.project, overlap=2)  # a write the metrics read
    assert metrics_get(project=world.project).cached  # slow: served
    asked = metrics_get(project=world.project, refresh=True)
    assert not asked.cached and asked.data == _fresh(world.project)


def test_refresh_interval_is_its_duration_times_the_duty_within_bounds(settings):
    settings.METRICS_REFRESH_DUTY = 10
    settings.METRICS_REFRESH_MIN_SECONDS = 5
    settings.METRICS_MAX_AGE_SECONDS = 900
    for duration_ms, seconds in ((0, 5), (400, 5), (2_000, 20), (14_000, 140), (10**7, 900)):
        snapshot = MetricsSnapshot(duration_ms=duration_ms)
        assert refresh_interval(snapshot) == timedelta(seconds=seconds)


def test_the_api_says_how_old_the_numbers_are(world, django_capture_on_commit_callbacks):
    _slow_snapshot(world)
    reviewer = world.reviewer
    MembershipFactory(project=world.project, user=reviewer, role="reviewer")
    client = APIClient()
    client.force_authenticate(reviewer)
    url = f"/api/projects/{world.project.pk}/metrics/"
    assert client.get(url).json()["changes_since"] == 0
    _submit(world, world.c)
    body = client.get(url).json()
    assert body["cached"] is True and body["changes_since"] >= 1 and body["refreshing"] is False
    MetricsSnapshot.objects.filter(project=world.project).update(
        computed_at=MetricsSnapshot.objects.get(project=world.project).computed_at
        - timedelta(minutes=1)
    )
    with django_capture_on_commit_callbacks() as queued:
        assert client.get(url).json()["refreshing"] is True
    assert len(queued) == 1
    assert REFRESH_TASK == "labeling.tasks.project_metrics_refresh_task"
