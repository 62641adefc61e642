"""The problems of a project in the export's order (external id byte-wise, then id):
`labeling.exporters.source._ordered_solutions` reads them through it, so an export's
solutions stream from an index in order (an incremental sort of each problem's solutions)
rather than after a sort of the whole project's solutions with their problems' text.

PostgreSQL only (the export orders with COLLATE "C"; SQLite's default BINARY collation is
byte-wise already), so the index is made here and is not in the model's state."""

from django.db import migrations

INDEX = "problem_export_order_idx"


def create(apps, schema_editor) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            f"CREATE INDEX IF NOT EXISTS {INDEX} ON labeling_problem "
            '(project_id, external_id COLLATE "C", id)'
        )


def drop(apps, schema_editor) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"DROP INDEX IF EXISTS {INDEX}")


class Migration(migrations.Migration):
    dependencies = [
        ("labeling", "0049_source_counts"),
    ]

    operations = [migrations.RunPython(create, drop)]
