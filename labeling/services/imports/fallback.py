"""The bulk_create fallback: how a table is written when the fast path cannot take it.

The fast path (inserter.py) writes exactly the columns tables.py lists. When a model has
grown a column the importer does not know, its rows go through bulk_create instead, with the
ids already allocated, so the new column's Python-side default still applies. Slower (Django
compiles every value into the SQL), but correct; tests/importers checks that every table
takes the fast path and that this one writes the same rows.
"""

import json

from .tables import JsonText, Write

INSERT_BATCH = 5000  # rows per bulk_create INSERT


def bulk_create_write(item: Write) -> None:
    """Write one table's rows with their allocated ids through the ORM."""
    model, columns = item.model, item.columns
    objs = [
        model(pk=pk, **{c: _value(v) for c, v in zip(columns, row, strict=True)})
        for pk, row in zip(item.ids, item.rows, strict=True)
    ]
    model._default_manager.bulk_create(objs, batch_size=INSERT_BATCH)


def _value(value: object) -> object:
    """A JSON column's value the batch writer wrote as JSON text, read back for the ORM."""
    return json.loads(value) if value.__class__ is JsonText else value
