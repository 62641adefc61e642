"""The Assignments tab's per-source counts (issue 26): a large project's come from stored rows
(no statement over its solutions), exact while nothing they count changed; each write that
changes them leaves them behind (served with `as_of`), and the refresh brings them back equal
to a live count. SOURCE_COUNTS_LIVE_MAX = 0 makes every project with a solution "large"."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from labeling.models import OutboxMessage, Solution, SourceCountsSnapshot
from labeling.selectors.admin import problem_source_list
from labeling.services.gold.questions import gold_set, gold_unset
from labeling.services.imports import import_file
from labeling.services.labeling.annotations import annotation_submit
from labeling.services.projects.edit import project_update
from labeling.services.projects.explorer import explorer_bulk
from labeling.services.queue.assignments import assignment_clear, assignment_create
from labeling.services.queue.claim import task_claim_next
from labeling.services.queue.source_counts import (
    REFRESH_TASK,
    source_counts_get,
    source_counts_refresh,
)
from labeling.services.review.actions import review_reject
from tests.importers.conftest import DATA
from tests.metrics.test_metrics_version import World
from tests.review.conftest import member

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(settings) -> World:
    settings.SOURCE_COUNTS_LIVE_MAX = 0
    settings.METRICS_LIVE_MAX_ANNOTATIONS = 1_000
    world = World()
    problem = world.pair.problem
    problem.source = "olympiad"
    problem.save()
    return world


def _live(project) -> list[dict]:
    return list(problem_source_list(project=project))


def _queued(project) -> int:
    return OutboxMessage.objects.filter(task=REFRESH_TASK, args=[project.pk]).count()


def _across(world: World, write) -> tuple[list[dict], list[dict]]:
    """(the counts before, after) `write()`: before it the stored counts are exact; after it
    they are served behind (`as_of`), and a refresh makes them equal to a live count."""
    project = world.project
    source_counts_refresh(project=project)
    exact = source_counts_get(project=project)
    before = list(exact.rows)
    assert exact.as_of is None and before == _live(project)
    write()
    project.refresh_from_db()
    behind = source_counts_get(project=project)
    assert behind.as_of is not None, "the write left the stored counts exact"
    assert list(behind.rows) == before  # served as stored, not counted
    source_counts_refresh(project=project)
    after = source_counts_get(project=project)
    assert after.as_of is None and list(after.rows) == _live(project)
    return before, list(after.rows)


def _by_source(rows: list[dict]) -> dict[str, tuple[int, int, int]]:
    return {r["problem__source"]: (r["solutions"], r["open"], r["unassigned"]) for r in rows}


def test_assignment_create_and_clear(world):
    user = world.c
    before, after = _across(
        world,
        lambda: assignment_create(project=world.project, user_ids=[user.pk], only_open=False),
    )
    assert sum(r["unassigned"] for r in before) == 2 and sum(r["unassigned"] for r in after) == 0
    _, cleared = _across(world, lambda: assignment_clear(project=world.project))
    assert cleared == before


def test_submit(world):
    claim = task_claim_next(project=world.project, user=world.c)

    def write() -> None:
        annotation_submit(
            annotation=claim.annotation,
            user=world.c,
            version=claim.annotation.version,
            labels=world.labels(claim.annotation, [1, 1, 1]),
        )

    before, after = _across(world, write)
    assert sum(r["open"] for r in after) == sum(r["open"] for r in before) - 1


def test_reject(world):
    Solution.objects.filter(pk=world.pair.pk).update(submitted_count=3)  # complete at 3
    before, after = _across(
        world,
        lambda: review_reject(annotation=world.second, reviewer=world.reviewer, comment="no"),
    )
    assert _by_source(before)["olympiad"][1] == 0 and _by_source(after)["olympiad"][1] == 1


def test_gold_set_and_unset(world):
    gold = [{"step_id": s.pk, "rating": 1} for s in world.pair.steps.order_by("index")]
    before, after = _across(world, lambda: gold_set(solution=world.pair, labels=gold))
    assert "olympiad" in _by_source(before) and "olympiad" not in _by_source(after)
    _, unset = _across(world, lambda: gold_unset(solution=world.pair))
    assert unset == before


def test_requeue_and_the_overlap(world):
    before, lowered = _across(world, lambda: project_update(project=world.project, overlap=2))
    assert _by_source(before)["olympiad"][1] == 1 and _by_source(lowered)["olympiad"][1] == 0
    _, requeued = _across(
        world,
        lambda: explorer_bulk(
            project=world.project, action="requeue", user=world.reviewer, ids=[world.pair.pk]
        ),
    )
    assert requeued == before


def test_an_import(world):
    before, after = _across(
        world,
        lambda: import_file(
            project=world.project, path=DATA / "prm800k_sample.jsonl", labels_as="annotations"
        ),
    )
    assert sum(r["solutions"] for r in after) > sum(r["solutions"] for r in before)


def test_a_large_projects_page_reads_no_solution(world):
    """The request's statements read the stored rows only: the old page was a GROUP BY over
    every solution of the project (and again for its count)."""
    project = world.project
    source_counts_refresh(project=project)
    admin = member(project, "boss", "admin")
    client = APIClient()
    client.force_authenticate(admin)
    with CaptureQueriesContext(connection) as queries:
        res = client.get(f"/api/projects/{project.pk}/problem-sources/")
    assert res.status_code == 200, res.content
    counted = [q["sql"] for q in queries if '"labeling_solution"' in q["sql"]]
    assert counted == []
    assert len(queries) <= 3 + 3  # the stored rows' page, count and header; auth and project
    body = res.json()
    assert body["as_of"] is None and body["refreshing"] is False
    assert body["count"] == 2 and [r["source"] for r in body["results"]] == ["", "olympiad"]
    assert {r["source"]: r["solutions"] for r in body["results"]} == {"": 1, "olympiad": 1}


def test_a_large_project_never_counted_queues_one_refresh(world):
    project = world.project
    first = source_counts_get(project=project)
    assert list(first.rows) == [] and first.refreshing and first.as_of is None
    again = source_counts_get(project=project)
    assert again.refreshing and _queued(project) == 1
    source_counts_refresh(project=project)  # what the task runs
    done = source_counts_get(project=project)
    assert not done.refreshing and list(done.rows) == _live(project)


def test_a_stale_snapshot_is_refreshed_once_due_and_once_only(world):
    project = world.project
    source_counts_refresh(project=project)
    assignment_create(project=project, user_ids=[world.c.pk], only_open=False)
    fresh = source_counts_get(project=project)  # behind, but just counted: not due yet
    assert fresh.as_of is not None and not fresh.refreshing and _queued(project) == 0
    old = timezone.now() - timedelta(hours=1)
    SourceCountsSnapshot.objects.filter(project=project).update(computed_at=old)
    due = source_counts_get(project=project)
    assert due.refreshing and due.as_of == old and _queued(project) == 1
    assert source_counts_get(project=project).refreshing and _queued(project) == 1


def test_a_small_project_is_counted_live(world, settings):
    settings.SOURCE_COUNTS_LIVE_MAX = 20_000
    project = world.project
    assignment_create(project=project, user_ids=[world.c.pk], only_open=False)
    answer = source_counts_get(project=project)
    assert answer.as_of is None and not answer.refreshing
    assert list(answer.rows) == _live(project) and _queued(project) == 0


def test_the_assignment_post_counts_no_sources(world):
    """Assigning chooses its solutions with its own filters; it runs no per-source count."""
    project = world.project
    admin = member(project, "boss", "admin")
    client = APIClient()
    client.force_authenticate(admin)
    body = {"user_ids": [world.c.pk], "source": "olympiad", "only_open": True}
    with CaptureQueriesContext(connection) as queries:
        res = client.post(f"/api/projects/{project.pk}/assignments/", body, format="json")
    assert res.status_code == 201, res.content
    assert res.json()["created"] == {str(world.c.pk): 1}
    assert not [q["sql"] for q in queries if "GROUP BY" in q["sql"]]


def test_the_task_counts_and_a_deleted_project_is_done(world):
    from labeling.tasks import source_counts_refresh_task

    project = world.project
    source_counts_get(project=project)  # never counted: queued
    assert source_counts_refresh_task(project.pk)  # as a worker runs it
    answer = source_counts_get(project=project)
    assert answer.as_of is None and not answer.refreshing and list(answer.rows) == _live(project)
    assert source_counts_refresh_task(10**9) == "deleted"
