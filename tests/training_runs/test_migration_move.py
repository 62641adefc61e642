"""The move of TrainingRun, PrmModel and QueuePriority from autolabel to training_runs keeps
their tables and rows: a database holding runs is migrated back to before the move, filled
through the old app's models, and migrated forward again (MigrationExecutor, as `migrate`)."""

import pytest
from django.apps import apps as current_apps
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.autodetector import MigrationAutodetector
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.state import ProjectState

from tests.factories import ProjectFactory
from training_runs.models import PrmModel, QueuePriority, TrainingRun

# Unapplying training_runs 0001 unapplies what depends on it: autolabel's state-only delete.
BEFORE_MOVE = [("training_runs", None)]
MOVE = ("autolabel", "0008_move_training_to_training_runs")
TABLES = {
    "trainingrun": "autolabel_trainingrun",
    "prmmodel": "autolabel_prmmodel",
    "queuepriority": "autolabel_queuepriority",
}


def _migrate(targets) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return MigrationExecutor(connection)  # a fresh loader sees what is applied now


@pytest.mark.django_db(transaction=True)
def test_runs_survive_the_move_between_apps():
    project = ProjectFactory()
    executor = _migrate(BEFORE_MOVE)
    applied = executor.loader.applied_migrations
    assert MOVE not in applied and ("training_runs", "0001_initial") not in applied
    assert ("autolabel", "0005_autolabelrun_inline") in applied
    old = executor.loader.project_state(list(applied)).apps
    assert not any(m._meta.app_label == "training_runs" for m in old.get_models())
    OldRun = old.get_model("autolabel", "TrainingRun")
    OldPrm = old.get_model("autolabel", "PrmModel")
    OldPriority = old.get_model("autolabel", "QueuePriority")
    assert {m._meta.model_name: m._meta.db_table for m in (OldRun, OldPrm, OldPriority)} == TABLES
    # The content types went back with the models (the migration's reverse step).
    run_type = ContentType.objects.get(app_label="autolabel", model="trainingrun")

    run = OldRun.objects.create(
        project_id=project.pk,
        base_model="/models/base",
        config={"max_steps": 3},
        status="done",
        step=3,
        total_steps=3,
        history=[{"split": "train", "step": 3, "loss": 0.5}],
        artifact_path="/runs/run-1/out",
    )
    failed = OldRun.objects.create(project_id=project.pk, base_model="/m", status="failed")
    prm = OldPrm.objects.create(
        project_id=project.pk,
        name="run-1",
        path="/runs/run-1/out",
        training_run_id=run.pk,
        kind="implicit",
        metrics={"eval": {"f1": 0.75}},
    )
    OldPriority.objects.create(project_id=project.pk, order="prm_active")

    executor = _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
    applied = executor.loader.applied_migrations
    assert ("training_runs", "0001_initial") in applied
    assert MOVE in applied

    moved = TrainingRun.objects.get(pk=run.pk)
    assert (moved.project_id, moved.status, moved.step, moved.config) == (
        project.pk,
        "done",
        3,
        {"max_steps": 3},
    )
    assert moved.history == [{"split": "train", "step": 3, "loss": 0.5}]
    assert TrainingRun.objects.get(pk=failed.pk).status == "failed"
    model = PrmModel.objects.get(pk=prm.pk)
    assert model.training_run == moved and model.kind == "implicit"
    assert model.metrics == {"eval": {"f1": 0.75}}
    assert project.queue_priority.order == "prm_active"
    assert QueuePriority.objects.count() == 1
    # Same content type row, now the new app's.
    assert ContentType.objects.get_for_model(TrainingRun).pk == run_type.pk
    assert not ContentType.objects.filter(app_label="autolabel", model="trainingrun").exists()
    # The migrated state is the models' state: nothing left for makemigrations to write.
    state = executor.loader.project_state(executor.loader.graph.leaf_nodes())
    changes = MigrationAutodetector(state, ProjectState.from_apps(current_apps)).changes(
        graph=executor.loader.graph
    )
    assert changes == {}
