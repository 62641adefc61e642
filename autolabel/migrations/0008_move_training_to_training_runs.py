"""TrainingRun, PrmModel and QueuePriority moved to the training_runs app.

State only: training_runs 0001 took them over with the same tables (`db_table`), so this
forgets them here without touching the database or its rows.
"""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("autolabel", "0007_suggestion_unmeasured_scores"),
        # training_runs must hold the models before they leave this app's state.
        ("training_runs", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                # PrmModel first: it points at TrainingRun.
                migrations.DeleteModel(name="PrmModel"),
                migrations.DeleteModel(name="TrainingRun"),
                migrations.DeleteModel(name="QueuePriority"),
            ],
            database_operations=[],
        ),
    ]
