"""`manage.py hub_push EXPORT_ID OWNER/NAME [--public]`: push a done export to a Hub dataset
repo (labeling.hub.push), with the token in HF_TOKEN (or --token)."""

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from labeling.errors import DomainError
from labeling.models import Export
from labeling.services.exports.hub import hub_push_run


class Command(BaseCommand):
    help = "Push a done export to a Hugging Face Hub dataset repo (private unless --public)."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("export_id", type=int)
        parser.add_argument("repo_id", metavar="OWNER/NAME")
        parser.add_argument("--public", action="store_true", help="create the repo public")
        parser.add_argument("--token", default=None, help="a Hub token (default: HF_TOKEN)")

    def handle(self, *args: Any, **options: Any) -> None:
        export = Export.objects.filter(pk=options["export_id"]).first()
        if export is None:
            raise CommandError(f"No export {options['export_id']}.")
        try:
            push = hub_push_run(
                export=export,
                repo_id=options["repo_id"],
                private=not options["public"],
                token=options["token"],
                created_by=None,
            )
        except DomainError as exc:
            raise CommandError(exc.message) from exc
        if push.status != "done":
            raise CommandError(push.error)
        splits = ", ".join(f"{name} {n}" for name, n in push.splits.items())
        self.stdout.write(f"Pushed export {export.pk} to {push.url} at {push.tag} ({splits} rows).")
