"""An import into a new project beside a big one plans its lookups on the indexes that find
each row, not as a walk of the project's rows (labeling.pg.opaque).

The import's rows are written inside its one transaction, where ANALYZE never saw them: the
statistics say the new project has no row, and a lookup written `project_id = <constant>`
was planned as a walk of the project_id index with the rest as a filter, per batch or per id,
over every row the import had written so far (quadratic in the file: 100k solutions imported
beside a 1M-solution project ran for tens of minutes in bench/export_bench.py's build). Each
SELECT the import runs is EXPLAINed here with its own parameters, in the same transaction,
with the statistics of a big project and none of the new one's rows."""

import pytest
from django.db import connection

from labeling.models import Problem, ProblemBand, Solution
from labeling.services.imports.pipeline import import_file
from tests.factories import ProjectFactory
from tests.plan_audit import labeled_file, multiply, walks_of

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

BIG = 200  # copies of the big project's rows, written by SQL: enough for index plans to win


def test_an_import_beside_a_big_project_looks_its_rows_up_by_their_keys(tmp_path):
    big = ProjectFactory()
    import_file(project=big, path=labeled_file(tmp_path, 60, "big"), labels_as="annotations")
    multiply(Problem, BIG)
    multiply(Solution, BIG)
    multiply(ProblemBand, BIG, unique=None)
    tables = {m._meta.db_table for m in (Problem, Solution, ProblemBand)}
    with connection.cursor() as cursor:
        for table in sorted(tables):
            cursor.execute(f"ANALYZE {table}")
    new = ProjectFactory()
    statements: list[tuple[str, object]] = []

    def capture(execute, sql, params, many, context):
        # An existence probe (LIMIT 1, once an import) stops at its first row: not looked at.
        if sql.lstrip().upper().startswith("SELECT") and not many and "LIMIT 1" not in sql:
            statements.append((sql, params))
        return execute(sql, params, many, context)

    path = labeled_file(tmp_path, 1500, "new")
    with connection.execute_wrapper(capture):
        import_file(project=new, path=path, labels_as="annotations")
        import_file(project=new, path=path, labels_as="annotations")  # again: all found
    assert any("external_id" in sql for sql, _ in statements)
    walks = walks_of(statements, tables, ("project_id",))
    assert not walks, "\n".join(walks)
