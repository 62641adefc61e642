"""PRM training runs: create and cancel them, register the PRMs they (or a user) produce.

Running a run is training_runs.execution (the trainer as a subprocess under a lease);
reading its files is training_runs.progress.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from django.utils import timezone

from autolabel.models.runs import AutolabelRun, RunStatus
from labeling.errors import Conflict, ValidationFailed
from labeling.models import Export, ExportFormat, ExportStatus, Project
from labeling.services.collection_caps import collection_room_check
from labeling.services.in_use import delete_unless_in_use
from labeling.services.jobs.quota import active_jobs_check
from training_runs.config_checks import check_client_config
from training_runs.layout import run_dir
from training_runs.model_refs import check_model_path
from training_runs.models import PrmModel, TrainingRun, TrainingStatus

# Settings the app decides for every run; a user's config may not set them. `eval_data` is a
# list of files on the server: a run evaluates on its export's own split (eval_split,
# eval_fraction), never on a path a client names (another project's export, any file the
# trainer can read, whose lines its errors would show in the log).
RESERVED = ("data", "eval_data", "model", "out", "resume_from", "progress")
HEARTBEAT_STALE_S = 60


def heartbeat_stale_s() -> int:
    """A lease whose heartbeat is older than this was held by a lost worker."""
    return int(getattr(settings, "TRAINING_HEARTBEAT_STALE_S", HEARTBEAT_STALE_S))


def training_dirs_of_project(*, project_id: int) -> list[Path]:
    """The run directories (export copy, config, log, the trained model in out/) of every
    training run of the project: what deleting the project deletes on disk. A PRM registered
    by path is the user's directory, not ours, and is left alone."""
    runs = TrainingRun.objects.filter(project_id=project_id).only("pk")
    return [run_dir(run) for run in runs]


def _check_config(config: dict[str, Any], *, user: Any) -> dict[str, Any]:
    from training.config import TrainConfig

    reserved = sorted(set(config) & set(RESERVED))
    if reserved:
        raise ValidationFailed(
            f"config may not set {', '.join(reserved)}: the run decides them.", field="config"
        )
    check_client_config(config, user=user)
    try:
        TrainConfig.from_dict({**config, "data": ["x"], "model": "x", "out": "x"}).validate()
    except (TypeError, ValueError) as exc:
        raise ValidationFailed(f"config: {exc}", field="config") from exc
    return config


def _check_model_dir(path: str, *, field: str, user: Any, project: Project) -> str:
    """An absolute model directory the user may name (training_runs.model_refs: checked before
    anything on disk is looked at, so a refusal says nothing of what exists there)."""
    path = check_model_path(path, user=user, project=project, field=field)
    directory = Path(path).expanduser()
    if not directory.is_absolute():
        raise ValidationFailed(f"{field} must be an absolute path, got {path!r}.", field=field)
    if not (directory / "config.json").is_file():
        raise ValidationFailed(
            f"{field}: {path} is not a model directory (no config.json there).", field=field
        )
    return str(directory)


def _check_export(project: Project, export: Export) -> None:
    if export.project_id != project.pk:
        raise ValidationFailed("The export belongs to another project.", field="export")
    if export.format != ExportFormat.TRL:
        raise ValidationFailed(
            f"Training needs a TRL stepwise export; export {export.pk} is {export.format}.",
            field="export",
        )
    if export.status != ExportStatus.DONE or not export.file:
        raise ValidationFailed(
            f"Export {export.pk} is {export.status}; training needs a finished export.",
            field="export",
        )


@transaction.atomic
def training_run_create(
    *,
    project: Project,
    export: Export,
    base_model: str,
    config: dict[str, Any] | None = None,
    created_by: Any = None,
) -> TrainingRun:
    """Validate and store a pending run; the caller queues `training_run_task` on commit."""
    # Locked: the export is not deleted under the run (export_delete refuses while it runs).
    locked = Export.objects.select_for_update().filter(pk=export.pk).first()
    if locked is None:
        raise ValidationFailed(f"Export {export.pk} was deleted.", field="export")
    export = locked
    _check_export(project, export)
    base_model = _check_model_dir(base_model, field="base_model", user=created_by, project=project)
    config = _check_config(dict(config or {}), user=created_by)
    # A registered model this run starts from is not deleted under it (prm_model_delete).
    list(PrmModel.objects.select_for_update().filter(project=project, path=base_model))
    unfinished = TrainingRun.objects.filter(
        project=project, status__in=(TrainingStatus.PENDING, TrainingStatus.RUNNING)
    )
    active_jobs_check(
        project_id=project.pk, kind="training_runs", unfinished=unfinished, user=created_by
    )
    # A run registers its model when it finishes: its room is taken now, so its output is never
    # refused (nothing lost) and the project's models stay bounded.
    _models_room_check(project)
    return TrainingRun.objects.create(
        project=project,
        export=export,
        base_model=base_model,
        config=config,
        created_by=created_by,
        created_by_server=created_by is None,
    )


@transaction.atomic
def training_run_cancel(*, run: TrainingRun) -> TrainingRun:
    """Mark the run cancelled; the process running it sees that and kills the trainer."""
    updated = TrainingRun.objects.filter(
        pk=run.pk, status__in=(TrainingStatus.PENDING, TrainingStatus.RUNNING)
    ).update(status=TrainingStatus.CANCELLED, finished_at=timezone.now())
    run.refresh_from_db()
    if not updated:
        raise Conflict(f"The run is already {run.status}.")
    return run


@transaction.atomic
def prm_model_register(
    *,
    project: Project,
    name: str,
    path: str,
    created_by: Any = None,
    created_by_server: bool | None = None,
    training_run: TrainingRun | None = None,
    base_model: str = "",
    metrics: dict[str, Any] | None = None,
) -> PrmModel:
    """`created_by` None is the server itself unless `created_by_server` says otherwise (a
    training run registering its output for a creator deleted since: checked as nobody's)."""
    server = created_by is None if created_by_server is None else created_by_server
    actor = created_by if created_by is not None else (None if server else AnonymousUser())
    path = _check_model_dir(path, field="path", user=actor, project=project)
    name = name.strip()
    if not name:
        raise ValidationFailed("A model needs a name.", field="name")
    if PrmModel.objects.filter(project=project, name=name).exists():
        raise ValidationFailed(f"This project already has a model named {name!r}.", field="name")
    if training_run is None:  # a finishing run's room was taken when it was created
        _models_room_check(project)
    if not base_model:
        card = Path(path) / "training_config.json"
        if card.is_file():
            base_model = str(json.loads(card.read_text()).get("model", ""))
    from training.scorers import prm_kind

    return PrmModel.objects.create(
        project=project,
        name=name,
        path=path,
        created_by=created_by,
        created_by_server=server and created_by is None,
        training_run=training_run,
        base_model=base_model,
        kind=prm_kind(path),
        metrics=metrics or {},
    )


def _models_room_check(project: Project) -> None:
    """409 when the project's registered models, with those its unfinished training runs will
    register, reach COLLECTION_CAPS["prm_models"]. Inside the caller's transaction."""
    unfinished = TrainingRun.objects.filter(
        project=project, status__in=(TrainingStatus.PENDING, TrainingStatus.RUNNING)
    )
    collection_room_check(
        kind="prm_models",
        owner_id=project.pk,
        held=PrmModel.objects.filter(project=project),
        reserved=unfinished.count(),
    )


def free_model_name(project: Project, name: str) -> str:
    """`name`, or `name-2`, `name-3`... when a model registered by hand already has it."""
    taken = set(PrmModel.objects.filter(project=project).values_list("name", flat=True))
    candidate, n = name, 1
    while candidate in taken:
        n += 1
        candidate = f"{name}-{n}"
    return candidate


def _runs_using_model(model: PrmModel) -> list[str]:
    """Words for each unfinished job that uses `model`: an auto-label run that scores with it
    (params.prm names it by id, or by its path) or a training run that starts from it."""
    users = []
    unfinished = AutolabelRun.objects.filter(
        project_id=model.project_id,
        status__in=(RunStatus.PENDING, RunStatus.RUNNING, RunStatus.PAUSED),
    ).only("pk", "sources", "params")  # a project's unfinished runs: a handful
    for run in unfinished:
        prm = (run.params or {}).get("prm") if "prm" in (run.sources or []) else None
        named = isinstance(prm, dict) and model.pk == prm.get("model_id")
        if named or (isinstance(prm, dict) and prm.get("path") == model.path):
            users.append(f"auto-label run {run.pk}")
    training = TrainingRun.objects.filter(
        project_id=model.project_id,
        status__in=(TrainingStatus.PENDING, TrainingStatus.RUNNING),
        base_model=model.path,
    ).values_list("pk", flat=True)
    users += [f"training run {pk}" for pk in training]
    return users


def prm_model_delete(*, model: PrmModel) -> None:
    """Unregister `model`, freeing its place under COLLECTION_CAPS["prm_models"]; a 409 while an
    unfinished auto-label run or training run uses it.

    The suggestions it wrote stay: each carries its agent (``prm:<name>``) and run. Its files
    stay too: registering stores a path, never a copy, and the directory is the operator's
    (under MODEL_DIRS) or its training run's output, which the run still names. The row lock
    serializes this with a run being created on it (autolabel.services._resolve_prm and
    training_run_create lock the model they read)."""
    delete_unless_in_use(
        PrmModel.objects,
        pk=model.pk,
        what=lambda row: f"Model {row.name!r}",
        users=_runs_using_model,
    )
