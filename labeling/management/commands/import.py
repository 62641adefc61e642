"""`manage.py import FILE --project NAME_OR_ID`: import a dataset file, all or nothing.
`manage.py import --hub OWNER/NAME [--config C] [--split S] [--revision R] --project ...`:
the same with one split of a Hub dataset (labeling.hub.pull), fetched first, with the token
`--token` / `--token-from-user` / HF_TOKEN choose (labeling.management.hub_token_args)."""

import os
import tempfile
from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from labeling.errors import DomainError
from labeling.hub.pull import HubSource, hub_split_write
from labeling.importers import FORMATS, ImportFileError
from labeling.management.hub_token_args import add_token_arguments, token_choice
from labeling.models import PROBLEM_DOMAINS, Project, StepSplit
from labeling.services.imports import LABELS_AS, import_file, step_rule_resolve
from labeling.services.projects.edit import project_create


def _project(ref: str, *, create: bool) -> Project:
    if ref.isdigit() and (project := Project.objects.filter(pk=int(ref)).first()):
        return project
    if project := Project.objects.filter(name=ref, deleted_at__isnull=True).first():
        return project
    if create:
        return project_create(created_by=None, name=ref)
    raise CommandError(f"No project with id or name {ref!r} (use --create-project to make it).")


class Command(BaseCommand):
    help = "Import a JSON Lines file (or .jsonl.gz) of problems and solutions into a project."
    stealth_options = ("stdin",)  # where `--token -` reads the token (call_command, tests)

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("file", nargs="?", help="a JSON Lines file (or .jsonl.gz)")
        parser.add_argument("--hub", metavar="OWNER/NAME", help="import a Hub dataset instead")
        parser.add_argument("--config", default="default", help="the Hub dataset's config")
        parser.add_argument("--split", default="train", help="the Hub dataset's split")
        parser.add_argument("--revision", default="main", help="a Hub branch, tag or commit")
        add_token_arguments(parser)
        parser.add_argument("--project", required=True, help="project name or id")
        parser.add_argument("--format", default="auto", choices=FORMATS)
        parser.add_argument("--labels-as", default="suggestions", choices=LABELS_AS)
        parser.add_argument(
            "--domain",
            default="",
            choices=PROBLEM_DOMAINS,
            help="the domain of rows that name none (a many-domains project's dataset files)",
        )
        parser.add_argument(
            "--near-duplicates",
            default="keep",
            choices=["keep", "skip"],
            help="new problems that are near-duplicates of the project's or of earlier ones in "
            "the file: import them (keep, the default) or leave them out (skip); both report",
        )
        parser.add_argument(
            "--step-split",
            default="",
            choices=StepSplit.values,
            help="how a solution given as one string becomes steps, for this import "
            "(default: the project's rule)",
        )
        parser.add_argument("--step-regex", default="", help="the regex rule's pattern")
        parser.add_argument(
            "--step-tag",
            default="",
            help="the step_tags rule's tag: <extra_0> (Qwen PRM), ки (Math-Shepherd), <step>, "
            "or any literal",
        )
        parser.add_argument(
            "--create-project", action="store_true", help="create the project if missing"
        )
        parser.add_argument("--no-progress", action="store_true", help="no progress bar")
        parser.add_argument(
            "--no-detect-uses",
            action="store_true",
            help="do not look for step dependencies in the text (a `uses` field is still read)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if bool(options["file"]) == bool(options["hub"]):
            raise CommandError("name a file or --hub OWNER/NAME (one of them)")
        if not options["hub"] and (options["token"] or options["token_from_user"]):
            raise CommandError("--token and --token-from-user go with --hub")
        if options["hub"]:
            choice = token_choice(options, options.get("stdin"))
            with tempfile.TemporaryDirectory(prefix="steplab-hub-") as tmp:
                source = HubSource(
                    options["hub"], options["config"], options["split"], options["revision"]
                )
                path = os.path.join(tmp, "split.jsonl")
                try:
                    with open(path, "wb") as out:
                        fetched = hub_split_write(source, out, auth=choice.auth)
                except DomainError as exc:  # hub_errors' words: whose token, never the token
                    raise CommandError(exc.message) from None
                self.stdout.write(
                    f"Fetched {fetched['rows']} rows of {source.label()} "
                    f"from {len(fetched['files'])} file(s) with {choice.whose}."
                )
                return self._import(path, options, label=source.label())
        return self._import(options["file"], options, label=options["file"])

    def _import(self, path: str, options: dict[str, Any], *, label: str) -> None:
        if not os.path.isfile(path):
            raise CommandError(f"{path}: no such file")
        project = _project(options["project"], create=options["create_project"])
        try:
            rule = step_rule_resolve(
                project=project,
                split=options["step_split"],
                regex=options["step_regex"],
                tag=options["step_tag"],
            )
        except DomainError as exc:
            flag = {"step_split_regex": "--step-regex", "step_split_tag": "--step-tag"}
            field = exc.details.get("field", "")
            raise CommandError(f"{flag.get(field, '--step-split')}: {exc.message}") from exc
        bar = tqdm(
            total=os.path.getsize(path),
            unit="B",
            unit_scale=True,
            desc=os.path.basename(label),
            disable=options["no_progress"] or options["verbosity"] == 0,
            # the raw stream: OutputWrapper would end each of tqdm's "\r" redraws with "\n"
            file=getattr(self.stderr, "_out", self.stderr),
        )

        def progress(bytes_done: int, rows_done: int) -> None:
            bar.update(bytes_done - bar.n)
            bar.set_postfix(rows=rows_done, refresh=False)

        try:
            result = import_file(
                project=project,
                path=path,
                filename=label if options["hub"] else None,
                fmt=options["format"],
                labels_as=options["labels_as"],
                progress=progress,
                domain=options["domain"],
                detect_uses=not options["no_detect_uses"],
                near_duplicates=options["near_duplicates"],
                step_rule=rule,
            )
        except ImportFileError as exc:
            bar.close()
            self.stderr.write(str(exc))
            raise CommandError("import failed; nothing was imported") from exc
        except DomainError as exc:
            bar.close()
            raise CommandError(exc.message) from exc
        bar.close()
        self.stdout.write(f"Imported {label} into {project.name!r} (format {result.format}):")
        self.stdout.write(
            f"  step rule: {rule.split}"
            + (f" {rule.regex or rule.tag}" if rule.regex or rule.tag else "")
        )
        for key, value in result.as_dict().items():
            if key not in ("format", "near_duplicates"):
                self.stdout.write(f"  {key}: {value}")
        self._near_duplicates(result.near_duplicates)

    def _near_duplicates(self, report: dict[str, Any]) -> None:
        done = "skipped" if report["mode"] == "skip" else "kept"
        self.stdout.write(
            f"  near-duplicate problems ({done}): {report['existing']} of the project's, "
            f"{report['in_file']} within the file"
            + (f"; {report['skipped_solutions']} solutions skipped" if done == "skipped" else "")
        )
        for example in report["examples"]:
            self.stdout.write(
                f"    line {example['line']}: {example['problem'][:80]!r} ~ "
                f"{example['near'][:80]!r} ({example['of']})"
            )
