"""A real deadlock on PostgreSQL between two writers, retried (labeling.pg.db_retry).

Two annotators save drafts at the same moment through the API; each save, having locked its own
annotation's row, is made to lock the other's row too: opposite orders, a true deadlock that
PostgreSQL breaks by aborting one of them (SQLSTATE 40P01). The aborted save runs again and
both answer 200, each applied once; before the retry the loser answered 503.
"""

import threading

import pytest
from django.db import connection, connections
from rest_framework.test import APIClient

import labeling.services.labeling.annotations as annotations_module
from labeling.models import Annotation, LabelHistory
from labeling.services.queue.claim import task_claim_next
from tests.concurrency.threads import run_threads
from tests.factories import ProjectFactory, SolutionFactory
from tests.review.conftest import member

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _lock_row(annotation_id: int) -> None:
    with connection.cursor() as cursor:
        sql = "SELECT id FROM labeling_annotation WHERE id = %s FOR UPDATE"
        cursor.execute(sql, [annotation_id])


def test_two_draft_saves_that_deadlock_both_succeed(monkeypatch):
    assert connection.vendor == "postgresql"
    project = ProjectFactory(overlap=1)
    for _ in range(2):
        SolutionFactory(problem__project=project, steps=2)
    users = [member(project, name) for name in ("a", "b")]
    drafts = [task_claim_next(project=project, user=u).annotation for u in users]
    other = {drafts[0].pk: drafts[1].pk, drafts[1].pk: drafts[0].pk}
    barrier = threading.Barrier(2)
    attempts: dict[int, int] = {d.pk: 0 for d in drafts}
    deadlocks: list[str] = []
    real_extend = annotations_module.task_lock_extend

    def extend_then_cross_lock(*, annotation, project):
        lock = real_extend(annotation=annotation, project=project)
        attempts[annotation.pk] += 1
        if attempts[annotation.pk] == 1:  # first attempt only: own row locked, take the other
            barrier.wait(10)
            try:
                _lock_row(other[annotation.pk])
            except Exception as exc:
                deadlocks.append(getattr(exc.__cause__, "sqlstate", None))
                raise
        return lock

    monkeypatch.setattr(annotations_module, "task_lock_extend", extend_then_cross_lock)

    def save(i: int) -> int:
        client = APIClient()
        client.force_authenticate(users[i])
        draft = drafts[i]
        steps = draft.solution.steps.order_by("index").values_list("id", flat=True)
        body = {"version": draft.version, "labels": [{"step_id": s, "rating": 1} for s in steps]}
        response = client.put(f"/api/annotations/{draft.pk}/draft/", body, format="json")
        connections.close_all()
        return response.status_code

    assert run_threads(2, save) == [200, 200]
    assert deadlocks == ["40P01"]  # PostgreSQL aborted exactly one of them
    assert sorted(attempts.values()) == [1, 2]  # that one ran again, the other once
    for draft in drafts:
        assert Annotation.objects.get(pk=draft.pk).version == draft.version + 1
        assert LabelHistory.objects.filter(annotation=draft).count() == 2  # applied once
