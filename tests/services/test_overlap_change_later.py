"""An overlap change answers in a fixed number of statements whatever the project's size: the
request marks the project (`queue_refresh_since`) and queues a job that brings the claim
pool's stored flags to the new overlap range by range (labeling.services.queue.pool), and
clears the mark. Claims stay right meanwhile: none serves a solution past the live overlap."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from annotate.inflight import InFlight
from autolabel.recovery import lost_jobs
from labeling import tasks
from labeling.models import OutboxMessage, Project, Solution
from labeling.services.projects.edit import project_create, project_update
from labeling.services.queue import pool
from labeling.services.queue.claim import task_claim_next
from tests.factories import SolutionFactory, UserFactory
from tests.review.conftest import label, member
from tests.services.test_queue_open import assert_stored_equals_live

pytestmark = pytest.mark.django_db


def _project(n: int) -> Project:
    project = project_create(name=f"overlap {n}", created_by=UserFactory(), overlap=2)
    for _ in range(n):
        SolutionFactory(problem__project=project, steps=1)
    Solution.objects.filter(project=project).update(submitted_count=2, queue_open=False)
    return project


def _change(project: Project, overlap: int) -> list[str]:
    with CaptureQueriesContext(connection) as queries:
        project_update(project=project, overlap=overlap)
    return [q["sql"] for q in queries]


def test_an_overlap_change_writes_no_solution_in_the_request():
    few, many = _project(2), _project(40)
    small, large = _change(few, 3), _change(many, 3)
    assert len(small) == len(large)
    assert not [sql for sql in large if 'UPDATE "labeling_solution"' in sql]  # was one UPDATE
    many.refresh_from_db()
    assert many.queue_refresh_since is not None
    message = OutboxMessage.objects.get(task=pool.REFRESH_TASK, args=[many.pk])
    assert message.sent_at is None  # sent after the commit
    assert Solution.objects.filter(project=many, queue_open=True).count() == 0  # not yet
    assert tasks.project_queue_refresh_task(many.pk) == 40
    many.refresh_from_db()
    assert many.queue_refresh_since is None
    assert_stored_equals_live(many, "the job")
    assert Solution.objects.filter(project=many, queue_open=True).count() == 40


def test_the_api_shows_the_change_as_pending():
    from rest_framework.test import APIClient

    project = _project(3)
    admin = member(project, "boss", "admin")
    client = APIClient()
    client.force_authenticate(admin)
    response = client.patch(f"/api/projects/{project.pk}/", {"overlap": 3}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["queue_refresh_since"] is not None
    tasks.project_queue_refresh_task(project.pk)
    assert client.get(f"/api/projects/{project.pk}/").json()["queue_refresh_since"] is None


def test_claims_stay_right_while_the_change_is_pending():
    project = project_create(name="pending", created_by=UserFactory(), overlap=2)
    solution = SolutionFactory(problem__project=project, steps=1)
    a, c = member(project, "a"), member(project, "c")
    label(a, project, [1])
    project_update(project=project, overlap=1)  # the flag is still open: the job has not run
    assert Solution.objects.get(pk=solution.pk).queue_open
    assert task_claim_next(project=project, user=c) is None  # full at the live overlap
    tasks.project_queue_refresh_task(project.pk)
    assert not Solution.objects.get(pk=solution.pk).queue_open

    project_update(project=project, overlap=2)  # reopens it once the job has run
    assert task_claim_next(project=project, user=c) is None  # not yet in the pool
    tasks.project_queue_refresh_task(project.pk)
    claim = task_claim_next(project=project, user=c)
    assert claim is not None and claim.annotation.solution_id == solution.pk


def test_a_change_during_the_job_keeps_the_mark_for_its_own_job(monkeypatch):
    project = _project(3)
    project_update(project=project, overlap=3)
    fill = pool.queue_open_fill

    def fill_then_change(**kwargs):
        walked = fill(**kwargs)
        project_update(project=Project.objects.get(pk=project.pk), overlap=1)  # meanwhile
        return walked

    monkeypatch.setattr(pool, "queue_open_fill", fill_then_change)
    tasks.project_queue_refresh_task(project.pk)
    assert Project.objects.get(pk=project.pk).queue_refresh_since is not None
    monkeypatch.setattr(pool, "queue_open_fill", fill)
    tasks.project_queue_refresh_task(project.pk)  # the second change's job
    assert Project.objects.get(pk=project.pk).queue_refresh_since is None
    assert_stored_equals_live(project, "both jobs")


def test_a_lost_job_is_sent_again_by_the_recovery_sweep(settings):
    from datetime import timedelta

    from django.utils import timezone

    settings.RECOVERY_STALL_S = 60
    project = _project(2)
    project_update(project=project, overlap=3)
    OutboxMessage.objects.filter(task=pool.REFRESH_TASK).update(sent_at=timezone.now())  # sent
    held = InFlight(held=frozenset(), workers=1)
    assert lost_jobs(held=held, depth=lambda queue: 0) == []  # marked just now
    Project.objects.filter(pk=project.pk).update(
        queue_refresh_since=timezone.now() - timedelta(seconds=600)
    )
    lost = lost_jobs(held=held, depth=lambda queue: 0)
    assert [(kind.task, job.pk) for kind, job in lost] == [(pool.REFRESH_TASK, project.pk)]
