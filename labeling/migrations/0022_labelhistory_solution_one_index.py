"""LabelHistory.solution loses its own index: labelhistory_solution_idx (solution, id) serves
every read by solution, and each history row a draft save or submit writes updated both.

Only the index is dropped (by its name, both backends). Django's AlterField would also drop
and re-add the foreign key, validating it over the whole history table."""

import django.db.models.deletion
from django.db import migrations, models

INDEX = "labeling_labelhistory_solution_id_303f6245"


class Migration(migrations.Migration):
    dependencies = [
        ("labeling", "0021_merge_0020_merge_step_graph_0020_problem_domain"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="labelhistory",
                    name="solution",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="history",
                        to="labeling.solution",
                    ),
                ),
            ],
            database_operations=[
                migrations.RunSQL(
                    f"DROP INDEX IF EXISTS {INDEX}",
                    reverse_sql=f"CREATE INDEX IF NOT EXISTS {INDEX} "
                    "ON labeling_labelhistory (solution_id)",
                ),
            ],
        ),
    ]
