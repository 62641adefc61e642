"""A transaction-level lock named by a string: two transactions that take the same name run
one after the other (PostgreSQL's advisory locks take a 64-bit key, here the name's hash).
Elsewhere a no-op: SQLite serializes writers already."""

from __future__ import annotations

import hashlib

from django.db import connection


def named_xact_lock(name: str) -> None:
    """Hold the lock `name` until the current transaction ends."""
    if connection.vendor != "postgresql":
        return
    digest = hashlib.sha256(name.encode()).digest()
    key = int.from_bytes(digest[:8], "big", signed=True)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [key])
