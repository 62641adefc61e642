"""The review queue's states read a bounded number of resolutions, whatever the project's size:
from PostgreSQL's plans (EXPLAIN (ANALYZE, FORMAT JSON)) of the page and the capped counts of
the resolved and unresolved states, on a project of 5,000 labeled solutions, 30% resolved. A
sequential scan of the resolutions (a semi or anti join hashing every one first, what an
EXISTS became: 137-194 ms a count at a million solutions) fails the test. The counts are one
statement that probes the annotations only for solutions without a stored reason."""

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

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

N = 5_000


def _seed(project: Project, problem, reviewer) -> None:
    with connection.cursor() as cursor:
        cursor.execute(
            """
            INSERT INTO labeling_solution (project_id, problem_id, generator, final_answer,
                answer_correct, source, external_id, metadata, submitted_count, is_gold,
                review_reasons, queue_open, created_at)
            SELECT %s, %s, 'bench', '', NULL, '', '', '{}', 1, false, i %% 32, false, now()
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
            FROM labeling_solution WHERE project_id = %s
            """,
            [project.pk],
        )
        cursor.execute(
            """
            INSERT INTO labeling_resolution (solution_id, provenance, first_error_index,
                resolved_by_id, review_id, is_current, supersedes_id, created_at)
            SELECT id, 'reviewer', NULL, %s, NULL, true, NULL, now()
            FROM labeling_solution WHERE project_id = %s AND id %% 10 < 3
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
        cursor.execute("EXPLAIN (ANALYZE, FORMAT JSON) " + sql, params)
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


@pytest.mark.parametrize("state", ["resolved", "unresolved"])
def test_the_counts_probe_annotations_only_where_no_reason_is_stored(state):
    """A stored reason comes from a submitted annotation: only the mask-0 rows (1 in 32 here)
    are probed for one. Before, each of the six capped counts probed every row it walked,
    about 1,400 of them at a million solutions (bench/scale_bench.py)."""
    project = ProjectFactory(overlap=1)
    _seed(project, ProblemFactory(project=project), UserFactory())
    with CaptureQueriesContext(connection) as captured:
        counts, capped = review_queue_counts_bounded(project=project, state=state)
    exact = review_queue_counts(project=project, state=state)
    assert counts == {name: min(n, 1_000) for name, n in exact.items()}
    assert set(capped) == {name for name, n in exact.items() if n > 1_000}
    assert len(captured.captured_queries) == 1  # the seven counts, one statement
    plan = _plan(captured.captured_queries[0]["sql"], None)
    probes = [
        n["Actual Loops"] for n in _nodes(plan) if n.get("Relation Name") == "labeling_annotation"
    ]
    # At most the total's walk and the rest's reach mask-0 rows, each probing those alone.
    mask_0 = N // 32
    assert probes and len(probes) <= 2, f"{state}: annotation probed by {len(probes)} counts"
    assert max(probes) <= mask_0, f"{state}: {probes} annotation probes, {mask_0} mask-0 rows"


def test_the_rest_count_walks_no_more_solutions_than_the_cap():
    """Mask 0 holds the unlabeled solutions as well as the agreeing ones ("rest"): a walk until
    the cap's thousandth "rest" read 8,200 mask-0 rows at a million solutions, probing each for
    a submission. The count now reads at most cap + 1 of them and says "or more" when it
    stopped early, and is exact where the walk reached the last mask-0 solution."""
    project = ProjectFactory(overlap=1)
    _seed(project, ProblemFactory(project=project), UserFactory())
    problem = ProblemFactory(project=project)
    with connection.cursor() as cursor:  # 2,000 unlabeled solutions, ids after the seeded ones
        cursor.execute(
            """
            INSERT INTO labeling_solution (project_id, problem_id, generator, final_answer,
                answer_correct, source, external_id, metadata, submitted_count, is_gold,
                review_reasons, queue_open, created_at)
            SELECT %s, %s, 'bench', '', NULL, '', '', '{}', 0, false, 0, true, now()
            FROM generate_series(1, 2000)
            """,
            [project.pk, problem.pk],
        )
        cursor.execute("ANALYZE labeling_solution")
    exact = review_queue_counts(project=project, state="all")["rest"]
    assert exact == N // 32  # the seeded mask-0 rows (i % 32 = 0), all with a submission
    cap = 50
    with CaptureQueriesContext(connection) as captured:
        counts, capped = review_queue_counts_bounded(project=project, state="all", cap=cap)
    assert counts["rest"] == cap and "rest" in capped  # the 156 agreeing ones come first
    plan = _plan(captured.captured_queries[0]["sql"], None)
    probes = [
        n["Actual Loops"] for n in _nodes(plan) if n.get("Relation Name") == "labeling_annotation"
    ]
    assert max(probes) <= cap + 1, f"{probes} annotation probes for a cap of {cap}"

    # A cap above the agreeing ones: the walk reads cap + 1 rows, most of them unlabeled, and
    # the count is what it found, "or more" (not the 156 a walk to the end would find).
    cap = 300
    with CaptureQueriesContext(connection) as captured:
        counts, capped = review_queue_counts_bounded(project=project, state="all", cap=cap)
    assert counts["rest"] == exact and "rest" in capped
    plan = _plan(captured.captured_queries[0]["sql"], None)
    mask_0 = [
        n
        for n in _nodes(plan)
        if n.get("Relation Name") == "labeling_solution"
        and "review_reasons = 0" in n.get("Index Cond", "") + n.get("Filter", "")
    ]
    assert mask_0 and all(n["Actual Rows"] * n["Actual Loops"] <= cap + 1 for n in mask_0)

    # Past the last mask-0 solution the count is exact and not capped.
    counts, capped = review_queue_counts_bounded(project=project, state="all", cap=5_000)
    assert counts["rest"] == exact and "rest" not in capped
