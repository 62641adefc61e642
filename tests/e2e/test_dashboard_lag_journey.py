"""The dashboard while a team labels, in real Chromium: a project whose metrics computation is
not cheap is served from its snapshot after a submit, and the page says how old its numbers
are ("As of ...: 1 change since"); once the snapshot is past its refresh interval, the load
queues a refresh, a real worker computes it, and the page (asking again while it is queued)
shows the fresh numbers."""

import re
from datetime import timedelta

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from labeling.models import MetricsSnapshot, ProjectMembership, Role
from labeling.services.projects.metrics import metrics_get
from labeling.services.projects.metrics_version import metrics_version_get
from tests.e2e.helpers import login
from tests.metrics.test_metrics_lag import _submit
from tests.metrics.test_metrics_version import World

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _shot(name: str):
    from tests.e2e.conftest import SCREENSHOTS

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS / f"{name}.png"


def test_the_dashboard_says_how_old_its_numbers_are_while_people_label(
    live_server, browser, celery_worker_live, settings
):
    settings.METRICS_LIVE_MAX_ANNOTATIONS = 1_000
    settings.METRICS_LIVE_MAX_MS = 150
    call_command("load_demo")  # the demo reviewer
    world = World()
    from django.contrib.auth import get_user_model

    reviewer = get_user_model().objects.get(username="reviewer")
    ProjectMembership.objects.create(project=world.project, user=reviewer, role=Role.REVIEWER)
    metrics_get(project=world.project)  # the snapshot, then recorded as a slow computation
    slow = MetricsSnapshot.objects.filter(project=world.project)
    slow.update(duration_ms=60_000)  # refreshed at most every 10 minutes
    version = metrics_version_get(project_id=world.project.pk)
    _submit(world, world.c)  # someone labels
    behind = metrics_version_get(project_id=world.project.pk) - version

    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    base = live_server.url
    login(page, base, "reviewer", "steplab-reviewer")
    page.goto(f"{base}/projects/{world.project.pk}/dashboard")
    age = page.get_by_test_id("metrics-computed")
    changes = f"{behind} change{'' if behind == 1 else 's'} since"
    expect(age).to_contain_text(re.compile(rf"As of .+ \(snapshot\): {changes}\.$"))
    expect(page.get_by_test_id("stat-alpha")).to_be_visible()
    page.screenshot(path=str(_shot("dashboard-lag-01-as-of")), full_page=False)

    # Past its interval: this load queues the refresh, the worker computes it, the page asks
    # again while it is queued and shows the fresh numbers.
    slow.update(computed_at=slow.get().computed_at - timedelta(minutes=11))
    page.reload()
    expect(age).to_contain_text("Computed", timeout=30_000)
    expect(age).not_to_contain_text("since")
    assert slow.get().labels_version == metrics_version_get(project_id=world.project.pk)
    page.screenshot(path=str(_shot("dashboard-lag-02-refreshed")), full_page=False)
