"""Planner statistics for the tables a bulk write just filled (`analyze_grown`).

PostgreSQL plans from the statistics ANALYZE last gathered. A table filled by one bulk import
has none until autovacuum gets to it (a minute or more later; never where autovacuum is off),
and meanwhile the planner takes it for a table of a few pages: the export's chunk queries
(`solution_id = ANY(...)` on steps, `annotation_id = ANY(...)` on step labels) then plan as
sequential scans of the whole table, once per chunk of 5,000 solutions. Measured on 100k
freshly imported solutions (798k steps): 150-283 ms a chunk for the steps and 63-135 ms for
the labels, against 42 and 20 ms with the index once ANALYZE had run (docs/benchmarks.md,
"The first export after an import"). So the importer runs autovacuum's own rule at its end,
right away: a table that the write grew by more than 50 rows + 10% of the rows it had at its
last ANALYZE (a table never analyzed counts as empty) is analyzed. ANALYZE reads a sample
(300 x default_statistics_target rows a table), so it costs about the same at 100k rows as
at 10M: 1.6 s for the whole database at 100k solutions.
"""

import logging
from collections.abc import Mapping

from django.db import DatabaseError, connections
from django.db.models import Model

logger = logging.getLogger(__name__)

BASE_ROWS = 50  # autovacuum_analyze_threshold's default
SCALE = 0.1  # autovacuum_analyze_scale_factor's default


def analyze_grown(written: Mapping[type[Model], int], *, using: str = "default") -> list[str]:
    """ANALYZE the tables of `written` (model -> rows just written) that grew past the rule
    above; the tables analyzed. Only on PostgreSQL, and only outside a transaction block:
    ANALYZE holds a lock that conflicts with another ANALYZE of the table until the end of
    the transaction, and the rows must be committed for the statistics to be of use."""
    connection = connections[using]
    if connection.vendor != "postgresql" or connection.in_atomic_block:
        return []
    tables = {model._meta.db_table: n for model, n in written.items() if n > BASE_ROWS}
    if not tables:
        return []
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT relname, reltuples FROM pg_class "
            "WHERE oid IN (SELECT to_regclass(name) FROM unnest(%s::text[]) AS name)",
            [list(tables)],
        )
        had = {name: max(rows, 0.0) for name, rows in cursor.fetchall()}
        grown = sorted(
            name for name, n in tables.items() if n > BASE_ROWS + SCALE * had.get(name, 0.0)
        )
        for name in grown:
            # SKIP_LOCKED: a VACUUM or ANALYZE of the table already running (an operator's,
            # autovacuum's) is not waited for; a failure costs the statistics, not the
            # import, which has committed.
            try:
                cursor.execute(f"ANALYZE (SKIP_LOCKED) {connection.ops.quote_name(name)}")
            except DatabaseError:
                logger.warning("ANALYZE of %s after a bulk write failed", name, exc_info=True)
    return grown
