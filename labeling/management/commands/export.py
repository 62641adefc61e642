"""`manage.py export --project NAME_OR_ID --format trl --output DIR`: build an export here.

Creates the same Export row the API creates and builds it in this process with a progress
bar (no worker needed), then copies the data file and its dataset card (README.md) into
--output. Options not covered by a flag can be given as JSON with --filters,
--label-policy and --split-policy; flags win over the JSON.
"""

import json
import shutil
from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.core.files.storage import default_storage
from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from labeling.errors import DomainError
from labeling.exporters import FILE_TYPES, FORMATS, Combine, LabelSource, Neutral, Unsure
from labeling.models import ExportStatus, Project
from labeling.services.exports.snapshots import export_build, export_create


def _json(value: str | None, name: str) -> dict[str, Any]:
    if not value:
        return {}
    try:
        data = json.loads(value)
    except json.JSONDecodeError as exc:
        raise CommandError(f"--{name}: not JSON ({exc})") from exc
    if not isinstance(data, dict):
        raise CommandError(f"--{name}: expected a JSON object")
    return data


def _split(value: str) -> dict[str, float]:
    try:
        train, validation, test = (float(x) for x in value.split(","))
    except ValueError as exc:
        raise CommandError("--split: expected TRAIN,VALIDATION,TEST, e.g. 0.9,0.05,0.05") from exc
    return {"train": train, "validation": validation, "test": test}


def _project(ref: str) -> Project:
    if ref.isdigit() and (project := Project.objects.filter(pk=int(ref)).first()):
        return project
    if project := Project.objects.filter(name=ref, deleted_at__isnull=True).first():
        return project
    raise CommandError(f"No project with id or name {ref!r}.")


def _benchmark(value: str) -> dict[str, str]:
    if not value.startswith("hf://"):
        return {"file": value}
    parts = value.removeprefix("hf://").split("/")
    if len(parts) not in (2, 4):
        raise CommandError(
            f"--decontaminate {value}: hf://OWNER/NAME or hf://OWNER/NAME/CONFIG/SPLIT."
        )
    config, split = parts[2:] or ["default", "test"]
    return {"hub": "/".join(parts[:2]), "config": config, "split": split}


class Command(BaseCommand):
    help = "Export a project's labeled steps as a training set (file + dataset card)."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--project", required=True, help="project name or id")
        parser.add_argument("--format", required=True, choices=list(FORMATS))
        parser.add_argument("--file-type", default="jsonl", choices=list(FILE_TYPES))
        parser.add_argument("--output", required=True, help="directory for the file and card")
        parser.add_argument(
            "--label-source",
            choices=[s.value for s in LabelSource],
            help="default final: review, else the annotators' majority (ties left out)",
        )
        parser.add_argument(
            "--machine-labels",
            action="store_true",
            help="label source final: machine labels for steps no human labeled",
        )
        parser.add_argument("--min-agreement", type=float)
        parser.add_argument(
            "--min-score", type=float, help="machine labels: minimum calibrated score (0-1)"
        )
        parser.add_argument("--unsure", choices=[u.value for u in Unsure])
        parser.add_argument("--annotator", action="append", dest="annotators")
        parser.add_argument("--problem-source", action="append", dest="problem_sources")
        parser.add_argument(
            "--domain", action="append", dest="domains", help="only problems of this domain"
        )
        parser.add_argument("--labeled-after")
        parser.add_argument("--labeled-before")
        parser.add_argument("--neutral", choices=[n.value for n in Neutral])
        parser.add_argument("--combine", choices=[c.value for c in Combine])
        parser.add_argument(
            "--no-truncate", action="store_true", help="keep the steps after the first error"
        )
        parser.add_argument("--soft-labels", action="store_true")
        parser.add_argument("--label-sources", action="store_true")
        parser.add_argument("--placeholder-token", help="openrlhf: the tag after each step")
        parser.add_argument(
            "--tokenizer", help="chat_template: a tokenizer directory or a cached Hub name"
        )
        parser.add_argument("--step-separator", help="chat_template: the token after each step")
        parser.add_argument("--split", type=_split, help="TRAIN,VALIDATION,TEST fractions")
        parser.add_argument("--no-split", action="store_true", help="no split column")
        parser.add_argument("--seed", help="split seed")
        parser.add_argument(
            "--decontaminate",
            action="append",
            metavar="FILE|hf://OWNER/NAME[/CONFIG/SPLIT]",
            help="leave out problems of this benchmark (a JSONL file in BENCHMARK_DIR, or a "
            "Hub dataset split; default config 'default', split 'test'); repeatable",
        )
        parser.add_argument("--filters", help="filters as JSON")
        parser.add_argument("--label-policy", help="label policy as JSON")
        parser.add_argument("--split-policy", help="split policy as JSON")
        parser.add_argument("--no-progress", action="store_true", help="no progress bar")

    def _options(self, o: dict[str, Any]) -> tuple[dict, dict, dict]:
        filters = _json(o["filters"], "filters")
        policy = _json(o["label_policy"], "label-policy")
        split = _json(o["split_policy"], "split-policy")
        for key in (
            "label_source",
            "min_agreement",
            "min_score",
            "unsure",
            "annotators",
            "problem_sources",
            "domains",
            "labeled_after",
            "labeled_before",
        ):
            if o[key] is not None:
                filters[key] = o[key]
        for key in ("neutral", "combine", "placeholder_token", "tokenizer", "step_separator"):
            if o[key] is not None:
                policy[key] = o[key]
        if o["machine_labels"]:
            filters["machine_labels"] = True
        if o["decontaminate"]:
            filters["decontaminate"] = [_benchmark(b) for b in o["decontaminate"]]
        if o["no_truncate"]:
            policy["truncate_after_first_error"] = False
        if o["soft_labels"]:
            policy["soft_labels"] = True
        if o["label_sources"]:
            policy["label_sources"] = True
        if o["split"]:
            split.update(o["split"])
        if o["no_split"]:
            split["mode"] = "none"
        if o["seed"] is not None:
            split["seed"] = o["seed"]
        return filters, policy, split

    def handle(self, *args: Any, **o: Any) -> None:
        project = _project(o["project"])
        filters, policy, split = self._options(o)
        try:
            export = export_create(
                project=project,
                created_by=None,
                format=o["format"],
                file_type=o["file_type"],
                filters=filters,
                label_policy=policy,
                split_policy=split,
            )
        except DomainError as exc:
            raise CommandError(exc.message) from exc
        bar = tqdm(
            unit="solutions",
            desc=f"export {export.pk}",
            disable=o["no_progress"] or o["verbosity"] == 0,
            file=getattr(self.stderr, "_out", self.stderr),
        )

        def progress(done: int, total: int) -> None:
            bar.total = total
            bar.update(done - bar.n)

        export = export_build(export=export, progress=progress)
        bar.close()
        if export.status != ExportStatus.DONE:
            raise CommandError(f"export {export.pk} failed: {export.error.get('message')}")
        out = Path(o["output"])
        out.mkdir(parents=True, exist_ok=True)
        name = Path(export.file.name).name
        with default_storage.open(export.file.name, "rb") as src, open(out / name, "wb") as dst:
            shutil.copyfileobj(src, dst)
        (out / "README.md").write_text(export.card, encoding="utf-8")
        self.stdout.write(
            f"Exported {export.row_count} rows ({export.step_count} steps) of {project.name!r} "
            f"as {export.format} {export.file_type}: export {export.pk}"
        )
        self.stdout.write(f"  file: {out / name}")
        self.stdout.write(f"  card: {out / 'README.md'}")
        self.stdout.write(f"  sha256: {export.sha256}")
