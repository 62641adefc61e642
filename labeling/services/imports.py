"""Importing dataset files into a project: streamed, bulk-written, atomic and idempotent.

`import_file` reads a JSON Lines file (optionally gzipped) one line at a time, parses each
line with the format's parser (labeling.importers), and writes batches of about a thousand
solutions with one multi-row insert per table (COPY on PostgreSQL, executemany on SQLite,
bulk_create as the fallback; see _Inserter). The whole file is one transaction: a bad line
raises ImportFileError naming file, line and field, and nothing of the file stays.

Re-importing is a no-op: problems and solutions carry stable external ids (the dataset's
own id where it has one, else a sha256 of the normalized content), each batch looks up
which of its ids the project already has, and only the new ones are written.

Concurrent imports into one project are serialized by a row lock on the project
(FOR NO KEY UPDATE, so inserts referencing the project are not blocked): the second waits,
then finds the first's rows instead of failing on the unique external ids.
"""

import json
import logging
import os
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import IO, Any

from django.db import DEFAULT_DB_ALIAS, DatabaseError, connection, connections, transaction
from django.db.models import DateTimeField, JSONField, Model
from django.utils import timezone

from labeling.errors import DomainError, ValidationFailed
from labeling.importers import (
    FORMATS,
    ImportFileError,
    ParsedRow,
    ParsedSolution,
    ParsedStep,
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
from labeling.services.media import media_store_rows
from labeling.services.review_reasons import review_reasons_refresh

logger = logging.getLogger(__name__)

LABELS_AS = ("suggestions", "annotations", "none")
BATCH_SOLUTIONS = 1000  # a batch ends after this many solutions...
BATCH_ROWS = 2000  # ...or this many rows (problem-only formats carry no solutions)
LOOKUP_CHUNK = 900  # ids per `IN (...)` lookup; below SQLite's old 999-variable limit
INSERT_BATCH = 5000  # rows per bulk_create INSERT, when that is used

Progress = Callable[[int, int], None]
PathOrFile = str | os.PathLike[str] | IO[bytes]


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


# Every column each table gets, in the order the writer's tuples give them (primary key aside).
PROBLEM_COLUMNS = (
    "project_id",
    "text",
    "answer",
    "reference_solution",
    "source",
    "external_id",
    "metadata",
    "created_at",
)
SOLUTION_COLUMNS = (
    "project_id",
    "problem_id",
    "generator",
    "final_answer",
    "answer_correct",
    "source",
    "external_id",
    "metadata",
    "submitted_count",
    "is_gold",
    "created_at",
    "review_reasons",  # 0 here; refreshed after the batch's labels are written
)
STEP_COLUMNS = ("solution_id", "index", "text", "metadata")
ALTERNATIVE_COLUMNS = (
    "step_id",
    "position",
    "text",
    "rating",
    "flagged",
    "is_chosen",
    "is_human",
    "metadata",
)
SUGGESTION_COLUMNS = (
    "step_id",
    "source",
    "agent",
    "value",
    "score",
    "evidence",
    "created_at",
    "updated_at",
)
ANNOTATION_COLUMNS = (
    "solution_id",
    "annotator_id",
    "external_annotator",
    "status",
    "finish_reason",
    "finish_reason_text",
    "time_spent_ms",
    "version",
    "imported",
    "shown_suggestions",
    "revises_id",
    "created_at",
    "updated_at",
    "submitted_at",
    "last_request_id",
)
STEP_LABEL_COLUMNS = ("annotation_id", "step_id", "rating", "unsure", "comment", "alternative_text")


@dataclass(slots=True)
class _NewSolution:
    pk: int
    parsed: ParsedSolution
    line: int


@dataclass(slots=True)
class _NewStep:
    pk: int
    solution_pk: int
    parsed: ParsedStep
    solution: ParsedSolution
    line: int


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


class _Inserter:
    """INSERTs many rows of one table, with primary keys allocated first and returned.

    PostgreSQL: ids from the table's sequence in one query, then one COPY. SQLite: ids
    after the table's highest id (and its AUTOINCREMENT sequence), then one executemany;
    safe because SQLite has one writer: the import's transaction holds the write lock
    (transaction_mode IMMEDIATE in settings), and without it a concurrent commit between
    the read and the insert would make the insert fail, never duplicate an id. Both are
    three to four times faster than bulk_create, whose per-value SQL compilation dominates
    an import. The rows must give every column of the table; if the model has grown a
    column this module does not know, bulk_create is used instead, so Python-side defaults
    still apply (tests/importers checks that every table takes the fast path).
    """

    def __init__(self) -> None:
        self.vendor = connection.vendor
        self.now = timezone.now()

    def _fast(self, model: type[Model], columns: tuple[str, ...]) -> bool:
        known = {f.attname for f in model._meta.concrete_fields if not f.primary_key}
        return self.vendor in ("postgresql", "sqlite") and known == set(columns)

    def _allocate(self, table: str, pk: str, count: int) -> list[int]:
        qn = connection.ops.quote_name
        with connection.cursor() as cursor:
            if self.vendor == "postgresql":
                cursor.execute(
                    "SELECT nextval(pg_get_serial_sequence(%s, %s)) FROM generate_series(1, %s)",
                    [qn(table), pk, count],
                )
                return sorted(row[0] for row in cursor.fetchall())
            cursor.execute(f"SELECT MAX({qn(pk)}) FROM {qn(table)}")
            highest = cursor.fetchone()[0] or 0
            cursor.execute("SELECT seq FROM sqlite_sequence WHERE name = %s", [table])
            row = cursor.fetchone()
            start = max(highest, row[0] if row else 0) + 1
        return list(range(start, start + count))

    def _adapt(self, model: type[Model], columns: tuple[str, ...], rows: list[tuple]) -> Iterator:
        fields = {f.attname: f for f in model._meta.concrete_fields}
        json_at = [i for i, c in enumerate(columns) if isinstance(fields[c], JSONField)]
        time_at = [i for i, c in enumerate(columns) if isinstance(fields[c], DateTimeField)]
        adapt_time = connection.ops.adapt_datetimefield_value if self.vendor == "sqlite" else None
        for row in rows:
            values = list(row)
            for i in json_at:
                values[i] = "{}" if values[i] == {} else json.dumps(values[i])
            if adapt_time:
                for i in time_at:
                    values[i] = adapt_time(values[i])
            yield values

    def insert(self, model: type[Model], columns: tuple[str, ...], rows: list[tuple]) -> list[int]:
        if not rows:
            return []
        if not self._fast(model, columns):
            # bulk_create sets primary keys on PostgreSQL and SQLite >= 3.35 (RETURNING).
            if not connection.features.can_return_rows_from_bulk_insert:
                raise RuntimeError(f"importing needs PostgreSQL or SQLite >= 3.35 ({model})")
            objs = [model(**dict(zip(columns, row, strict=True))) for row in rows]
            model._default_manager.bulk_create(objs, batch_size=INSERT_BATCH)
            return [obj.pk for obj in objs]
        meta = model._meta
        qn = connection.ops.quote_name
        ids = self._allocate(meta.db_table, meta.pk.column, len(rows))
        fields = {f.attname: f for f in meta.concrete_fields}
        names = ", ".join(qn(c) for c in (meta.pk.column, *(fields[c].column for c in columns)))
        values = self._adapt(model, columns, rows)
        with connection.cursor() as cursor:
            if self.vendor == "postgresql":
                with cursor.cursor.copy(f"COPY {qn(meta.db_table)} ({names}) FROM STDIN") as copy:
                    for pk, row in zip(ids, values, strict=True):
                        copy.write_row((pk, *row))
            else:
                marks = ", ".join(["%s"] * (len(columns) + 1))
                cursor.executemany(
                    f"INSERT INTO {qn(meta.db_table)} ({names}) VALUES ({marks})",
                    [(pk, *row) for pk, row in zip(ids, values, strict=True)],
                )
        return ids


class _BatchWriter:
    """Writes batches of parsed rows: two lookups and one INSERT per table per batch."""

    def __init__(self, *, project: Project, labels_as: str, filename: str) -> None:
        self.project = project
        self.labels_as = labels_as
        self.filename = filename
        self.result = ImportResult(format="")
        self._insert = _Inserter().insert
        self._created_problems: set[int] = set()
        self._existing_problems: set[int] = set()

    def write(self, rows: list[ParsedRow]) -> None:
        now = timezone.now()
        media_store_rows(project=self.project, rows=rows, filename=self.filename)
        problem_pks = self._problems(rows, now)
        solutions = self._solutions(rows, problem_pks, now)
        steps = self._steps(solutions)
        self._alternatives(steps)
        if self.labels_as == "suggestions":
            self._suggestions(steps, now)
        elif self.labels_as == "annotations":
            self._annotations(solutions, steps, now)
        if self.labels_as != "none" and solutions:
            # Imported annotations count as submitted and suggestions may refute a step.
            ids = [s.pk for s in solutions]
            review_reasons_refresh(project=self.project, id_range=(min(ids), max(ids)))

    def _existing(self, model: type[Model], external_ids: list[str]) -> dict[str, int]:
        found: dict[str, int] = {}
        for chunk in _chunks(external_ids):
            found.update(
                model._default_manager.filter(
                    project=self.project, external_id__in=chunk
                ).values_list("external_id", "id")
            )
        return found

    def _problems(self, rows: list[ParsedRow], now: datetime) -> dict[str, int]:
        wanted = {}
        for row in rows:
            wanted.setdefault(row.problem.external_id, row.problem)
        pks = self._existing(Problem, list(wanted))
        for pk in pks.values():
            if pk not in self._created_problems and pk not in self._existing_problems:
                self._existing_problems.add(pk)
                self.result.problems_existing += 1
        new = [p for ext, p in wanted.items() if ext not in pks]
        ids = self._insert(
            Problem,
            PROBLEM_COLUMNS,
            [
                (
                    self.project.pk,
                    p.text,
                    p.answer,
                    p.reference_solution,
                    p.source,
                    p.external_id,
                    p.metadata,
                    now,
                )
                for p in new
            ],
        )
        pks.update(zip((p.external_id for p in new), ids, strict=True))
        self._created_problems.update(ids)
        self.result.problems_created += len(new)
        return pks

    def _solutions(
        self, rows: list[ParsedRow], problem_pks: dict[str, int], now: datetime
    ) -> list[_NewSolution]:
        parsed = [(row, s) for row in rows for s in row.solutions]
        existing = self._existing(Solution, [s.external_id for _, s in parsed])
        seen: set[str] = set()
        new: list[tuple[ParsedRow, ParsedSolution]] = []
        for row, s in parsed:
            if s.external_id in existing or s.external_id in seen:
                self.result.solutions_skipped += 1
                continue
            seen.add(s.external_id)
            new.append((row, s))
        ids = self._insert(
            Solution,
            SOLUTION_COLUMNS,
            [
                (
                    self.project.pk,
                    problem_pks[row.problem.external_id],
                    s.generator,
                    s.final_answer,
                    s.answer_correct,
                    s.source,
                    s.external_id,
                    s.metadata,
                    0,
                    False,
                    now,
                    0,
                )
                for row, s in new
            ],
        )
        self.result.solutions_created += len(new)
        return [_NewSolution(pk, s, row.line) for pk, (row, s) in zip(ids, new, strict=True)]

    def _steps(self, solutions: list[_NewSolution]) -> list[_NewStep]:
        steps = [
            (new, index, step) for new in solutions for index, step in enumerate(new.parsed.steps)
        ]
        ids = self._insert(
            Step,
            STEP_COLUMNS,
            [(new.pk, index, step.text, step.metadata) for new, index, step in steps],
        )
        self.result.steps_created += len(steps)
        return [
            _NewStep(pk, new.pk, step, new.parsed, new.line)
            for pk, (new, _, step) in zip(ids, steps, strict=True)
        ]

    def _alternatives(self, steps: list[_NewStep]) -> None:
        rows = [
            (s.pk, a.position, a.text, a.rating, a.flagged, a.is_chosen, a.is_human, a.metadata)
            for s in steps
            for a in s.parsed.alternatives
        ]
        self._insert(StepAlternative, ALTERNATIVE_COLUMNS, rows)
        self.result.alternatives_created += len(rows)

    def _suggestions(self, steps: list[_NewStep], now: datetime) -> None:
        rows = [
            (
                s.pk,
                SuggestionSource.IMPORT.value,
                s.solution.label_agent,
                s.parsed.label,
                None,
                {"file": self.filename, "line": s.line},
                now,
                now,
            )
            for s in steps
            if s.parsed.label is not None
        ]
        self._insert(Suggestion, SUGGESTION_COLUMNS, rows)
        self.result.labels_created += len(rows)

    def _annotations(
        self, solutions: list[_NewSolution], steps: list[_NewStep], now: datetime
    ) -> None:
        # Solution.submitted_count is left alone: imported labels are not part of the human
        # queue's overlap (the queue counts annotations by annotators only).
        labeled = [new for new in solutions if new.parsed.label_count]
        ids = self._insert(
            Annotation,
            ANNOTATION_COLUMNS,
            [
                (
                    new.pk,
                    None,
                    new.parsed.label_annotator,
                    AnnotationStatus.SUBMITTED.value,
                    new.parsed.finish_reason,
                    "",
                    new.parsed.time_spent_ms,
                    1,
                    True,
                    [],
                    None,
                    now,
                    now,
                    new.parsed.labeled_at or now,
                    None,
                )
                for new in labeled
            ],
        )
        annotation_of = {new.pk: pk for new, pk in zip(labeled, ids, strict=True)}
        rows = [
            (annotation_of[s.solution_pk], s.pk, s.parsed.label, False, "", "")
            for s in steps
            if s.parsed.label is not None
        ]
        self._insert(StepLabel, STEP_LABEL_COLUMNS, rows)
        self.result.annotations_created += len(labeled)
        self.result.labels_created += len(rows)


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
