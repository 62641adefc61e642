"""Hot statements compiled once: the ORM builds them with stand-in values, calls swap in real ones.

Building a queryset with a dozen subqueries and compiling it to SQL costs the web process more
CPU than PostgreSQL spends running it (the claim's pool read: about 4 ms of Python against
0.3 ms of database time). The statements of the annotator's loop keep their shape from one
request to the next; only a few values change (the user, the project, the time). So each is
built once per database vendor and shape, through the same ORM code as ever, with stand-ins:
numbers and a time no real parameter can be. Later calls reuse the SQL and put the real
values where the stand-ins were.

A stand-in that the ORM put into the SQL text instead of the parameters (a LIMIT, a literal)
could not be swapped: `compile_once` refuses such a statement when it is built.

`compile_queryset_once` does the same for a queryset of model instances (select_related and
annotations included) and turns rows into instances as the queryset would (Django's
ModelIterable, with the compiler's column layout and converters kept from the build).
Statements are kept per thread: a compiler holds the thread's database connection.

On PostgreSQL they run through `hot_cursor()`: a cursor that binds parameters on the server,
so psycopg prepares a statement the connection has run a few times (`prepare_threshold`) and
PostgreSQL stops planning it on every call. Not the statements with the review reasons'
subqueries: a generic plan made while a project's label tables are nearly empty stays slow as
they fill (measured: 38 ms a submit instead of 0.4 until the next ANALYZE), so those are
planned per call. `DB_PREPARED_STATEMENTS=false`
(settings.PREPARED_STATEMENTS) turns that off, for PgBouncer in transaction mode before 1.21.
"""

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from threading import local
from typing import Any

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.models import Model, QuerySet
from django.db.models.query import get_related_populators

# Stand-ins fit every integer column's range, small and positive ones included: Django turns a
# comparison with a value outside the column's range into "no rows" before compiling it. They
# only need to differ from the constants the ORM itself puts among the parameters.
_INT_BASE = 32_700
STAND_IN_TIME = datetime(1901, 2, 3, 4, 5, 6, 789012, tzinfo=UTC)


@contextmanager
def hot_cursor() -> Iterator[Any]:
    """A cursor for the loop's fixed statements: Django's wrapper (query logging, error
    wrapping and execute wrappers as usual) over a server-binding psycopg cursor on PostgreSQL,
    so that psycopg prepares what the connection runs again and again; the usual cursor
    elsewhere. The wrapped cursors are kept per connection and reused (a free list, so nested
    uses get their own): making Django's cursor and a second psycopg one on every use cost more
    client CPU than the statement itself (320 against 150 us a short SELECT)."""
    # Where queries are logged (DEBUG, tests that capture them) Django logs what the client
    # sent, and a server-bound statement has only $1 placeholders: bind there on the client, as
    # everywhere else.
    # The thread's connection itself, looked up once: every `connection.x` through Django's
    # proxy is a thread-local lookup, a dozen of them per statement otherwise.
    db = connections[DEFAULT_DB_ALIAS]
    plain = not settings.PREPARED_STATEMENTS or db.queries_logged
    if db.vendor != "postgresql" or plain:
        with db.cursor() as cursor:
            yield cursor
        return
    cursor = _hot_cursor_take(db)
    try:
        yield cursor
    finally:
        _hot_cursor_give_back(db, cursor)


def _hot_cursor_take(db: Any) -> Any:
    """What connection.cursor() does (the request's health check, connecting, the thread
    check), then a kept cursor of this connection or a new one."""
    import psycopg  # the PostgreSQL backend's driver

    db.close_if_health_check_failed()
    db.ensure_connection()
    db.validate_thread_sharing()
    raw = db.connection
    kept = getattr(db, "_hot_cursors", None)
    if kept is None or kept[0] is not raw:  # a new connection: the old one's cursors are gone
        kept = db._hot_cursors = (raw, [])
    if kept[1]:
        return kept[1].pop()
    with db.wrap_database_errors:
        return db.make_cursor(psycopg.Cursor(raw))


def _hot_cursor_give_back(db: Any, cursor: Any) -> None:
    kept = getattr(db, "_hot_cursors", None)
    raw = cursor.cursor.connection
    if kept is not None and kept[0] is raw and not raw.closed and len(kept[1]) < 4:
        kept[1].append(cursor)
    else:
        cursor.cursor.close()


def stand_in(slot: int) -> int:
    """The stand-in number for an integer parameter; `slot` tells them apart (0, 1, 2...)."""
    return _INT_BASE - slot


@dataclass(frozen=True)
class Compiled:
    """SQL and its parameters with, per position, the name of the value that goes there
    (None: a constant the ORM put in, kept as built)."""

    sql: str
    params: tuple
    names: tuple[str | None, ...]
    times: frozenset[str]

    def bind(self, values: Mapping[str, Any]) -> list:
        adapt = connection.ops.adapt_datetimefield_value
        real = {
            name: adapt(value) if name in self.times else value for name, value in values.items()
        }
        pairs = zip(self.params, self.names, strict=True)
        return [p if name is None else real[name] for p, name in pairs]

    def execute(self, cursor, values: Mapping[str, Any]) -> None:
        cursor.execute(self.sql, self.bind(values))


@dataclass(frozen=True)
class CompiledQuerySet:
    """A queryset's SQL compiled once, and what turns its rows into model instances."""

    statement: Compiled
    compiler: Any  # the SQLCompiler of the build: column layout and converters
    init_list: tuple[str, ...]
    populators: tuple
    annotations: tuple[tuple[str, int], ...]
    # (position, converters, expression) per column that has any: what the compiler's
    # results_iter would look up again on every fetch
    converters: tuple[tuple[int, tuple, Any], ...]

    def fetch(self, values: Mapping[str, Any]) -> list[Model]:
        """The instances the queryset would give with `values` in place of the stand-ins."""
        with hot_cursor() as cursor:
            self.statement.execute(cursor, values)
            rows = cursor.fetchall()
        db = connections[DEFAULT_DB_ALIAS]
        klass = self.compiler.klass_info
        model, start = klass["model"], klass["select_fields"][0]
        end = start + len(self.init_list)
        instances = []
        for raw in rows:
            row = list(raw)
            for position, converters, expression in self.converters:
                value = row[position]
                for converter in converters:
                    value = converter(value, expression, db)
                row[position] = value
            obj = model.from_db(db.alias, self.init_list, row[start:end])
            for populator in self.populators:
                populator.populate(row, obj)
            for name, position in self.annotations:
                setattr(obj, name, row[position])
            instances.append(obj)
        return instances


_threads = local()


def _built() -> dict[tuple, Any]:
    if not hasattr(_threads, "built"):
        _threads.built = {}
    return _threads.built


def compile_once(
    key: tuple,
    build: Callable[[dict[str, Any]], tuple[str, list | tuple]],
    *,
    ints: tuple[str, ...] = (),
    times: tuple[str, ...] = (),
    strs: tuple[str, ...] = (),
) -> Compiled:
    """The statement `build` makes for this vendor and `key`, compiled on first use.

    `build(stand_ins)` gets a stand-in per name (an int for `ints`, a string for `strs`,
    STAND_IN_TIME for the one name in `times`) and returns the compiled (sql, params), e.g. from
    `queryset.query.sql_with_params()` or a compiler's `as_sql()`.
    """
    full_key = (connection.vendor, *key)
    found = _built().get(full_key)
    if found is None:
        found = _built()[full_key] = _compile(key, build, ints=ints, times=times, strs=strs)
    return found


def compile_queryset_once(
    key: tuple,
    build: Callable[[dict[str, Any]], QuerySet],
    *,
    ints: tuple[str, ...] = (),
    times: tuple[str, ...] = (),
    strs: tuple[str, ...] = (),
) -> CompiledQuerySet:
    """`compile_once` for a queryset of model instances: `build(stand_ins)` returns the
    queryset; `.fetch(values)` runs it and returns its instances."""
    full_key = (connection.vendor, "queryset", *key)
    found = _built().get(full_key)
    if found is not None:
        return found
    holder: dict[str, Any] = {}

    def sql_of(stand_ins: dict[str, Any]) -> tuple[str, list | tuple]:
        queryset = build(stand_ins)
        holder["compiler"] = compiler = queryset.query.get_compiler(connection.alias)
        return compiler.as_sql()

    statement = _compile(key, sql_of, ints=ints, times=times, strs=strs)
    compiler = holder["compiler"]
    klass = compiler.klass_info
    fields = klass["select_fields"]
    found = CompiledQuerySet(
        statement=statement,
        compiler=compiler,
        init_list=tuple(f[0].target.attname for f in compiler.select[fields[0] : fields[-1] + 1]),
        populators=tuple(get_related_populators(klass, compiler.select, connection.alias)),
        annotations=tuple(compiler.annotation_col_map.items()),
        converters=tuple(
            (position, tuple(converters), expression)
            for position, (converters, expression) in compiler.get_converters(
                [column[0] for column in compiler.select[: compiler.col_count]]
            ).items()
        ),
    )
    _built()[full_key] = found
    return found


def compile_insert_once(
    key: tuple,
    model: type[Model],
    build: Callable[[dict[str, Any]], Model],
    *,
    ints: tuple[str, ...] = (),
    times: tuple[str, ...] = (),
) -> Compiled:
    """`compile_once` for the INSERT ... RETURNING pk that `model.objects.create()` would send
    for the unsaved instance `build(stand_ins)` makes (its other fields at their defaults, as
    the instance has them); `.execute()` then fetchone() gives the new pk. The attributes are
    written as they are (no pre_save: an auto_now field takes the time given, so pass it)."""

    def sql_of(stand_ins: dict[str, Any]) -> tuple[str, list | tuple]:
        from django.db.models.sql import InsertQuery

        meta = model._meta
        fields = [f for f in meta.local_concrete_fields if not f.generated and f is not meta.pk]
        query = InsertQuery(model)
        query.insert_values(fields, [build(stand_ins)], raw=True)
        compiler = query.get_compiler(connection=connection)
        compiler.returning_fields = [meta.pk]
        ((sql, params),) = compiler.as_sql()
        return sql, params

    return compile_once(("insert", *key), sql_of, ints=ints, times=times)


def _compile(
    key: tuple,
    build: Callable[[dict[str, Any]], tuple[str, list | tuple]],
    *,
    ints: tuple[str, ...],
    times: tuple[str, ...],
    strs: tuple[str, ...] = (),
) -> Compiled:
    if len(times) > 1:
        raise ValueError("One time stand-in per statement: the positions would be ambiguous.")
    stand_ins: dict[str, Any] = {name: stand_in(i) for i, name in enumerate(ints)}
    by_value: dict[Any, str] = {v: name for name, v in stand_ins.items()}
    for name in strs:
        stand_ins[name] = f"stand-in {name} {_INT_BASE}"
        by_value[stand_ins[name]] = name
    for name in times:
        stand_ins[name] = STAND_IN_TIME
        by_value[connection.ops.adapt_datetimefield_value(STAND_IN_TIME)] = name
    sql, params = build(stand_ins)
    names = tuple(by_value.get(p) if _hashable(p) else None for p in params)
    for name, value in stand_ins.items():
        literal = str(STAND_IN_TIME.year) if name in times else str(value)
        if literal in sql:
            raise ValueError(f"{key}: the stand-in for {name!r} is in the SQL, not a parameter")
    return Compiled(sql=sql, params=tuple(params), names=names, times=frozenset(times))


def _hashable(value: object) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True
