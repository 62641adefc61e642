"""A claim reads a bounded number of rows, whatever the project's size: proven from
PostgreSQL's plans (EXPLAIN (ANALYZE, BUFFERS)) of every query a claim runs, on a project of
50,000 solutions of which most are done, with other annotators' live locks at the front of
the order, the user's own skips, and in both the default and the PRM active-learning order.
A sequential scan of the solutions, or a read of more than a few hundred of their rows,
fails the test."""

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from labeling.models import Annotation, AnnotationStatus, Solution, TaskLock
from labeling.selectors.labeling_page import REMAINING_CAP, project_progress_for_user
from labeling.services.queue.claim import task_claim_next
from tests.factories import ProblemFactory, ProjectFactory, UserFactory
from training_runs.active_learning import queue_order_set

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db,
    pytest.mark.usefixtures("vacuumed_database"),
]

N = 50_000
DONE = 40_000  # the first 40k are complete: not in the claim pool
LOCKED = 32  # other annotators' live locks on the first open solutions
MAX_SOLUTION_ROWS = 300  # rows of labeling_solution one claim's queries may read, all told
MAX_BUFFERS = 3000  # 8 KiB pages one claim's queries may touch, all told


def _seed(project, problem) -> None:
    with connection.cursor() as cursor:
        cursor.execute(
            """
            INSERT INTO labeling_solution (project_id, problem_id, generator, final_answer,
                answer_correct, source, external_id, metadata, submitted_count, is_gold,
                review_reasons, queue_open, created_at)
            SELECT %s, %s, 'bench', '', (i %% 3 = 0), '', '', CASE WHEN i %% 4 = 0 THEN
                jsonb_build_object('prm', jsonb_build_object('min_probability', (i %% 97) / 97.0,
                'first_error', NULL, 'threshold', 0.5,
                'uncertainty', abs((i %% 97) / 97.0 - 0.5))) ELSE '{}'::jsonb END,
                CASE WHEN i <= %s THEN 1 ELSE 0 END, false, 0, i > %s, now()
            FROM generate_series(1, %s) AS i
            """,
            [project.pk, problem.pk, DONE, DONE, N],
        )
        cursor.execute("ANALYZE labeling_solution")


def _walk(node: dict):
    yield node
    for child in node.get("Plans", []):
        yield from _walk(child)


def _explain(sql: str) -> dict:
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) " + sql)
        plan = cursor.fetchone()[0]
    return (json.loads(plan) if isinstance(plan, str) else plan)[0]["Plan"]


def _cost(call) -> tuple[int, int, list[str]]:
    """(solution rows read, buffers touched, node types on labeling_solution) over every
    SELECT that `call` ran, each replayed under EXPLAIN ANALYZE."""
    with CaptureQueriesContext(connection) as queries:
        assert call() is not None
    rows = buffers = 0
    scans: list[str] = []
    for query in queries.captured_queries:
        sql = query["sql"]
        if not sql.startswith("SELECT") or "labeling_solution" not in sql:
            continue
        plan = _explain(sql)
        buffers += plan.get("Shared Hit Blocks", 0) + plan.get("Shared Read Blocks", 0)
        for node in _walk(plan):
            if node.get("Relation Name") != "labeling_solution":
                continue
            scans.append(node["Node Type"])
            loops = node.get("Actual Loops", 1)
            rows += (node.get("Actual Rows", 0) + node.get("Rows Removed by Filter", 0)) * loops
    return rows, buffers, scans


@pytest.fixture(scope="module")
def _big_project_rows(django_db_setup, django_db_blocker):
    """The 50,000 solutions, locks and skips, committed once for this module's tests (each
    test runs in a transaction rolled back to them), then flushed as a transactional test's
    data is. Seeding them per test took 10-30 s each on a loaded machine."""
    from django.core.management import call_command

    with django_db_blocker.unblock():
        project = ProjectFactory(overlap=1)
        _seed(project, ProblemFactory(project=project))
        first_open = list(
            Solution.objects.filter(project=project, queue_open=True)
            .order_by("id")
            .values_list("pk", flat=True)[: LOCKED + 8]
        )
        later = timezone.now() + timezone.timedelta(minutes=30)
        for solution_id in first_open[:LOCKED]:
            TaskLock.objects.create(solution_id=solution_id, user=UserFactory(), expires_at=later)
        user = UserFactory(username="claimer")
        for solution_id in first_open[LOCKED : LOCKED + 5]:
            Annotation.objects.create(
                solution_id=solution_id, annotator=user, status=AnnotationStatus.DISCARDED
            )
    yield project.pk, user.pk, first_open
    with django_db_blocker.unblock():
        call_command("flush", interactive=False, verbosity=0)
        # The flush DELETEs (tests/conftest.py): 50,000 dead rows and their index entries
        # would stay in the files, and the committed ANALYZE of them in the statistics. Later
        # plan tests on this database (tests/review/test_queue_plans.py, an xdist worker's
        # next module) must see empty tables: VACUUM gives the pages back, ANALYZE the counts.
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")


@pytest.fixture
def big_project(db, _big_project_rows):
    from django.contrib.auth import get_user_model
    from django.core.cache import cache

    from labeling.models import Project

    cache.clear()  # the project's counted size, cached a minute, is this test's to count
    project_id, user_id, first_open = _big_project_rows
    return Project.objects.get(pk=project_id), get_user_model().objects.get(pk=user_id), first_open


def _assert_bounded(project, user, expected: int | None) -> None:
    rows, buffers, scans = _cost(lambda: task_claim_next(project=project, user=user))
    assert "Seq Scan" not in scans, scans
    assert rows <= MAX_SOLUTION_ROWS, (rows, scans)
    assert buffers <= MAX_BUFFERS, buffers
    if expected is not None:
        claimed = Annotation.objects.filter(annotator=user, status=AnnotationStatus.DRAFT)
        assert claimed.get().solution_id == expected


def test_default_order_reads_a_bounded_number_of_rows(big_project):
    project, user, first_open = big_project
    # Past the locked ones and the user's skips: the next open solution in id order.
    _assert_bounded(project, user, first_open[LOCKED + 5])


def test_prm_order_reads_a_bounded_number_of_rows(big_project):
    project, user, _ = big_project
    queue_order_set(project=project, order="prm_active")
    _assert_bounded(project, user, None)
    claimed = Annotation.objects.get(annotator=user, status=AnnotationStatus.DRAFT).solution
    # The most convincing wrong answer among the open ones (answer_correct False, scored).
    assert claimed.answer_correct is False and claimed.metadata["prm"]["min_probability"] > 0.9


def test_skipped_ones_come_last_and_stay_bounded(big_project):
    """Every open solution is held by someone else or skipped by the user: the claim falls
    through the pool to the user's skips, still without scanning the project."""
    project, user, first_open = big_project
    later = timezone.now() + timezone.timedelta(minutes=30)
    others = UserFactory.create_batch(3)
    locks = [
        TaskLock(solution_id=pk, user=others[pk % 3], expires_at=later)
        for pk in Solution.objects.filter(project=project, queue_open=True)
        .exclude(pk__in=first_open[: LOCKED + 5])
        .values_list("pk", flat=True)
    ]
    TaskLock.objects.bulk_create(locks)
    # The pool walk now reads every locked open row: bounded by the locks, i.e. by how many
    # annotators work at once, not by the project. Here that is all 10,000 open rows, so
    # only the skipped phase's own read is checked for the bound.
    with CaptureQueriesContext(connection) as queries:
        claim = task_claim_next(project=project, user=user)
    assert claim.annotation.solution_id == first_open[LOCKED]
    last = [q["sql"] for q in queries.captured_queries if "labeling_solution" in q["sql"]][-4:]
    assert any("discarded" in sql for sql in last)


def test_progress_counts_a_bounded_number_of_rows(big_project):
    """The labeling page's top bar (fetched after every claim) counts up to its cap; the
    project's size is counted once a minute (cached), so only the first call scans."""
    project, user, _ = big_project
    assert project_progress_for_user(project=project, user=user)["project_total"] == N
    progress = {}
    rows, buffers, scans = _cost(
        lambda: progress.update(project_progress_for_user(project=project, user=user)) or 1
    )
    assert progress["remaining"] == REMAINING_CAP and progress["remaining_capped"]
    assert "Seq Scan" not in scans, scans
    assert rows <= REMAINING_CAP + MAX_SOLUTION_ROWS, rows
    assert progress["project_total"] == N
