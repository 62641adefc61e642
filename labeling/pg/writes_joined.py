"""Writes whose results nobody reads, sent as one statement on PostgreSQL.

A submit writes its label history, its labels and drops the user's lock: three statements
that answer nothing the service needs, each a round trip and a statement's worth of client and
server CPU. Inside `writes_joined()`, `write()` holds such statements back and the block's end
sends them as one: each but the last a data-modifying WITH of the last (PostgreSQL runs every
one of them to completion, whatever the last reads). Elsewhere, and on other databases,
`write()` runs the statement at once.

The joined statements share one snapshot and do not see each other's rows: join only writes to
different rows (the label history, the labels, the lock), and read what they wrote only after
the block. `write_counted()` sends what is held with one more statement last, whose row count
it answers (a submit's count UPDATE, which reads no label on PostgreSQL).
"""

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from threading import local

from django.db import connection

from labeling.pg.compiled import hot_cursor

_held = local()


@contextmanager
def writes_joined() -> Iterator[None]:
    """Hold back `write()`s until the block ends, then send them as one statement (PostgreSQL;
    elsewhere they run as they come). A nested block joins the outer one. An exception drops
    what was held: the transaction it belongs to does not commit."""
    if connection.vendor != "postgresql" or getattr(_held, "writes", None) is not None:
        yield
        return
    _held.writes = []
    try:
        yield
        _send(_held.writes)
    finally:
        _held.writes = None


def joining() -> bool:
    """Inside a `writes_joined()` block (PostgreSQL): a `write()` is held and joined."""
    return getattr(_held, "writes", None) is not None


def write(sql: str, params: Sequence[object]) -> None:
    """Run a statement whose result is not read (its rowcount neither), or hold it back for the
    enclosing `writes_joined()` block. `sql` must be one statement that can stand in a WITH:
    INSERT, UPDATE or DELETE, with %s placeholders."""
    held = getattr(_held, "writes", None)
    if held is None:
        _send([(sql, params)])
    else:
        held.append((sql, params))


def write_counted(sql: str, params: Sequence[object]) -> int:
    """Send the held writes with this statement as their last (or run it alone, outside a block
    or on other databases): the rows it changed (the held writes' do not count). It cannot see
    their rows either (one snapshot); what runs after it does."""
    held = getattr(_held, "writes", None)
    if held is None:
        return _send([(sql, params)])
    writes = [*held, (sql, params)]
    held.clear()
    return _send(writes)


def _send(writes: list[tuple[str, Sequence[object]]]) -> int:
    if not writes:
        return 0
    *first, (last, _) = writes
    sql = last
    if first:
        ctes = ", ".join(f"w{i} AS ({statement})" for i, (statement, _) in enumerate(first))
        sql = f"WITH {ctes} {last}"
    params = [value for _, values in writes for value in values]
    with hot_cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.rowcount
