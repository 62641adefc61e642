"""The fast write path: primary keys allocated ahead, then one COPY (PostgreSQL) or one
executemany (SQLite) per table and batch; see Inserter."""

import json
from collections.abc import Iterator
from datetime import datetime
from typing import Any

from django.db import connection
from django.db.models import DateTimeField, JSONField, Model
from django.utils import timezone

from .fallback import bulk_create_write
from .tables import JsonText, Write


class Inserter:
    """INSERTs many rows of one table, with primary keys allocated first (`allocate`), so a
    batch's rows can be built with their foreign keys before any of them is written (`write`).

    PostgreSQL: ids from the table's sequence in one query, then one COPY. SQLite: ids
    after the table's highest id (and its AUTOINCREMENT sequence), then one executemany;
    safe because SQLite has one writer: the import's transaction holds the write lock
    (transaction_mode IMMEDIATE in settings), and without it a concurrent commit between
    the read and the insert would make the insert fail, never duplicate an id. Both are
    three to four times faster than bulk_create, whose per-value SQL compilation dominates
    an import. The rows must give every column of the table; if the model has grown a
    column this package does not know, bulk_create (with the allocated ids, fallback.py) is
    used instead, so Python-side defaults still apply (tests/importers checks that every
    table takes the fast path).
    """

    def __init__(self) -> None:
        self.vendor = connection.vendor
        self.now = timezone.now()
        self._sequences: dict[str, str] = {}
        self._statements: dict[tuple[type[Model], tuple[str, ...]], str] = {}

    def fast(self, model: type[Model], columns: tuple[str, ...]) -> bool:
        known = {f.attname for f in model._meta.concrete_fields if not f.primary_key}
        return self.vendor in ("postgresql", "sqlite") and known == set(columns)

    def _allocate(self, table: str, pk: str, count: int) -> list[int]:
        qn = connection.ops.quote_name
        with connection.cursor() as cursor:
            if self.vendor == "postgresql":
                if table not in self._sequences:
                    # Once per table: inside the nextval() call it would be looked up again
                    # for every id (seven times the cost of the nextval itself).
                    cursor.execute("SELECT pg_get_serial_sequence(%s, %s)", [qn(table), pk])
                    self._sequences[table] = cursor.fetchone()[0]
                cursor.execute(
                    "SELECT nextval(%s::regclass) FROM generate_series(1, %s)",
                    [self._sequences[table], count],
                )
                return sorted(row[0] for row in cursor.fetchall())
            cursor.execute(f"SELECT MAX({qn(pk)}) FROM {qn(table)}")
            highest = cursor.fetchone()[0] or 0
            cursor.execute("SELECT seq FROM sqlite_sequence WHERE name = %s", [table])
            row = cursor.fetchone()
            start = max(highest, row[0] if row else 0) + 1
        return list(range(start, start + count))

    def _adapt(
        self, model: type[Model], columns: tuple[str, ...], ids: list[int], rows: list[tuple]
    ) -> Iterator[list]:
        """Each row with its id first, as the database takes it: JSON as text; times as ISO
        8601 text for COPY (what psycopg would write, without its per-value cost) or adapted
        for SQLite.

        A batch repeats its objects (every row's `now`, one evidence dict per solution):
        each distinct one is converted once per call. JSON is cached by identity, which holds
        because `rows` keeps the objects alive until the call ends; JsonText is JSON already.
        """
        fields = {f.attname: f for f in model._meta.concrete_fields}
        json_at = [i + 1 for i, c in enumerate(columns) if isinstance(fields[c], JSONField)]
        time_at = [i + 1 for i, c in enumerate(columns) if isinstance(fields[c], DateTimeField)]
        adapt_time = (
            connection.ops.adapt_datetimefield_value
            if self.vendor == "sqlite"
            else datetime.isoformat
        )
        encoded: dict[int, str] = {}
        times: dict[datetime, Any] = {}
        for pk, row in zip(ids, rows, strict=True):
            values = [pk, *row]
            for i in json_at:
                value = values[i]
                if value is None or value.__class__ is JsonText:
                    continue  # SQL NULL (a nullable JSON column), not JSON null; or JSON text
                if value == {}:
                    values[i] = "{}"
                elif value == []:
                    values[i] = "[]"
                elif (text := encoded.get(id(value))) is not None:
                    values[i] = text
                else:
                    values[i] = encoded[id(value)] = json.dumps(value)
            for i in time_at:
                value = values[i]
                if value is not None:
                    if (text := times.get(value)) is None:
                        text = times[value] = adapt_time(value)
                    values[i] = text
            yield values

    def allocate(self, model: type[Model], count: int) -> list[int]:
        if not count:
            return []
        return self._allocate(model._meta.db_table, model._meta.pk.column, count)

    def _statement(self, model: type[Model], columns: tuple[str, ...]) -> str:
        if (model, columns) not in self._statements:
            meta, qn = model._meta, connection.ops.quote_name
            fields = {f.attname: f for f in meta.concrete_fields}
            names = ", ".join(qn(c) for c in (meta.pk.column, *(fields[c].column for c in columns)))
            self._statements[model, columns] = (
                f"COPY {qn(meta.db_table)} ({names}) FROM STDIN"
                if self.vendor == "postgresql"
                else f"INSERT INTO {qn(meta.db_table)} ({names}) "
                f"VALUES ({', '.join(['%s'] * (len(columns) + 1))})"
            )
        return self._statements[model, columns]

    def prepare(self, item: Write) -> None:
        """What `write` needs from this thread's connection, so it can run on another one."""
        if item.rows and self.fast(item.model, item.columns):
            self._statement(item.model, item.columns)

    def write(self, item: Write, *, raw: Any = None) -> None:
        """Write one table's rows with their ids. `raw`: the psycopg connection to COPY on
        from another thread (the pipelined import; `prepare` ran first), else this thread's."""
        model, columns, ids, rows = item.model, item.columns, item.ids, item.rows
        if not rows:
            return
        if not self.fast(model, columns):
            # A column this package does not know: bulk_create applies its Python defaults.
            bulk_create_write(item)
            return
        statement = self._statement(model, columns)
        values = self._adapt(model, columns, ids, rows)
        if self.vendor != "postgresql":
            with connection.cursor() as cursor:
                cursor.executemany(statement, list(values))
            return
        with (
            raw.cursor() if raw is not None else connection.cursor().cursor as cursor,
            cursor.copy(statement) as copy,
        ):
            write_row = copy.write_row
            for row in values:
                write_row(row)
