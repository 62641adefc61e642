"""Labeling stays fast as an auto-label run piles up suggestions: the claim's and the submit's
statements that read labeling_suggestion keep index plans when the planner's statistics are
stale, i.e. when the table was last analyzed empty (right after an import without labels) and
a run then wrote many rows before autovacuum's ANALYZE. Proven from PostgreSQL's plans of the
statements a real claim and a real submit run, before and after the rows are written.

The rows are written in the test's transaction, which autovacuum cannot see: its statistics
stay those of the empty table."""

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from labeling.services.labeling.annotations import annotation_submit
from labeling.services.queue.claim import task_claim_next
from tests.factories import MembershipFactory, ProblemFactory, ProjectFactory, UserFactory

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

SOLUTIONS = 3000
STEPS = 6  # a solution
SOURCES = ("symbolic", "answer", "consensus")  # a run's suggestions a step
MAX_SUGGESTION_ROWS = 100  # rows of labeling_suggestion one statement may read


def _seed(project, problem) -> None:
    with connection.cursor() as cursor:
        cursor.execute(
            """
            INSERT INTO labeling_solution (project_id, problem_id, generator, final_answer,
                answer_correct, source, external_id, metadata, submitted_count, is_gold,
                review_reasons, queue_open, created_at)
            SELECT %s, %s, 'bench', '', NULL, '', '', '{}'::jsonb, 0, false, 0, true, now()
            FROM generate_series(1, %s)
            """,
            [project.pk, problem.pk, SOLUTIONS],
        )
        cursor.execute(
            """
            INSERT INTO labeling_step (solution_id, "index", text, metadata, uses, uses_source)
            SELECT s.id, i, 'Step ' || i || ': $1 + 1 = 2$', '{}'::jsonb, '[]'::jsonb, ''
            FROM labeling_solution s, generate_series(0, %s) AS i WHERE s.project_id = %s
            """,
            [STEPS - 1, project.pk],
        )
        cursor.execute("ANALYZE")  # the suggestion table is analyzed empty


def _pile_up(project) -> int:
    """A run's suggestions on every step (source by source), no ANALYZE after."""
    with connection.cursor() as cursor:
        for source in SOURCES:
            cursor.execute(
                """
                INSERT INTO labeling_suggestion (step_id, source, agent, value, score, evidence,
                    created_at, updated_at)
                SELECT st.id, %s, '', CASE WHEN st."index" = 3 THEN -1 ELSE 1 END, 0.9,
                    '{}'::jsonb, now(), now()
                FROM labeling_step st JOIN labeling_solution s ON s.id = st.solution_id
                WHERE s.project_id = %s
                """,
                [source, project.pk],
            )
        cursor.execute("SELECT COUNT(*) FROM labeling_suggestion")
        return cursor.fetchone()[0]


def _walk(node: dict):
    yield node
    for child in node.get("Plans", []):
        yield from _walk(child)


def _plans(sqls: list[str]) -> list[tuple[str, list[dict]]]:
    """Per statement that reads labeling_suggestion: its plan's nodes on that table. A SELECT
    is run (EXPLAIN ANALYZE: actual rows), a writing statement only planned."""
    found = []
    with connection.cursor() as cursor:
        for sql in sqls:
            if "labeling_suggestion" not in sql:
                continue
            analyze = "ANALYZE, BUFFERS, " if sql.lstrip().startswith("SELECT") else ""
            cursor.execute(f"EXPLAIN ({analyze}FORMAT JSON) {sql}")
            plan = cursor.fetchone()[0]
            plan = (json.loads(plan) if isinstance(plan, str) else plan)[0]["Plan"]
            nodes = [n for n in _walk(plan) if n.get("Relation Name") == "labeling_suggestion"]
            found.append((sql, nodes))
    return found


def _claim_and_submit(project, user) -> list[str]:
    with CaptureQueriesContext(connection) as queries:
        claim = task_claim_next(project=project, user=user)
        assert claim is not None
        steps = list(claim.annotation.solution.steps.order_by("index").values_list("pk", flat=True))
        annotation_submit(
            annotation=claim.annotation,
            user=user,
            version=claim.annotation.version,
            labels=[{"step_id": pk, "rating": 1} for pk in steps],
        )
    return [q["sql"] for q in queries.captured_queries]


def _assert_index_plans(plans: list[tuple[str, list[dict]]]) -> None:
    assert plans, "no statement of the claim or the submit read labeling_suggestion"
    for sql, nodes in plans:
        assert nodes, sql  # the statement names the table: it has a node on it
        for node in nodes:
            assert node["Node Type"] != "Seq Scan", sql
            rows = node.get("Actual Rows", 0) + node.get("Rows Removed by Filter", 0)
            assert rows * node.get("Actual Loops", 1) <= MAX_SUGGESTION_ROWS, (rows, sql)


def test_claim_and_submit_keep_index_plans_as_suggestions_pile_up():
    project = ProjectFactory(overlap=1, show_suggestions=True)
    _seed(project, ProblemFactory(project=project))
    users = UserFactory.create_batch(2)
    for user in users:
        MembershipFactory(project=project, user=user, role="annotator")

    _claim_and_submit(project, users[0])  # on the empty table (a scan of nothing is cheap)
    written = _pile_up(project)
    assert written == SOLUTIONS * STEPS * len(SOURCES)
    with connection.cursor() as cursor:
        cursor.execute("SELECT reltuples FROM pg_class WHERE oid = 'labeling_suggestion'::regclass")
        assert cursor.fetchone()[0] <= 0  # the statistics still say empty
    sqls = _claim_and_submit(project, users[1])
    shown = [sql for sql in sqls if "labeling_suggestion" in sql]
    assert any("shown_suggestions" in sql for sql in shown)  # the claim's page read
    plans = _plans(sqls)
    _assert_index_plans(plans)
