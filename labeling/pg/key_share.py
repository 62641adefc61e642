"""Rows read under FOR KEY SHARE, the weakest row lock, which Django's select_for_update does
not offer: held until the transaction ends, it makes a DELETE of the row (or an UPDATE of its
key) wait, and nothing else. Other databases read the rows unlocked."""

from django.db import connection
from django.db.models import Model, QuerySet


def key_share(rows: QuerySet) -> list[Model]:
    """The queryset's model instances, each row key-share-locked on PostgreSQL."""
    if connection.vendor != "postgresql":
        return list(rows)
    sql, params = rows.query.sql_with_params()
    return list(rows.model.objects.raw(f"{sql} FOR KEY SHARE", params))
