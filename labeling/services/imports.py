"""Importing dataset files into a project: streamed, bulk-written, atomic and idempotent.

`import_file` reads a JSON Lines file (optionally gzipped) one line at a time, parses each
line with the format's parser (labeling.importers), and writes batches of about a thousand
solutions with one bulk INSERT per table. The whole file is one transaction: a bad line
raises ImportFileError naming file, line and field, and nothing of the file stays.

Re-importing is a no-op: problems and solutions carry stable external ids (the dataset's
own id where it has one, else a sha256 of the normalized content), each batch looks up
which of its ids the project already has, and only the new ones are written.

Concurrent imports into one project are serialized by a row lock on the project
(FOR NO KEY UPDATE, so inserts referencing the project are not blocked): the second waits,
then finds the first's rows instead of failing on the unique external ids.
"""

import logging
import os
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from typing import IO, Any, TypeVar

from django.db import DEFAULT_DB_ALIAS, DatabaseError, connection, connections, transaction
from django.db.models import Model
from django.utils import timezone

from labeling.errors import DomainError, ValidationFailed
from labeling.importers import (
    FORMATS,
    ImportFileError,
    ParsedRow,
    ParsedSolution,
    ParseOptions,
    open_rows,
)
from labeling.models import (
    Annotation,
    AnnotationStatus,
    ImportJob,
    ImportStatus,
    Problem,
    Project,
    Solution,
    Step,
    StepAlternative,
    StepLabel,
    Suggestion,
    SuggestionSource,
)

logger = logging.getLogger(__name__)

LABELS_AS = ("suggestions", "annotations", "none")
BATCH_SOLUTIONS = 1000  # a batch ends after this many solutions...
BATCH_ROWS = 2000  # ...or this many rows (problem-only formats carry no solutions)
LOOKUP_CHUNK = 900  # ids per `IN (...)` lookup; below SQLite's old 999-variable limit
INSERT_BATCH = 5000  # rows per INSERT statement (Django lowers it further on SQLite)

Progress = Callable[[int, int], None]
PathOrFile = str | os.PathLike[str] | IO[bytes]
M = TypeVar("M", bound=Model)


@dataclass
class ImportResult:
    format: str
    rows: int = 0
    problems_created: int = 0
    problems_existing: int = 0
    solutions_created: int = 0
    solutions_skipped: int = 0
    steps_created: int = 0
    alternatives_created: int = 0
    annotations_created: int = 0
    labels_created: int = 0  # Suggestion rows, or StepLabel rows of imported annotations

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class FileSummary:
    """What a validation pass found; nothing was written."""

    format: str
    rows: int = 0
    solutions: int = 0
    steps: int = 0


def _chunks(items: list[str], size: int = LOOKUP_CHUNK) -> Iterator[list[str]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def _filename(path: PathOrFile, filename: str | None) -> str:
    if filename:
        return filename
    name = path if isinstance(path, str | os.PathLike) else getattr(path, "name", "upload")
    return os.path.basename(os.fspath(name)) or "upload"


def _options(project: Project) -> ParseOptions:
    return ParseOptions(step_split=project.step_split, step_split_regex=project.step_split_regex)


def _batches(rows: Iterable[ParsedRow]) -> Iterator[list[ParsedRow]]:
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


class _BatchWriter:
    """Writes batches of parsed rows; about eight queries a batch whatever its size."""

    def __init__(self, *, project: Project, labels_as: str, filename: str) -> None:
        self.project = project
        self.labels_as = labels_as
        self.filename = filename
        self.result = ImportResult(format="")
        self._created_problems: set[int] = set()
        self._existing_problems: set[int] = set()
        # PostgreSQL, and SQLite >= 3.35, set primary keys on bulk-created objects.
        self._returns_pks = connection.features.can_return_rows_from_bulk_insert

    def write(self, rows: list[ParsedRow]) -> None:
        problem_pks = self._problems(rows)
        solutions = self._solutions(rows, problem_pks)
        steps = self._steps(solutions)
        self._alternatives(steps)
        if self.labels_as == "suggestions":
            self._suggestions(steps)
        elif self.labels_as == "annotations":
            self._annotations(solutions, steps)

    def _existing(self, model: type[Model], external_ids: list[str]) -> dict[str, int]:
        found: dict[str, int] = {}
        for chunk in _chunks(external_ids):
            found.update(
                model._default_manager.filter(
                    project=self.project, external_id__in=chunk
                ).values_list("external_id", "id")
            )
        return found

    def _create(self, model: type[M], objs: list[M]) -> list[M]:
        return model._default_manager.bulk_create(objs, batch_size=INSERT_BATCH)

    def _problems(self, rows: list[ParsedRow]) -> dict[str, int]:
        wanted = {}
        for row in rows:
            wanted.setdefault(row.problem.external_id, row.problem)
        pks = self._existing(Problem, list(wanted))
        for pk in pks.values():
            if pk not in self._created_problems and pk not in self._existing_problems:
                self._existing_problems.add(pk)
                self.result.problems_existing += 1
        new = [
            Problem(
                project=self.project,
                text=p.text,
                answer=p.answer,
                reference_solution=p.reference_solution,
                source=p.source,
                external_id=p.external_id,
                metadata=p.metadata,
            )
            for ext, p in wanted.items()
            if ext not in pks
        ]
        self._create(Problem, new)
        if not self._returns_pks:
            pks.update(self._existing(Problem, [p.external_id for p in new]))
        else:
            pks.update((p.external_id, p.pk) for p in new)
        self._created_problems.update(pks[p.external_id] for p in new)
        self.result.problems_created += len(new)
        return pks

    def _solutions(
        self, rows: list[ParsedRow], problem_pks: dict[str, int]
    ) -> list[tuple[Solution, ParsedSolution, int]]:
        parsed = [(row, s) for row in rows for s in row.solutions]
        existing = self._existing(Solution, [s.external_id for _, s in parsed])
        seen: set[str] = set()
        new: list[tuple[Solution, ParsedSolution, int]] = []
        for row, s in parsed:
            if s.external_id in existing or s.external_id in seen:
                self.result.solutions_skipped += 1
                continue
            seen.add(s.external_id)
            solution = Solution(
                project=self.project,
                problem_id=problem_pks[row.problem.external_id],
                generator=s.generator,
                final_answer=s.final_answer,
                answer_correct=s.answer_correct,
                source=s.source,
                external_id=s.external_id,
                metadata=s.metadata,
            )
            new.append((solution, s, row.line))
        self._create(Solution, [obj for obj, _, _ in new])
        if not self._returns_pks:
            pks = self._existing(Solution, [obj.external_id for obj, _, _ in new])
            for obj, _, _ in new:
                obj.pk = pks[obj.external_id]
        self.result.solutions_created += len(new)
        return new

    def _steps(
        self, solutions: list[tuple[Solution, ParsedSolution, int]]
    ) -> list[tuple[Step, Any, ParsedSolution, int]]:
        steps = [
            (Step(solution_id=obj.pk, index=i, text=ps.text, metadata=ps.metadata), ps, s, line)
            for obj, s, line in solutions
            for i, ps in enumerate(s.steps)
        ]
        self._create(Step, [step for step, _, _, _ in steps])
        if not self._returns_pks and steps:
            pks = {
                (sid, index): pk
                for sid, index, pk in Step.objects.filter(
                    solution_id__in=[obj.pk for obj, _, _ in solutions]
                ).values_list("solution_id", "index", "id")
            }
            for step, _, _, _ in steps:
                step.pk = pks[(step.solution_id, step.index)]
        self.result.steps_created += len(steps)
        return steps

    def _alternatives(self, steps: list[tuple[Step, Any, ParsedSolution, int]]) -> None:
        alternatives = [
            StepAlternative(
                step_id=step.pk,
                position=a.position,
                text=a.text,
                rating=a.rating,
                flagged=a.flagged,
                is_chosen=a.is_chosen,
                is_human=a.is_human,
                metadata=a.metadata,
            )
            for step, ps, _, _ in steps
            for a in ps.alternatives
        ]
        self._create(StepAlternative, alternatives)
        self.result.alternatives_created += len(alternatives)

    def _suggestions(self, steps: list[tuple[Step, Any, ParsedSolution, int]]) -> None:
        suggestions = [
            Suggestion(
                step_id=step.pk,
                source=SuggestionSource.IMPORT,
                agent=s.label_agent,
                value=ps.label,
                evidence={"file": self.filename, "line": line},
            )
            for step, ps, s, line in steps
            if ps.label is not None
        ]
        self._create(Suggestion, suggestions)
        self.result.labels_created += len(suggestions)

    def _annotations(
        self,
        solutions: list[tuple[Solution, ParsedSolution, int]],
        steps: list[tuple[Step, Any, ParsedSolution, int]],
    ) -> None:
        now = timezone.now()
        labeled = [(obj, s) for obj, s, _ in solutions if s.label_count]
        annotations = {
            obj.pk: Annotation(
                solution_id=obj.pk,
                annotator=None,
                external_annotator=s.label_annotator,
                status=AnnotationStatus.SUBMITTED,
                finish_reason=s.finish_reason,
                time_spent_ms=s.time_spent_ms,
                imported=True,
                submitted_at=s.labeled_at or now,
            )
            for obj, s in labeled
        }
        # Solution.submitted_count is left alone: imported labels are not part of the human
        # queue's overlap (the queue counts annotations by annotators only).
        self._create(Annotation, list(annotations.values()))
        if not self._returns_pks and annotations:
            for sid, pk in Annotation.objects.filter(
                solution_id__in=list(annotations), imported=True
            ).values_list("solution_id", "id"):
                annotations[sid].pk = pk
        labels = [
            StepLabel(
                annotation_id=annotations[step.solution_id].pk, step_id=step.pk, rating=ps.label
            )
            for step, ps, _, _ in steps
            if ps.label is not None
        ]
        self._create(StepLabel, labels)
        self.result.annotations_created += len(annotations)
        self.result.labels_created += len(labels)


def _check_args(*, fmt: str, labels_as: str) -> None:
    if fmt not in FORMATS:
        raise ValidationFailed(
            f"format must be one of {', '.join(FORMATS)}; got {fmt!r}.", field="format"
        )
    if labels_as not in LABELS_AS:
        raise ValidationFailed(
            f"labels_as must be one of {', '.join(LABELS_AS)}; got {labels_as!r}.",
            field="labels_as",
        )


def import_file(
    *,
    project: Project,
    path: PathOrFile,
    fmt: str = "auto",
    labels_as: str = "suggestions",
    filename: str | None = None,
    progress: Progress | None = None,
) -> ImportResult:
    """Import a JSON Lines file (or .gz) into `project`, all or nothing.

    `labels_as`: the dataset's step labels become Suggestion rows (source "import"), imported
    submitted Annotation rows with StepLabels (annotator None, `external_annotator` the
    labeler or dataset), or are dropped ("none"). `progress(bytes_done, rows_done)` is called
    after every batch; bytes are of the file as stored (compressed for .gz).
    Raises ImportFileError for a bad line; then nothing is written.
    """
    _check_args(fmt=fmt, labels_as=labels_as)
    name = _filename(path, filename)
    with (
        open_rows(path, fmt=fmt, filename=name, options=_options(project)) as rows,
        transaction.atomic(),
    ):
        Project.objects.select_for_update(no_key=True).filter(pk=project.pk).first()
        writer = _BatchWriter(project=project, labels_as=labels_as, filename=name)
        for batch in _batches(rows):
            writer.write(batch)
            if progress:
                progress(rows.bytes_done, rows.rows)
    result = writer.result
    result.format, result.rows = rows.format, rows.rows
    return result


def import_file_validate(
    *,
    project: Project,
    path: PathOrFile,
    fmt: str = "auto",
    filename: str | None = None,
    progress: Progress | None = None,
) -> FileSummary:
    """Parse the whole file without writing anything; raises ImportFileError like import_file."""
    _check_args(fmt=fmt, labels_as="none")
    name = _filename(path, filename)
    with open_rows(path, fmt=fmt, filename=name, options=_options(project)) as rows:
        summary = FileSummary(format=fmt)
        for batch in _batches(rows):
            for row in batch:
                summary.solutions += len(row.solutions)
                summary.steps += sum(len(s.steps) for s in row.solutions)
            if progress:
                progress(rows.bytes_done, rows.rows)
    summary.format, summary.rows = rows.format, rows.rows
    return summary


# --- import jobs ---------------------------------------------------------------------------


@contextmanager
def _job_source(job: ImportJob) -> Iterator[PathOrFile]:
    try:
        path = job.file.path
    except NotImplementedError:  # a storage without local paths (S3 and the like)
        path = None
    if path:
        yield path
        return
    with job.file.open("rb") as file:
        yield file


def _job_progress(job_id: int, bytes_done: int, rows_done: int) -> None:
    ImportJob.objects.filter(pk=job_id).update(bytes_done=bytes_done, rows_done=rows_done)


@contextmanager
def _write_pass_progress(job: ImportJob, offset: int) -> Iterator[Progress | None]:
    """Progress of the write pass, published through a second, autocommit connection.

    Only on PostgreSQL, and only when the caller is not itself inside a transaction (where
    the job row could be locked by this very connection and the second one would wait on
    it). On SQLite a second connection would wait for the import's write lock instead.
    """
    if connection.vendor != "postgresql" or connection.in_atomic_block:
        yield None
        return
    side = connections.create_connection(DEFAULT_DB_ALIAS)
    table = side.ops.quote_name(ImportJob._meta.db_table)

    def publish(bytes_done: int, rows_done: int) -> None:
        try:
            with side.cursor() as cursor:
                cursor.execute("SET lock_timeout = '2s'")
                cursor.execute(
                    f"UPDATE {table} SET bytes_done = %s, rows_done = %s WHERE id = %s",
                    [offset + bytes_done // 2, rows_done, job.pk],
                )
        except DatabaseError:  # progress is best effort; the import goes on
            logger.warning("could not publish progress of import job %s", job.pk, exc_info=True)

    try:
        yield publish
    finally:
        side.close()


def import_job_run(*, job: ImportJob) -> ImportJob:
    """Run an uploaded import: validate, then write; record status, progress, result or error.

    Two passes, because the write pass is one transaction that other connections cannot see
    into: (1) parse the whole file outside any transaction, publishing `bytes_done` from 0 to
    half of `bytes_total` (`rows_done` = rows checked), so a bad file fails before anything
    is written; (2) import it atomically; on PostgreSQL its progress (50% to 100%) goes out
    on a second connection, on SQLite the job stays at 50% until the commit. `rows_done`
    counts the rows of the pass in progress. A job that is already done is left as it is
    (a redelivered task); a failed or interrupted one is run again, which is safe because
    the import is atomic and idempotent.
    """
    if job.status == ImportStatus.DONE:
        return job
    total = job.bytes_total or job.file.size
    job.status, job.bytes_total, job.bytes_done, job.rows_done = ImportStatus.RUNNING, total, 0, 0
    job.error, job.result, job.finished_at = {}, {}, None
    job.save(
        update_fields=[
            "status",
            "bytes_total",
            "bytes_done",
            "rows_done",
            "error",
            "result",
            "finished_at",
        ]
    )
    args = {"project": job.project, "fmt": job.format, "filename": job.filename}
    try:
        with _job_source(job) as source:
            summary = import_file_validate(
                path=source, progress=lambda b, r: _job_progress(job.pk, b // 2, r), **args
            )
        job.detected_format = summary.format
        job.save(update_fields=["detected_format"])
        args["fmt"] = summary.format
        with _job_source(job) as source, _write_pass_progress(job, total // 2) as publish:
            result = import_file(path=source, labels_as=job.labels_as, progress=publish, **args)
    except ImportFileError as exc:
        job.status, job.error = ImportStatus.FAILED, exc.as_dict()
    except DomainError as exc:
        job.status = ImportStatus.FAILED
        job.error = {
            "message": exc.message,
            "file": job.filename,
            "line": None,
            "field": exc.details.get("field"),
        }
    except Exception as exc:  # recorded on the job for the UI, and logged with its traceback
        logger.exception("import job %s failed", job.pk)
        job.status = ImportStatus.FAILED
        job.error = {
            "message": f"internal error: {exc}",
            "file": job.filename,
            "line": None,
            "field": None,
        }
    else:
        job.status, job.result = ImportStatus.DONE, result.as_dict()
        job.bytes_done, job.rows_done = total, result.rows
    job.finished_at = timezone.now()
    fields = ["status", "error", "result", "finished_at"]
    if job.status == ImportStatus.DONE:  # a failed job keeps the progress it had reached
        fields += ["bytes_done", "rows_done"]
    job.save(update_fields=fields)
    return job
