"""Reading rows raw: a values_list query compiled once by the ORM and run with plain
cursors (`RawQuery`), and a chunk's query taking the chunk's ids as one parameter
(`ChunkQuery`). Compiling an `IN (...)` of thousands of ids, and turning every row into
Django's values, cost more than the database's work for them."""

import json
from collections.abc import Iterator
from typing import Any

from django.db import connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import BooleanField, DateTimeField, JSONField, QuerySet
from django.db.models.expressions import RawSQL

# What JSONField.from_db_value gives for the commonest stored values, made without it: most
# solutions' metadata is `{}` (a call, a json.loads and a row rebuilt each, 0.2 s of CPU per
# 100k solutions). Fresh objects, as json.loads gives.
_EMPTY_JSON = {"{}": dict, "[]": list}


def _plain_json(convs: list[Any]) -> bool:
    """The converters are JSONField's own, with no custom decoder."""
    return len(convs) == 1 and (
        getattr(convs[0], "__func__", None) is JSONField.from_db_value
        and convs[0].__self__.decoder is None
    )


def _timestamptz_loader() -> Any:
    """psycopg's own timestamptz loader (its C one with psycopg[binary]): Django's connection
    loader subclasses the pure-Python one to set its time zone, about seven times slower."""
    from psycopg import adapters, postgres
    from psycopg.pq import Format

    return adapters.get_loader(postgres.types["timestamptz"].oid, Format.TEXT)


class RawQuery:
    """A values_list query compiled once, its rows read as plain tuples: the fields' database
    converters (JSON decoding; SQLite's booleans) are applied to the values that are not
    NULL, which is all they change; on PostgreSQL timestamps are read by psycopg's loader,
    then given the connection's time zone as Django's loader does. Django's own iterator
    spends more on each row than the database does."""

    def __init__(self, qs: QuerySet, marker: object = None) -> None:
        self.alias = qs.db
        self.vendor = connections[self.alias].vendor
        compiler = qs.query.get_compiler(using=self.alias)
        self.sql, params = compiler.as_sql()
        self.params = list(params)
        self.at = [i for i, p in enumerate(self.params) if marker is not None and p is marker]
        fields = [s[0] for s in compiler.select[: compiler.col_count]]
        self.converters = [
            (pos, convs, expression, _EMPTY_JSON if _plain_json(convs) else {})
            for pos, (convs, expression) in compiler.get_converters(fields).items()
        ]
        self.times = [
            pos
            for pos, field in enumerate(fields)
            if self.vendor == "postgresql" and isinstance(field.output_field, DateTimeField)
        ]

    def execute(self, cursor: Any, params: list[Any]) -> None:
        if self.times:
            cursor.cursor.adapters.register_loader("timestamptz", _timestamptz_loader())
        cursor.execute(self.sql, params)

    def convert(self, rows: list[tuple], wrapper: BaseDatabaseWrapper) -> list[tuple]:
        for pos, convs, expression, known in self.converters:
            for n, row in enumerate(rows):
                if (value := row[pos]) is not None:
                    if known and value.__class__ is str and (make := known.get(value)):
                        value = make()
                    else:
                        for convert in convs:
                            value = convert(value, expression, wrapper)
                    rows[n] = (*row[:pos], value, *row[pos + 1 :])
        # psycopg reads times in the session's time zone, which Django sets to its own (UTC):
        # mostly the very tzinfo Django's loader gives them already.
        tz = wrapper.timezone
        for pos in self.times:
            for n, row in enumerate(rows):
                if (value := row[pos]) is not None and value.tzinfo is not tz:
                    rows[n] = (*row[:pos], value.replace(tzinfo=tz), *row[pos + 1 :])
        return rows

    def chunks(self, size: int) -> Iterator[list[tuple]]:
        """All rows, `size` at a time, through a server-side cursor where the connection
        allows one (as QuerySet.iterator)."""
        wrapper = connections[self.alias]
        chunked = not wrapper.settings_dict.get("DISABLE_SERVER_SIDE_CURSORS")
        cursor = wrapper.chunked_cursor() if chunked else wrapper.cursor()
        try:
            self.execute(cursor, self.params)
            while rows := cursor.fetchmany(size):
                yield self.convert(list(rows), wrapper)
        finally:
            cursor.close()


class ChunkQuery(RawQuery):
    """A chunk's related rows: compiled once, run once per chunk, `column` taking the chunk's
    ids as one parameter (`= ANY(array)` on PostgreSQL, written as one array literal; a JSON
    array on SQLite) instead of an `IN (...)` compiled and quoted id by id."""

    def __init__(self, qs: QuerySet, column: str) -> None:
        marker = object()
        qn = connections[qs.db].ops.quote_name
        target = f"{qn(qs.model._meta.db_table)}.{qn(column)}"
        if connections[qs.db].vendor == "postgresql":
            condition = f"{target} = ANY(%s::bigint[])"
        else:
            condition = f"{target} IN (SELECT value FROM json_each(%s))"
        ids = RawSQL(condition, [marker], output_field=BooleanField())
        super().__init__(qs.filter(ids), marker)

    def rows(self, ids: list[int]) -> list[tuple]:
        if not ids:
            return []
        if self.vendor == "postgresql":
            value = "{" + ",".join(map(str, ids)) + "}"
        else:
            value = json.dumps(ids)
        params = list(self.params)
        for i in self.at:
            params[i] = value
        wrapper = connections[self.alias]  # this thread's, not the proxy: read per value
        with wrapper.cursor() as cursor:
            self.execute(cursor, params)
            rows = cursor.fetchall()
        return self.convert(rows, wrapper)
