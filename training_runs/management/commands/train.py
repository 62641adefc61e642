"""`manage.py train --project P --export ID --model PATH [--config FILE] [--inline]`.

Creates a TrainingRun and either queues it on the `gpu` workers and follows its progress, or
(`--inline`) runs the trainer from this command, as the worker would.
"""

import json
import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from tqdm import tqdm

from labeling.errors import DomainError
from labeling.models import Export, Project
from labeling.services.jobs.outbox import outbox_add
from training_runs.execution import training_run_execute
from training_runs.models import TrainingRun
from training_runs.services import training_run_create
from training_runs.tasks import training_run_task


def _config(path: str | None) -> dict:
    if not path:
        return {}
    text = Path(path).read_text(encoding="utf-8")
    if path.endswith((".yaml", ".yml")):
        import yaml

        values = yaml.safe_load(text) or {}
    else:
        values = json.loads(text)
    if not isinstance(values, dict):
        raise CommandError(f"{path}: expected a mapping of TrainConfig settings.")
    return values


class Command(BaseCommand):
    help = "Train a PRM on a TRL export of a project; the trained model is registered."

    def add_arguments(self, parser):
        parser.add_argument("--project", required=True, help="Project name or id.")
        parser.add_argument("--export", required=True, type=int, help="A done TRL export id.")
        parser.add_argument("--model", required=True, help="Base checkpoint directory.")
        parser.add_argument("--config", help="YAML or JSON TrainConfig settings (lr, epochs...).")
        parser.add_argument("--inline", action="store_true", help="Train here, not on a worker.")
        parser.add_argument("--no-wait", action="store_true", help="Enqueue and return.")

    def handle(self, *args, project, export, model, config, inline, no_wait, **options):
        found = Project.objects.filter(pk=int(project)) if project.isdigit() else None
        target = (found or Project.objects.filter(name=project, deleted_at__isnull=True)).first()
        if target is None:
            raise CommandError(f"No project {project!r}.")
        source = Export.objects.filter(pk=export, project=target).first()
        if source is None:
            raise CommandError(f"No export {export} in project {target.name!r}.")
        try:
            with transaction.atomic():
                run = training_run_create(
                    project=target, export=source, base_model=model, config=_config(config)
                )
                if not inline:  # sent after the commit; with the broker down, by the sweep
                    outbox_add(task=training_run_task.name, args=[run.pk])
        except DomainError as exc:
            raise CommandError(exc.message) from exc
        self.stdout.write(f"Training run {run.pk}: export {source.pk}, base model {model}")
        if inline:
            training_run_execute(run_id=run.pk)
        elif no_wait:
            return
        else:
            self._follow(run)
        run.refresh_from_db()
        if run.status != "done":
            raise CommandError(f"Training run {run.pk} {run.status}: {run.error}")
        self.stdout.write(
            f"Training run {run.pk} done: {run.step} steps, PRM at {run.artifact_path}, "
            f"registered as model {run.prm_model.pk} ({run.prm_model.name})"
        )

    def _follow(self, run: TrainingRun) -> None:
        with tqdm(total=run.total_steps or None, unit="step") as bar:
            while True:
                run.refresh_from_db()
                bar.total = run.total_steps or bar.total
                bar.n = run.step
                bar.refresh()
                if run.status in TrainingRun.FINISHED:
                    return
                time.sleep(1.0)
