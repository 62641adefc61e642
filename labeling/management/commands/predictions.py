"""`manage.py predictions import --project ID FILE`: store a model's step labels (all or
nothing), and `manage.py predictions list --project ID`: the project's prediction sources."""

import os
from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from labeling.importers import ImportFileError
from labeling.importers.predictions import KINDS
from labeling.models import Project
from labeling.selectors.predictions import prediction_source_list
from labeling.services.imports.predictions import predictions_upload


def _project(ref: str) -> Project:
    found = Project.objects.filter(deleted_at__isnull=True)
    project = (found.filter(pk=int(ref)).first() if ref.isdigit() else None) or found.filter(
        name=ref
    ).first()
    if project is None:
        raise CommandError(f"No project with id or name {ref!r}.")
    return project


class Command(BaseCommand):
    help = "Upload predictions (a model's step labels) into a project, or list its sources."

    def add_arguments(self, parser: ArgumentParser) -> None:
        sub = parser.add_subparsers(dest="action", required=True)
        upload = sub.add_parser("import", help="store a predictions file (JSON Lines or JSON)")
        upload.add_argument("file")
        upload.add_argument("--project", required=True, help="project name or id")
        upload.add_argument(
            "--format",
            choices=("auto", *KINDS),
            default="auto",
            help="jsonl (may be gzipped) or json (one array); auto: by the file's name",
        )
        upload.add_argument("--name", default="", help="the source's name for lines without one")
        upload.add_argument("--version", default="", help="its version, likewise")
        listing = sub.add_parser("list", help="the project's prediction sources")
        listing.add_argument("--project", required=True, help="project name or id")

    def handle(self, *args: Any, **options: Any) -> None:
        project = _project(options["project"])
        if options["action"] == "list":
            for row in prediction_source_list(project=project):
                self.stdout.write(
                    f"{row['agent']}\t{row['steps']} steps\t{row['solutions']} solutions\t"
                    f"last {row['last_upload']:%Y-%m-%d %H:%M}"
                )
            return
        path = options["file"]
        if not os.path.isfile(path):
            raise CommandError(f"{path}: no such file")
        kind = options["format"]
        if kind == "auto":
            kind = "json" if path.endswith((".json", ".json.gz")) else "jsonl"
        try:
            with open(path, "rb") as source:
                result = predictions_upload(
                    project=project,
                    source=source,
                    filename=os.path.basename(path),
                    kind=kind,
                    name=options["name"],
                    version=options["version"],
                )
        except ImportFileError as exc:
            raise CommandError(f"{exc} (nothing was stored)") from exc
        self.stdout.write(
            self.style.SUCCESS(
                f"{result.solutions} solutions: {result.steps_created} step labels new, "
                f"{result.steps_updated} updated, {result.steps_removed} removed "
                f"({', '.join(result.sources) or 'no sources'})"
            )
        )
