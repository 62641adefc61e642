"""`manage.py near_dup_keys [--project NAME_OR_ID]`: store the near-duplicate band keys and
clusters of every project's problems (labeling/services/imports/near_rebuild.py), a batch at a
time. Run it after upgrading to keys stored per problem (migration labeling 0041) or after
changing NEAR_DUP_THRESHOLD; an import into a project without keys does it first."""

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from labeling.models import Project
from labeling.services.imports.near_rebuild import near_keys_rebuild


class Command(BaseCommand):
    help = "Store the near-duplicate band keys and clusters of projects' problems."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--project", help="project name or id (default: every project)")

    def handle(self, *args: Any, **options: Any) -> None:
        projects = Project.objects.filter(deleted_at__isnull=True).order_by("pk")
        if ref := options["project"]:
            by = {"pk": int(ref)} if ref.isdigit() else {"name": ref}
            projects = projects.filter(**by)
            if not projects.exists():
                raise CommandError(f"No project with id or name {ref!r}.")
        for project in projects.iterator():
            keyed = near_keys_rebuild(project=project)
            self.stdout.write(f"{project.name}: {keyed} problems keyed")
