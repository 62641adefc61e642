"""TrainingRun, PrmModel and QueuePriority, moved here from autolabel.

The tables stay the ones autolabel 0003/0004 created (`db_table` keeps their names), so the
database is not touched (SeparateDatabaseAndState with no database operations) and every row
stays. The content types move with the models, so permissions and admin log entries keep
pointing at them.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

MODELS = ("trainingrun", "prmmodel", "queuepriority")


def move_content_types(apps, schema_editor, *, old: str, new: str) -> None:
    ContentType = apps.get_model("contenttypes", "ContentType")
    db = schema_editor.connection.alias
    for model in MODELS:
        if ContentType.objects.using(db).filter(app_label=new, model=model).exists():
            continue
        ContentType.objects.using(db).filter(app_label=old, model=model).update(app_label=new)


def forwards(apps, schema_editor) -> None:
    move_content_types(apps, schema_editor, old="autolabel", new="training_runs")


def backwards(apps, schema_editor) -> None:
    move_content_types(apps, schema_editor, old="training_runs", new="autolabel")


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        # The tables exist once autolabel created and last altered them.
        ("autolabel", "0005_autolabelrun_inline"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("labeling", "0002_export"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="TrainingRun",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        (
                            "base_model",
                            models.CharField(
                                help_text="Checkpoint directory trained from.", max_length=1000
                            ),
                        ),
                        (
                            "config",
                            models.JSONField(
                                blank=True, default=dict, help_text="TrainConfig settings."
                            ),
                        ),
                        (
                            "status",
                            models.CharField(
                                choices=[
                                    ("pending", "Pending"),
                                    ("running", "Running"),
                                    ("done", "Done"),
                                    ("failed", "Failed"),
                                    ("cancelled", "Cancelled"),
                                ],
                                default="pending",
                                max_length=20,
                            ),
                        ),
                        (
                            "step",
                            models.PositiveIntegerField(
                                default=0, help_text="Optimizer steps done."
                            ),
                        ),
                        ("total_steps", models.PositiveIntegerField(default=0)),
                        (
                            "metrics",
                            models.JSONField(
                                blank=True,
                                default=dict,
                                help_text="The latest metrics.jsonl record of each split.",
                            ),
                        ),
                        (
                            "history",
                            models.JSONField(
                                blank=True, default=list, help_text="metrics.jsonl records."
                            ),
                        ),
                        ("log_tail", models.TextField(blank=True)),
                        ("artifact_path", models.CharField(blank=True, max_length=1000)),
                        ("error", models.TextField(blank=True)),
                        (
                            "worker",
                            models.CharField(
                                blank=True, help_text="host:pid running it.", max_length=200
                            ),
                        ),
                        ("heartbeat_at", models.DateTimeField(blank=True, null=True)),
                        ("attempts", models.PositiveSmallIntegerField(default=0)),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        ("started_at", models.DateTimeField(blank=True, null=True)),
                        ("finished_at", models.DateTimeField(blank=True, null=True)),
                        (
                            "created_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "export",
                            models.ForeignKey(
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="training_runs",
                                to="labeling.export",
                            ),
                        ),
                        (
                            "project",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="training_runs",
                                to="labeling.project",
                            ),
                        ),
                    ],
                    options={"db_table": "autolabel_trainingrun", "ordering": ["-id"]},
                ),
                migrations.CreateModel(
                    name="PrmModel",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("name", models.CharField(max_length=200)),
                        (
                            "path",
                            models.CharField(
                                help_text="Directory with the saved PRM.", max_length=1000
                            ),
                        ),
                        ("base_model", models.CharField(blank=True, max_length=1000)),
                        (
                            "kind",
                            models.CharField(
                                choices=[
                                    ("pointwise", "Pointwise: step labels, cross-entropy"),
                                    ("pairwise", "Pairwise: step preferences, Bradley-Terry"),
                                    (
                                        "implicit",
                                        "Implicit: outcome labels, log-likelihood ratio",
                                    ),
                                ],
                                default="pointwise",
                                max_length=20,
                            ),
                        ),
                        (
                            "metrics",
                            models.JSONField(
                                blank=True, default=dict, help_text="Evaluation metrics."
                            ),
                        ),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        (
                            "created_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "project",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="prm_models",
                                to="labeling.project",
                            ),
                        ),
                        (
                            "training_run",
                            models.OneToOneField(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="prm_model",
                                to="training_runs.trainingrun",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "autolabel_prmmodel",
                        "ordering": ["-id"],
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("project", "name"), name="prmmodel_unique_name"
                            )
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="QueuePriority",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        (
                            "order",
                            models.CharField(
                                choices=[
                                    ("default", "Default: finish started solutions first"),
                                    (
                                        "prm_active",
                                        "Active learning: convincing wrong answers, then least"
                                        " certain",
                                    ),
                                ],
                                default="default",
                                max_length=20,
                            ),
                        ),
                        ("updated_at", models.DateTimeField(auto_now=True)),
                        (
                            "project",
                            models.OneToOneField(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="queue_priority",
                                to="labeling.project",
                            ),
                        ),
                    ],
                    options={"db_table": "autolabel_queuepriority"},
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(forwards, backwards, elidable=True),
    ]
