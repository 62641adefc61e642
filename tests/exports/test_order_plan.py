"""The export's solutions query streams in order (PostgreSQL): it walks the project's
problems through problem_export_order_idx and sorts each problem's solutions, instead of
sorting every solution with its problem's text before the first row."""

import json

import pytest
from django.db import connection, transaction

from labeling.exporters.options import options_from
from labeling.exporters.raw import RawQuery
from labeling.exporters.source import _ordered_solutions
from labeling.services.imports import import_file
from tests.exports.conftest import steplab_file


def _plan(sql: str, params: list) -> dict:
    with transaction.atomic(), connection.cursor() as cursor:
        # Any plan that needs a sort of the whole set costs more than one that does not.
        cursor.execute("SET LOCAL enable_sort = off")
        cursor.execute("EXPLAIN (FORMAT JSON) " + sql, params)
        found = cursor.fetchone()[0]
    return (json.loads(found) if isinstance(found, str) else found)[0]["Plan"]


@pytest.mark.postgres  # a plan of PostgreSQL's (the index is made there only)
@pytest.mark.django_db
@pytest.mark.parametrize("label_source", ["imported", "final"])
def test_the_solutions_come_from_the_problems_index_without_a_full_sort(
    project, tmp_path, label_source
):
    import_file(
        project=project,
        path=steplab_file(tmp_path / "s.jsonl", 6),
        fmt="steplab",
        labels_as="annotations",
    )
    options = options_from(filters={"label_source": label_source})
    query = RawQuery(_ordered_solutions(project=project, options=options))
    plan = _plan(query.sql, query.params)
    assert plan["Node Type"] == "Incremental Sort", plan["Node Type"]
    assert "problem_export_order_idx" in json.dumps(plan)
