"""Array parameters written as one PostgreSQL array literal (text), for `= ANY(%s::text[])`
and `unnest(%s::bigint[])`: psycopg's list dumper quotes each element in Python, which was
most of the client CPU of an import's lookups of 1,000 ids a batch (issue 26). The literal is
one string parameter, quoted by libpq; the statement casts it."""

from collections.abc import Iterable


def text_array(values: Iterable[str]) -> str:
    """`{"a","b\\"c"}`: every element quoted, its backslashes and double quotes escaped."""
    quoted = (v.replace("\\", "\\\\").replace('"', '\\"') for v in values)
    return "{" + ",".join([f'"{v}"' for v in quoted]) + "}"


def int_array(values: Iterable[int]) -> str:
    """`{1,2,3}`."""
    return "{" + ",".join(map(str, values)) + "}"
