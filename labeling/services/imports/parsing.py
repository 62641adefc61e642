"""Reading an import file into batches of parsed rows; the arguments' checks; the validation
pass (`import_file_validate`), which parses the whole file and writes nothing.

A bad line raises labeling.importers.ImportFileError naming file, line and field, from
whichever pass reads it. BATCH_SOLUTIONS and BATCH_ROWS, where a batch ends, are read here
(tests set them on this module).
"""

import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import IO

from labeling.errors import ValidationFailed
from labeling.importers import FORMATS, ParsedRow, ParseOptions, RowStream, open_rows
from labeling.importers.domains import option_error
from labeling.models import PROBLEM_DOMAINS, Project, StepSplit
from labeling.steps.splitting import StepRule

LABELS_AS = ("suggestions", "annotations", "none")
BATCH_SOLUTIONS = 1000  # a batch ends after this many solutions...
BATCH_ROWS = 2000  # ...or this many rows (problem-only formats carry no solutions)

Progress = Callable[[int, int], None]
PathOrFile = str | os.PathLike[str] | IO[bytes]


@dataclass
class FileSummary:
    """What a validation pass found; nothing was written."""

    format: str
    rows: int = 0
    solutions: int = 0
    steps: int = 0


def filename_of(path: PathOrFile, filename: str | None) -> str:
    if filename:
        return filename
    name = path if isinstance(path, str | os.PathLike) else getattr(path, "name", "upload")
    return os.path.basename(os.fspath(name)) or "upload"


def project_step_rule(project: Project) -> StepRule:
    return StepRule(project.step_split, project.step_split_regex, project.step_split_tag)


def step_rule_resolve(
    *, project: Project, split: str = "", regex: str = "", tag: str = ""
) -> StepRule:
    """The step rule an import splits one-string solutions by: `split` with its regex or
    tag where given, else the project's. ValidationFailed names the field that is wrong
    (step_split, step_split_regex or step_split_tag)."""
    if not split:
        if regex or tag:
            field = "step_split_regex" if regex else "step_split_tag"
            raise ValidationFailed(
                f"{field} needs step_split (the rule it is for: regex or step_tags).", field=field
            )
        return project_step_rule(project)
    rule = StepRule(
        split,
        regex if split == StepSplit.REGEX else "",
        tag.strip() if split == StepSplit.STEP_TAGS else "",
    )
    try:
        return rule.check()
    except ValueError as exc:
        raise ValidationFailed(f"{exc}.", field=rule.field_of_error()) from exc


def parse_options(
    project: Project,
    domain: str = "",
    *,
    detect_uses: bool = True,
    step_rule: StepRule | None = None,
) -> ParseOptions:
    """The splitting and domain rules; `domain`: that of rows that name none; `detect_uses`:
    run the step-reference detector on solutions whose line gives no `uses`; `step_rule`:
    the import's own step rule (step_rule_resolve), else the project's."""
    rule = step_rule or project_step_rule(project)
    options = ParseOptions(
        step_split=rule.split,
        step_split_regex=rule.regex,
        step_split_tag=rule.tag,
        project_domain=project.domain,
        domain=domain,
        domains=PROBLEM_DOMAINS,
        detect_uses=detect_uses,
    )
    if message := option_error(options):
        raise ValidationFailed(message, field="domain")
    return options


def row_batches(rows: Iterable[ParsedRow]) -> Iterator[list[ParsedRow]]:
    batch: list[ParsedRow] = []
    solutions = 0
    for row in rows:
        batch.append(row)
        solutions += len(row.solutions)
        if solutions >= BATCH_SOLUTIONS or len(batch) >= BATCH_ROWS:
            yield batch
            batch, solutions = [], 0
    if batch:
        yield batch


def row_batches_read(rows: RowStream) -> Iterator[tuple[list[ParsedRow], int, int]]:
    """Each batch with the stream's position after it (for progress, read ahead of time)."""
    for batch in row_batches(rows):
        yield batch, rows.bytes_done, rows.rows


def check_args(*, fmt: str, labels_as: str) -> None:
    if fmt not in FORMATS:
        raise ValidationFailed(
            f"format must be one of {', '.join(FORMATS)}; got {fmt!r}.", field="format"
        )
    if labels_as not in LABELS_AS:
        raise ValidationFailed(
            f"labels_as must be one of {', '.join(LABELS_AS)}; got {labels_as!r}.",
            field="labels_as",
        )


def import_file_validate(
    *,
    project: Project,
    path: PathOrFile,
    fmt: str = "auto",
    filename: str | None = None,
    progress: Progress | None = None,
    domain: str = "",
    detect_uses: bool = True,
    step_rule: StepRule | None = None,
) -> FileSummary:
    """Parse the whole file without writing anything; raises ImportFileError like import_file
    (`detect_uses` and `step_rule` as there: the file is parsed as the write will parse it)."""
    check_args(fmt=fmt, labels_as="none")
    name = filename_of(path, filename)
    options = parse_options(project, domain, detect_uses=detect_uses, step_rule=step_rule)
    with open_rows(path, fmt=fmt, filename=name, options=options) as rows:
        summary = FileSummary(format=fmt)
        for batch in row_batches(rows):
            for row in batch:
                summary.solutions += len(row.solutions)
                summary.steps += sum(len(s.steps) for s in row.solutions)
            if progress:
                progress(rows.bytes_done, rows.rows)
    summary.format, summary.rows = rows.format, rows.rows
    return summary
