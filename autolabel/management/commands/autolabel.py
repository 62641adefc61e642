"""`manage.py autolabel --project P --sources answer,symbolic [--params JSON] [--inline]`."""

import json
import time

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from tqdm import tqdm

from autolabel.models import AutolabelRun, RunStatus
from autolabel.registry import ENGINES
from autolabel.run_chunks import autolabel_chunk_process
from autolabel.services import (
    autolabel_run_chunks,
    autolabel_run_create,
    autolabel_run_refresh,
    autolabel_run_stopped,
)
from autolabel.tasks import autolabel_run_start_task
from labeling.errors import DomainError
from labeling.models import Project
from labeling.services.jobs.outbox import outbox_add

FINISHED = (RunStatus.DONE, RunStatus.FAILED, RunStatus.CANCELLED)


def _params(text: str) -> dict:
    try:
        params = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CommandError(f"--params is not JSON: {exc}") from exc
    if not isinstance(params, dict):
        raise CommandError("--params must be a JSON object.")
    return params


class Command(BaseCommand):
    help = "Pre-fill step suggestions for a project's solutions."

    def add_arguments(self, parser):
        parser.add_argument("--project", required=True, help="Project name or id.")
        parser.add_argument(
            "--sources", required=True, help=f"Comma-separated: {', '.join(sorted(ENGINES))}."
        )
        parser.add_argument("--only-unlabeled", action="store_true")
        parser.add_argument(
            "--params",
            default="{}",
            help='Per-source params as JSON, e.g. \'{"prm": {"model_id": 3, "threshold": 0.5}}\'.',
        )
        parser.add_argument(
            "--inline",
            action="store_true",
            help="Process here instead of on the Celery workers.",
        )
        parser.add_argument("--no-wait", action="store_true", help="Enqueue and return.")

    def handle(self, *args, project, sources, only_unlabeled, params, inline, no_wait, **options):
        found = Project.objects.filter(pk=int(project)) if project.isdigit() else None
        found = found or Project.objects.filter(name=project, deleted_at__isnull=True)
        target = found.first()
        if target is None:
            raise CommandError(f"No project {project!r}.")
        try:
            with transaction.atomic():
                run = autolabel_run_create(
                    project=target,
                    sources=[s.strip() for s in sources.split(",") if s.strip()],
                    filter={"only_unlabeled": only_unlabeled},
                    params=_params(params),
                )
                if not inline:  # sent after the commit; with the broker down, by the sweep
                    outbox_add(task=autolabel_run_start_task.name, args=[run.pk])
        except DomainError as exc:
            raise CommandError(exc.message) from exc
        self.stdout.write(f"Run {run.pk}: {run.total} solutions, sources {run.sources}")
        if inline:
            self._inline(run)
        elif no_wait:
            return
        else:
            self._follow(run)
        run.refresh_from_db()
        self.stdout.write(
            f"Run {run.pk} {run.status}: {run.done} done, {run.failed} failed, "
            f"{run.suggestions_written} suggestions"
        )

    def _inline(self, run: AutolabelRun) -> None:
        AutolabelRun.objects.filter(pk=run.pk).update(inline=True)  # not the workers' to resume
        stopped = lambda: autolabel_run_stopped(run=run)  # noqa: E731 - paused or cancelled
        with tqdm(total=run.total, unit="solution") as bar:
            for chunk in autolabel_run_chunks(run=run):
                if stopped():
                    break  # a resume hands the pending rest to the workers
                autolabel_chunk_process(run=run, solution_ids=chunk, stop=stopped)
                bar.update(len(chunk))
                autolabel_run_refresh(run=run)
        autolabel_run_refresh(run=run)

    def _follow(self, run: AutolabelRun) -> None:
        with tqdm(total=run.total, unit="solution") as bar:
            while True:
                run.refresh_from_db()
                bar.n = run.done + run.failed
                bar.refresh()
                if run.status in FINISHED:
                    return
                time.sleep(0.5)
