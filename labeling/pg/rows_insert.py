"""Multi-row INSERTs written directly: the label writes of every draft save and submit.

`bulk_create` builds a model instance per row and compiles its INSERT each call; for the
handful of rows a submit writes (its labels and their history) that cost more CPU than the
statement. These write the same columns with one statement: on PostgreSQL an INSERT ... SELECT from
`unnest` of one array a column (fixed text for any number of rows, so it is prepared once),
a single row as plain VALUES, on SQLite a multi-row VALUES per batch (`ON CONFLICT ... DO
UPDATE` is the syntax of both). On PostgreSQL each is one statement, sent through
labeling.pg.writes_joined.write: inside a `writes_joined()` block it joins the block's others.
"""

import json
from collections.abc import Sequence
from functools import cache

from django.apps import apps
from django.db import connection

from labeling.pg.compiled import hot_cursor
from labeling.pg.writes_joined import write

BATCH_ROWS = 1000  # SQLite allows 32,766 parameters a statement; rows here have <= 9


@cache
def _array_types(vendor: str, table: str, columns: tuple[str, ...]) -> tuple[str, ...]:
    """The PostgreSQL type of each column of `table` (a model's), for `unnest` arrays."""
    model = next(m for m in apps.get_models() if m._meta.db_table == table)
    fields = {f.column: f for f in model._meta.concrete_fields}
    types = []
    for column in columns:
        db_type = fields[column].rel_db_type(connection) if fields[column].is_relation else None
        types.append(db_type or fields[column].db_type(connection))
    return tuple(types)


def insert_rows(
    table: str,
    columns: Sequence[str],
    rows: Sequence[Sequence[object]],
    *,
    conflict: Sequence[str] = (),
    update: Sequence[str] = (),
) -> None:
    """INSERT `rows` (values in `columns` order, already in database form) into `table`;
    with `conflict` and `update`, a row whose `conflict` columns exist updates `update`."""
    if not rows:
        return
    quote = connection.ops.quote_name
    head = f"INSERT INTO {quote(table)} ({', '.join(quote(c) for c in columns)}) VALUES "
    tail = ""
    if conflict:
        sets = ", ".join(f"{quote(c)} = excluded.{quote(c)}" for c in update)
        tail = f" ON CONFLICT ({', '.join(quote(c) for c in conflict)}) DO UPDATE SET {sets}"
    one = "(" + ", ".join(["%s"] * len(columns)) + ")"
    if connection.vendor == "postgresql" and len(rows) > 1:
        # One array a column: the statement's text (and so its prepared plan and psycopg's
        # parsed query) is the same for any number of rows.
        types = _array_types(connection.vendor, table, tuple(columns))
        arrays = ", ".join(f"%s::{t}[]" for t in types)
        sql = f"{head.removesuffix(' VALUES ')} SELECT * FROM unnest({arrays}){tail}"
        write(sql, [list(values) for values in zip(*rows, strict=True)])
        return
    # A single row (a claim's lock) as VALUES: psycopg dumps four scalars for less than four
    # one-element arrays (about 450 against 700 us of client CPU here). Fixed text too.
    if connection.vendor == "postgresql":
        write(head + one + tail, list(rows[0]))
        return
    with hot_cursor() as cursor:
        for start in range(0, len(rows), BATCH_ROWS):
            batch = rows[start : start + BATCH_ROWS]
            params = [value for row in batch for value in row]
            cursor.execute(head + ", ".join([one] * len(batch)) + tail, params)


def json_value(value: object) -> str | None:
    """A JSONField's value as the database takes it in a raw statement (None stays NULL)."""
    return None if value is None else json.dumps(value)


def time_value(value) -> object:
    """A DateTimeField's value as the database takes it in a raw statement."""
    return connection.ops.adapt_datetimefield_value(value)
