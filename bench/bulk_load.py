"""Bulk loads on PostgreSQL with the secondary indexes and constraints built after the rows.

Inserting millions of rows into tables that already carry their indexes and foreign keys
costs an index insertion per row per index and a foreign-key trigger per row (Django's are
DEFERRABLE INITIALLY DEFERRED: the checks queue up until the statement's commit). Building
an index over the loaded table is one sort, and adding a foreign key is one join. The primary
keys stay (the loads read them back).

bench/ is not a package: a bench puts bench/ on sys.path and imports this as `bulk_load`.
"""

import time
from collections.abc import Iterator
from contextlib import contextmanager

MAINTENANCE_WORK_MEM = "512MB"  # index builds sort in memory


def _deferrable(cursor, tables: list[str]) -> tuple[list[tuple[str, str, str]], list[str]]:
    """(constraints (table, name, definition) foreign keys last, index definitions)."""
    cursor.execute(
        "SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid) FROM pg_constraint "
        "WHERE conrelid = ANY(%s::regclass[]) AND contype IN ('u', 'f') "
        "ORDER BY contype DESC, conrelid, conname",  # 'u' before 'f'
        [tables],
    )
    constraints = cursor.fetchall()
    cursor.execute(
        "SELECT pg_get_indexdef(i.indexrelid) FROM pg_index i "
        "WHERE i.indrelid = ANY(%s::regclass[]) AND NOT i.indisprimary AND NOT EXISTS "
        "(SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid "
        "AND c.conrelid = i.indrelid) ORDER BY i.indrelid, i.indexrelid",
        [tables],
    )
    return constraints, [row[0] for row in cursor.fetchall()]


@contextmanager
def indexes_after(cursor, tables: list[str], *, log=print) -> Iterator[None]:
    """Drop `tables`' unique and foreign-key constraints and secondary indexes, run the body
    (the loads), then build them all again: indexes, unique constraints, foreign keys."""
    constraints, indexes = _deferrable(cursor, tables)
    for table, name, _ in reversed(constraints):  # foreign keys first
        cursor.execute(f'ALTER TABLE {table} DROP CONSTRAINT "{name}"')
    for definition in indexes:
        name = definition.split(" INDEX ", 1)[1].split(" ON ", 1)[0]
        cursor.execute(f"DROP INDEX {name}")
    yield
    started = time.perf_counter()
    cursor.execute(f"SET maintenance_work_mem = '{MAINTENANCE_WORK_MEM}'")
    for definition in indexes:
        cursor.execute(definition)
    for table, name, definition in constraints:
        cursor.execute(f'ALTER TABLE {table} ADD CONSTRAINT "{name}" {definition}')
    log(
        f"  {len(indexes)} indexes and {len(constraints)} constraints built after the rows "
        f"in {time.perf_counter() - started:.0f} s"
    )
