"""A project id the planner plans for as any project's, not as this one's (`opaque_id`).

PostgreSQL estimates `project_id = 7` from the statistics ANALYZE gathered for 7, and an
import writes its project's rows inside one transaction, where no ANALYZE sees them: a new
project is estimated at one row for the whole import. A lookup such as `project_id = 7 AND
external_id = ANY(...)` is then planned on the project_id index with the rest as a filter, a
walk of every row the import has written so far, per batch or per id: quadratic in the file
(100k solutions imported beside a 1M-solution project ran for tens of minutes). Written
`project_id = (SELECT 7)`, the id is an InitPlan parameter, estimated from the column's
distinct values (a project's average share of the table), never as one row, so the index
on (project, key) is chosen and each key costs one probe
(tests/importers/test_lookup_plans.py).
"""

from django.db import connection
from django.db.models import Expression, Value
from django.db.models.expressions import RawSQL

OPAQUE_ID = "(SELECT %s::bigint)"  # for raw SQL: `project_id = {OPAQUE_ID}`, the id a parameter


def opaque_id(pk: int) -> Expression:
    """`pk` as an ORM lookup value (`filter(project_id=opaque_id(pk))`); plain elsewhere."""
    if connection.vendor == "postgresql":
        return RawSQL(OPAQUE_ID, [pk])
    return Value(pk)


def external_ids_found(table: str, project_id: int, keys: str, column: str = "id") -> list:
    """(external id, `column`) of the project's rows of `table` among `keys` (a text array
    literal: labeling.pg.arrays.text_array), one probe of the unique index on (project,
    external_id) per key. As one `external_id = ANY(keys)` the planner walked the project's
    whole range of an index on (project, ...) with the keys as a filter, whatever the
    project's estimate: O(project) per batch. The unique index is partial, hence `<> ''`
    (parsed ids are never empty)."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT u.k, (SELECT t.{column} FROM {table} t WHERE t.project_id = {OPAQUE_ID}"
            " AND t.external_id = u.k AND t.external_id <> '') FROM unnest(%s::text[]) u(k)",
            [project_id, keys],
        )
        return [(key, value) for key, value in cursor.fetchall() if value is not None]
