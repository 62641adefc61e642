"""The review queue's states read a bounded number of resolutions, whatever the project's size:
from PostgreSQL's plans (EXPLAIN (ANALYZE, FORMAT JSON)) of the page and the capped counts of
the resolved and unresolved states, on a project of 5,000 labeled solutions, 30% resolved. A
sequential scan of the resolutions (a semi or anti join hashing every one first, what an
EXISTS became: 137-194 ms a count at a million solutions) fails the test. The counts are one
statement that reads no annotation ("has a submission" is Solution.has_submission), and the
"rest" page and count walk only the solutions they show, not the unlabeled ones."""

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from labeling.models import Project
from labeling.selectors.review import (
    count_capped,
    review_queue,
    review_queue_counts,
    review_queue_counts_bounded,
)
from tests.factories import ProblemFactory, ProjectFactory, UserFactory

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db,
    pytest.mark.usefixtures("vacuumed_database"),
]

N = 5_000


def _unlabeled(project: Project, problem, n: int) -> None:
    """`n` solutions without a submission (mask 0, like "rest")."""
    with connection.cursor() as cursor:
        cursor.execute(
            """
            INSERT INTO labeling_solution (project_id, problem_id, generator, final_answer,
                answer_correct, source, external_id, metadata, submitted_count, is_gold,
                review_reasons, queue_open, created_at)
            SELECT %s, %s, 'bench', '', NULL, '', '', '{}', 0, false, 0, true, now()
            FROM generate_series(1, %s)
            """,
            [project.pk, problem.pk, n],
        )


def _seed(project: Project, problem, reviewer) -> None:
    """N solutions with one submitted annotation each (as the services leave them: the
    stored mask i % 32, has_submission), 30% resolved."""
    with connection.cursor() as cursor:
        cursor.execute(
            """
            INSERT INTO labeling_solution (project_id, problem_id, generator, final_answer,
                answer_correct, source, external_id, metadata, submitted_count, is_gold,
                review_reasons, queue_open, created_at, has_submission)
            SELECT %s, %s, 'bench', '', NULL, '', '', '{}', 1, false, i %% 32, false, now(),
                true
            FROM generate_series(1, %s) AS i
            """,
            [project.pk, problem.pk, N],
        )
        cursor.execute(
            """
            INSERT INTO labeling_annotation (solution_id, annotator_id, external_annotator,
                status, finish_reason, finish_reason_text, time_spent_ms, version, imported,
                shown_suggestions, created_at, updated_at, submitted_at)
            SELECT id, NULL, 'x', 'submitted', 'solution', '', 0, 1, true, '[]', now(), now(),
                now()
            FROM labeling_solution WHERE project_id = %s AND has_submission
            """,
            [project.pk],
        )
        cursor.execute(
            """
            INSERT INTO labeling_resolution (solution_id, provenance, first_error_index,
                resolved_by_id, review_id, is_current, supersedes_id, created_at)
            SELECT id, 'reviewer', NULL, %s, NULL, true, NULL, now()
            FROM labeling_solution WHERE project_id = %s AND has_submission AND id %% 10 < 3
            """,
            [reviewer.pk, project.pk],
        )
        cursor.execute("ANALYZE labeling_solution")
        cursor.execute("ANALYZE labeling_annotation")
        cursor.execute("ANALYZE labeling_resolution")
    Project.objects.filter(pk=project.pk).update(review_reasons_stored=True)
    project.review_reasons_stored = True


def _nodes(node: dict):
    yield node
    for child in node.get("Plans", []):
        yield from _nodes(child)


def _plan(sql: str, params) -> dict:
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) " + sql, params)
        plan = cursor.fetchone()[0]
    return (json.loads(plan) if isinstance(plan, str) else plan)[0]["Plan"]


@pytest.mark.parametrize("state", ["resolved", "unresolved"])
def test_a_state_probes_resolutions_per_row(state):
    project = ProjectFactory(overlap=1)
    _seed(project, ProblemFactory(project=project), UserFactory())
    with CaptureQueriesContext(connection) as captured:
        count, capped = count_capped(review_queue(project=project, state=state))
        page = list(review_queue(project=project, state=state)[:50])
    assert capped and count == 1_000  # 1,500 resolved, 3,500 unresolved: both over the cap
    assert len(page) == 50
    assert all((s.resolution_id is not None) == (state == "resolved") for s in page)
    for query in captured.captured_queries:
        sql = query["sql"]
        plan = _plan(sql, None)
        scans = [
            n
            for n in _nodes(plan)
            if n.get("Relation Name") == "labeling_resolution" and n["Node Type"] == "Seq Scan"
        ]
        assert not scans, f"{state}: a sequential scan of the resolutions in {sql[:200]}"
        assert not any(
            n["Node Type"] == "Hash" and "labeling_resolution" in json.dumps(n)
            for n in _nodes(plan)
        ), f"{state}: every resolution hashed in {sql[:200]}"


def _solution_scans(plan: dict) -> list[dict]:
    return [n for n in _nodes(plan) if n.get("Relation Name") == "labeling_solution"]


@pytest.mark.parametrize("state", ["resolved", "unresolved"])
def test_the_counts_read_no_annotation(state):
    """Every count walks solution_queued_idx (the solutions with a submission): no annotation
    is probed. Before the stored marker, the mask-0 rows were probed one by one, and before
    that every row each of the six capped counts walked (about 1,400 at a million solutions,
    bench/scale_bench.py)."""
    project = ProjectFactory(overlap=1)
    problem = ProblemFactory(project=project)
    _unlabeled(project, problem, 2_000)
    _seed(project, problem, UserFactory())
    with CaptureQueriesContext(connection) as captured:
        counts, capped = review_queue_counts_bounded(project=project, state=state)
    exact = review_queue_counts(project=project, state=state)
    assert counts == {name: min(n, 1_000) for name, n in exact.items()}
    assert set(capped) == {name for name, n in exact.items() if n > 1_000}
    assert len(captured.captured_queries) == 1  # the seven counts, one statement
    plan = _plan(captured.captured_queries[0]["sql"], None)
    assert not [n for n in _nodes(plan) if n.get("Relation Name") == "labeling_annotation"]
    scans = _solution_scans(plan)
    assert scans and all(n["Node Type"] != "Seq Scan" for n in scans)
    # The total's walk (the queue's order) is the index of the solutions with a submission.
    assert any(n.get("Index Name") == "solution_queued_idx" for n in scans)


def test_the_rest_page_and_count_read_only_what_they_show():
    """ "rest" (no stored reason, a submission) among 2,000 unlabeled solutions that come first
    in id order, mask 0 too: its page and its count are a range of solution_queued_idx, which
    holds no unlabeled solution, so each reads the rows it shows or counts and no more. Before,
    the count read cap + 1 mask-0 rows and said "n or more" (at a million solutions about
    "120+" for 1,000 agreeing ones among 8,200 mask-0 rows), and the page walked the unlabeled
    ones, probing each for a submission."""
    project = ProjectFactory(overlap=1)
    problem = ProblemFactory(project=project)
    _unlabeled(project, problem, 2_000)
    _seed(project, problem, UserFactory())
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE labeling_solution")
    rest = N // 32  # the seeded mask-0 rows (i % 32 = 0), all with a submission
    assert review_queue_counts(project=project, state="all")["rest"] == rest

    with CaptureQueriesContext(connection) as captured:
        page = list(review_queue(project=project, state="all", reason="rest")[:50])
    assert len(page) == 50 and all(s.reasons == 0 and s.annotations_submitted for s in page)
    plan = _plan(captured.captured_queries[0]["sql"], None)
    scans = _solution_scans(plan)
    assert [n.get("Index Name") for n in scans] == ["solution_queued_idx"]
    assert scans[0]["Actual Rows"] * scans[0]["Actual Loops"] <= 50
    assert not scans[0].get("Rows Removed by Filter")
    # Per shown row, the page's columns (submitted count, last submission): 50 probes each.
    probes = [
        n["Actual Loops"] for n in _nodes(plan) if n.get("Relation Name") == "labeling_annotation"
    ]
    assert probes and max(probes) <= 50, probes

    for cap, expected, over in ((50, 50, True), (300, rest, False)):
        with CaptureQueriesContext(connection) as captured:
            counts, capped = review_queue_counts_bounded(project=project, state="all", cap=cap)
        assert counts["rest"] == expected and ("rest" in capped) == over
        plan = _plan(captured.captured_queries[0]["sql"], None)
        mask_0 = [
            n
            for n in _solution_scans(plan)
            if "review_reasons <= 0" in n.get("Index Cond", "")
            or "review_reasons = 0" in n.get("Index Cond", "")
        ]
        assert len(mask_0) == 1, [n.get("Index Cond") for n in _solution_scans(plan)]
        (walk,) = mask_0
        assert walk["Index Name"] == "solution_queued_idx"
        assert walk["Actual Rows"] * walk["Actual Loops"] == min(rest, cap + 1)
        assert not walk.get("Rows Removed by Filter")
