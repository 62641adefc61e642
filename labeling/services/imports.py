"""Importing dataset files into a project: streamed, bulk-written, atomic and idempotent.

`import_file` reads a JSON Lines file (optionally gzipped) one line at a time, parses each
line with the format's parser (labeling.importers), and writes batches of about a thousand
solutions with one multi-row insert per table (COPY on PostgreSQL, executemany on SQLite,
bulk_create as the fallback; see _Inserter). The whole file is one transaction: a bad line
raises ImportFileError naming file, line and field, and nothing of the file stays. Three
things overlap (see _write_all): the next batches are parsed on one thread, a batch is built
on the caller's, and on PostgreSQL the batch before it is written on a third.

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
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import IO, Any

from django.db import DEFAULT_DB_ALIAS, DatabaseError, connection, connections, transaction
from django.db.models import DateTimeField, JSONField, Model
from django.utils import timezone

from labeling.errors import DomainError, ValidationFailed
from labeling.gc_pause import gc_paused
from labeling.importers import (
    FORMATS,
    ImportFileError,
    ParsedProblem,
    ParsedRow,
    ParsedSolution,
    ParsedStep,
    ParseOptions,
    RowStream,
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
from labeling.read_ahead import read_ahead
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
    "queue_open",  # a new solution is open work (not gold, unassigned, nothing submitted)
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
TABLES: dict[type[Model], tuple[str, ...]] = {
    Problem: PROBLEM_COLUMNS,
    Solution: SOLUTION_COLUMNS,
    Step: STEP_COLUMNS,
    StepAlternative: ALTERNATIVE_COLUMNS,
    Suggestion: SUGGESTION_COLUMNS,
    Annotation: ANNOTATION_COLUMNS,
    StepLabel: STEP_LABEL_COLUMNS,
}


@dataclass(slots=True)
class _NewSolution:
    pk: int
    parsed: ParsedSolution
    line: int
    problem_pk: int


@dataclass(slots=True)
class _NewStep:
    pk: int
    solution_pk: int
    parsed: ParsedStep
    solution: ParsedSolution
    line: int


@dataclass
class _Reserved:
    """A batch after its lookups: its new rows, with ids allocated for every row to write."""

    now: datetime
    problems: list[tuple[int, ParsedProblem]]
    solutions: list[_NewSolution]
    ids: dict[type[Model], list[int]]  # allocated for the steps and the rows below them


@dataclass
class _Write:
    """One table's rows of a batch, ids included, ready to be written."""

    model: type[Model]
    columns: tuple[str, ...]
    ids: list[int]
    rows: list[tuple]


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


def _batches_read(rows: RowStream) -> Iterator[tuple[list[ParsedRow], int, int]]:
    """Each batch with the stream's position after it (for progress, read ahead of time)."""
    for batch in _batches(rows):
        yield batch, rows.bytes_done, rows.rows


class _Inserter:
    """INSERTs many rows of one table, with primary keys allocated first (`allocate`), so a
    batch's rows can be built with their foreign keys before any of them is written (`write`).

    PostgreSQL: ids from the table's sequence in one query, then one COPY. SQLite: ids
    after the table's highest id (and its AUTOINCREMENT sequence), then one executemany;
    safe because SQLite has one writer: the import's transaction holds the write lock
    (transaction_mode IMMEDIATE in settings), and without it a concurrent commit between
    the read and the insert would make the insert fail, never duplicate an id. Both are
    three to four times faster than bulk_create, whose per-value SQL compilation dominates
    an import. The rows must give every column of the table; if the model has grown a
    column this module does not know, bulk_create (with the allocated ids) is used instead,
    so Python-side defaults still apply (tests/importers checks that every table takes the
    fast path).
    """

    def __init__(self) -> None:
        self.vendor = connection.vendor
        self.now = timezone.now()
        self._sequences: dict[str, str] = {}
        self._statements: dict[tuple[type[Model], tuple[str, ...]], str] = {}

    def _fast(self, model: type[Model], columns: tuple[str, ...]) -> bool:
        known = {f.attname for f in model._meta.concrete_fields if not f.primary_key}
        return self.vendor in ("postgresql", "sqlite") and known == set(columns)

    def _allocate(self, table: str, pk: str, count: int) -> list[int]:
        qn = connection.ops.quote_name
        with connection.cursor() as cursor:
            if self.vendor == "postgresql":
                if table not in self._sequences:
                    # Once per table: inside the nextval() call it would be looked up again
                    # for every id (seven times the cost of the nextval itself).
                    cursor.execute("SELECT pg_get_serial_sequence(%s, %s)", [qn(table), pk])
                    self._sequences[table] = cursor.fetchone()[0]
                cursor.execute(
                    "SELECT nextval(%s::regclass) FROM generate_series(1, %s)",
                    [self._sequences[table], count],
                )
                return sorted(row[0] for row in cursor.fetchall())
            cursor.execute(f"SELECT MAX({qn(pk)}) FROM {qn(table)}")
            highest = cursor.fetchone()[0] or 0
            cursor.execute("SELECT seq FROM sqlite_sequence WHERE name = %s", [table])
            row = cursor.fetchone()
            start = max(highest, row[0] if row else 0) + 1
        return list(range(start, start + count))

    def _adapt(self, model: type[Model], columns: tuple[str, ...], rows: list[tuple]) -> Iterator:
        """The rows as the database takes them: JSON as text; times as ISO 8601 text for COPY
        (what psycopg would write, without its per-value cost) or adapted for SQLite.

        A batch repeats its objects (every row's `now`, one evidence dict per solution):
        each distinct one is converted once per call. JSON is cached by identity, which holds
        because `rows` keeps the objects alive until the call ends.
        """
        fields = {f.attname: f for f in model._meta.concrete_fields}
        json_at = [i for i, c in enumerate(columns) if isinstance(fields[c], JSONField)]
        time_at = [i for i, c in enumerate(columns) if isinstance(fields[c], DateTimeField)]
        adapt_time = (
            connection.ops.adapt_datetimefield_value
            if self.vendor == "sqlite"
            else datetime.isoformat
        )
        encoded: dict[int, str] = {}
        times: dict[datetime, Any] = {}
        for row in rows:
            values = list(row)
            for i in json_at:
                value = values[i]
                if value == {}:
                    values[i] = "{}"
                elif (text := encoded.get(id(value))) is not None:
                    values[i] = text
                else:
                    values[i] = encoded[id(value)] = json.dumps(value)
            for i in time_at:
                value = values[i]
                if value is not None:
                    if (text := times.get(value)) is None:
                        text = times[value] = adapt_time(value)
                    values[i] = text
            yield values

    def allocate(self, model: type[Model], count: int) -> list[int]:
        if not count:
            return []
        return self._allocate(model._meta.db_table, model._meta.pk.column, count)

    def _statement(self, model: type[Model], columns: tuple[str, ...]) -> str:
        if (model, columns) not in self._statements:
            meta, qn = model._meta, connection.ops.quote_name
            fields = {f.attname: f for f in meta.concrete_fields}
            names = ", ".join(qn(c) for c in (meta.pk.column, *(fields[c].column for c in columns)))
            self._statements[model, columns] = (
                f"COPY {qn(meta.db_table)} ({names}) FROM STDIN"
                if self.vendor == "postgresql"
                else f"INSERT INTO {qn(meta.db_table)} ({names}) "
                f"VALUES ({', '.join(['%s'] * (len(columns) + 1))})"
            )
        return self._statements[model, columns]

    def prepare(self, item: _Write) -> None:
        """What `write` needs from this thread's connection, so it can run on another one."""
        if item.rows and self._fast(item.model, item.columns):
            self._statement(item.model, item.columns)

    def write(self, item: _Write, *, raw: Any = None) -> None:
        """Write one table's rows with their ids. `raw`: the psycopg connection to COPY on
        from another thread (the pipelined import; `prepare` ran first), else this thread's."""
        model, columns, ids, rows = item.model, item.columns, item.ids, item.rows
        if not rows:
            return
        if not self._fast(model, columns):
            # A column this module does not know: bulk_create applies its Python defaults.
            objs = [
                model(pk=pk, **dict(zip(columns, row, strict=True)))
                for pk, row in zip(ids, rows, strict=True)
            ]
            model._default_manager.bulk_create(objs, batch_size=INSERT_BATCH)
            return
        statement = self._statement(model, columns)
        values = self._adapt(model, columns, rows)
        if self.vendor != "postgresql":
            with connection.cursor() as cursor:
                cursor.executemany(
                    statement, [(pk, *row) for pk, row in zip(ids, values, strict=True)]
                )
            return
        with (
            raw.cursor() if raw is not None else connection.cursor().cursor as cursor,
            cursor.copy(statement) as copy,
        ):
            for pk, row in zip(ids, values, strict=True):
                copy.write_row((pk, *row))


class _BatchWriter:
    """Writes batches of parsed rows in two steps: `reserve` (the batch's two lookups and the
    ids of every row it will write: all its queries) and `build` (its rows, pure Python); then
    `_Inserter.write` writes each table's rows (one COPY or INSERT per table per batch)."""

    def __init__(self, *, project: Project, labels_as: str, filename: str) -> None:
        self.project = project
        self.labels_as = labels_as
        self.filename = filename
        self.result = ImportResult(format="")
        self.inserter = _Inserter()
        self._created_problems: set[int] = set()
        self._existing_problems: set[int] = set()
        # The last reserved batch's new problems and solutions, which may not be written yet
        # when the next batch looks its ids up (the pipelined import writes a batch while the
        # next one is built).
        self._unwritten_problems: dict[str, int] = {}
        self._unwritten_solutions: set[str] = set()

    def reserve(self, rows: list[ParsedRow]) -> _Reserved:
        now = timezone.now()
        media_store_rows(project=self.project, rows=rows, filename=self.filename)
        problems, problem_pks = self._problems(rows)
        solutions = self._solutions(rows, problem_pks)
        steps = [step for new in solutions for step in new.parsed.steps]
        labeled = sum(step.label is not None for step in steps)
        counts: dict[type[Model], int] = {
            Step: len(steps),
            StepAlternative: sum(len(step.alternatives) for step in steps),
        }
        if self.labels_as == "suggestions":
            counts[Suggestion] = labeled
        elif self.labels_as == "annotations":
            counts[Annotation] = sum(bool(new.parsed.label_count) for new in solutions)
            counts[StepLabel] = labeled
        ids = {model: self.inserter.allocate(model, n) for model, n in counts.items()}
        self._unwritten_problems = {p.external_id: pk for pk, p in problems}
        self._unwritten_solutions = {new.parsed.external_id for new in solutions}
        return _Reserved(now=now, problems=problems, solutions=solutions, ids=ids)

    def build(self, batch: _Reserved) -> list[_Write]:
        writes = [self._problem_rows(batch), self._solution_rows(batch)]
        steps, step_write = self._steps(batch)
        writes += [step_write, self._alternatives(batch, steps)]
        if self.labels_as == "suggestions":
            writes.append(self._suggestions(batch, steps))
        elif self.labels_as == "annotations":
            writes += self._annotations(batch, steps)
        return writes

    def written(self, batch: _Reserved) -> None:
        """After the batch's rows are written (on this thread's connection)."""
        if self.labels_as == "annotations" and batch.solutions:
            # Imported annotations count as submitted. Suggestions alone give no reason: every
            # reason is about submitted labels (a suggestion can refute one), and the batch's
            # new solutions have none, so their stored 0 is already right.
            ids = [s.pk for s in batch.solutions]
            review_reasons_refresh(project=self.project, id_range=(min(ids), max(ids)))

    def _existing(self, model: type[Model], external_ids: list[str]) -> dict[str, int]:
        if connection.vendor == "postgresql":
            # One index lookup per id, whatever the planner's statistics say: a big import
            # into a new project grows it inside one transaction, and with the project's size
            # estimated at a few rows `project_id = %s AND external_id = ANY(...)` was planned
            # as a scan of all the project's rows, once per batch (quadratic in the file). The
            # unique index on (project, external_id) is partial: hence `<> ''` (parsed ids
            # are never empty). The ids go as one array parameter, not quoted one by one.
            table = connection.ops.quote_name(model._meta.db_table)
            with connection.cursor() as cursor:
                cursor.execute(
                    f"SELECT u.external_id, (SELECT t.id FROM {table} t WHERE t.project_id = %s"
                    " AND t.external_id = u.external_id AND t.external_id <> '')"
                    " FROM unnest(%s::text[]) AS u(external_id)",
                    [self.project.pk, external_ids],
                )
                return {ext: pk for ext, pk in cursor.fetchall() if pk is not None}
        found: dict[str, int] = {}
        for chunk in _chunks(external_ids):
            found.update(
                model._default_manager.filter(
                    project=self.project, external_id__in=chunk
                ).values_list("external_id", "id")
            )
        return found

    def _problems(
        self, rows: list[ParsedRow]
    ) -> tuple[list[tuple[int, ParsedProblem]], dict[str, int]]:
        wanted = {}
        for row in rows:
            wanted.setdefault(row.problem.external_id, row.problem)
        pks = self._existing(Problem, list(wanted))
        pks.update((e, pk) for e, pk in self._unwritten_problems.items() if e in wanted)
        for pk in pks.values():
            if pk not in self._created_problems and pk not in self._existing_problems:
                self._existing_problems.add(pk)
                self.result.problems_existing += 1
        new = [p for ext, p in wanted.items() if ext not in pks]
        ids = self.inserter.allocate(Problem, len(new))
        pks.update(zip((p.external_id for p in new), ids, strict=True))
        self._created_problems.update(ids)
        self.result.problems_created += len(new)
        return list(zip(ids, new, strict=True)), pks

    def _solutions(self, rows: list[ParsedRow], problem_pks: dict[str, int]) -> list[_NewSolution]:
        parsed = [(row, s) for row in rows for s in row.solutions]
        existing = set(self._existing(Solution, [s.external_id for _, s in parsed]))
        existing.update(self._unwritten_solutions)
        seen: set[str] = set()
        new: list[tuple[ParsedRow, ParsedSolution]] = []
        for row, s in parsed:
            if s.external_id in existing or s.external_id in seen:
                self.result.solutions_skipped += 1
                continue
            seen.add(s.external_id)
            new.append((row, s))
        ids = self.inserter.allocate(Solution, len(new))
        self.result.solutions_created += len(new)
        return [
            _NewSolution(pk, s, row.line, problem_pks[row.problem.external_id])
            for pk, (row, s) in zip(ids, new, strict=True)
        ]

    def _problem_rows(self, batch: _Reserved) -> _Write:
        return _Write(
            Problem,
            PROBLEM_COLUMNS,
            [pk for pk, _ in batch.problems],
            [
                (
                    self.project.pk,
                    p.text,
                    p.answer,
                    p.reference_solution,
                    p.source,
                    p.external_id,
                    p.metadata,
                    batch.now,
                )
                for _, p in batch.problems
            ],
        )

    def _solution_rows(self, batch: _Reserved) -> _Write:
        now = batch.now
        return _Write(
            Solution,
            SOLUTION_COLUMNS,
            [new.pk for new in batch.solutions],
            [
                (
                    self.project.pk,
                    new.problem_pk,
                    new.parsed.generator,
                    new.parsed.final_answer,
                    new.parsed.answer_correct,
                    new.parsed.source,
                    new.parsed.external_id,
                    new.parsed.metadata,
                    0,
                    False,
                    now,
                    0,
                    True,
                )
                for new in batch.solutions
            ],
        )

    def _steps(self, batch: _Reserved) -> tuple[list[_NewStep], _Write]:
        pairs = [
            (new, index, step)
            for new in batch.solutions
            for index, step in enumerate(new.parsed.steps)
        ]
        ids = batch.ids[Step]
        rows = [(new.pk, index, step.text, step.metadata) for new, index, step in pairs]
        self.result.steps_created += len(pairs)
        steps = [
            _NewStep(pk, new.pk, step, new.parsed, new.line)
            for pk, (new, _, step) in zip(ids, pairs, strict=True)
        ]
        return steps, _Write(Step, STEP_COLUMNS, ids, rows)

    def _alternatives(self, batch: _Reserved, steps: list[_NewStep]) -> _Write:
        rows = [
            (s.pk, a.position, a.text, a.rating, a.flagged, a.is_chosen, a.is_human, a.metadata)
            for s in steps
            for a in s.parsed.alternatives
        ]
        self.result.alternatives_created += len(rows)
        return _Write(StepAlternative, ALTERNATIVE_COLUMNS, batch.ids[StepAlternative], rows)

    def _suggestions(self, batch: _Reserved, steps: list[_NewStep]) -> _Write:
        now = batch.now
        evidence: dict[int, dict[str, Any]] = {}  # one per line, shared by its steps
        rows = [
            (
                s.pk,
                SuggestionSource.IMPORT.value,
                s.solution.label_agent,
                s.parsed.label,
                None,
                evidence.get(s.line)
                or evidence.setdefault(s.line, {"file": self.filename, "line": s.line}),
                now,
                now,
            )
            for s in steps
            if s.parsed.label is not None
        ]
        self.result.labels_created += len(rows)
        return _Write(Suggestion, SUGGESTION_COLUMNS, batch.ids[Suggestion], rows)

    def _annotations(self, batch: _Reserved, steps: list[_NewStep]) -> list[_Write]:
        # Solution.submitted_count is left alone: imported labels are not part of the human
        # queue's overlap (the queue counts annotations by annotators only).
        now = batch.now
        labeled = [new for new in batch.solutions if new.parsed.label_count]
        ids = batch.ids[Annotation]
        annotations = _Write(
            Annotation,
            ANNOTATION_COLUMNS,
            ids,
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
        self.result.annotations_created += len(labeled)
        self.result.labels_created += len(rows)
        return [annotations, _Write(StepLabel, STEP_LABEL_COLUMNS, batch.ids[StepLabel], rows)]


def _write_all(
    writer: _BatchWriter,
    batches: Iterable[tuple[list[ParsedRow], int, int]],
    progress: Progress | None,
) -> None:
    """Reserve, build and write every batch, then call `progress` for it.

    On PostgreSQL, when every table takes COPY, a batch is written on a second thread while
    the next one is built, so building (Python) and writing (the database) overlap: batch k's
    queries (reserve) run, then batch k-1's COPYs start, then batch k is built. The two share
    the connection, one statement at a time: the main thread waits for a batch's COPYs before
    the next reserve. Foreign keys are checked at the end of each COPY instead of all at the
    commit (SET CONSTRAINTS ALL IMMEDIATE, Django's are deferred; DEFERRED again at the end),
    so their checks overlap too. A bad line still ends the import after every batch before it
    was written, as one batch at a time would.
    """
    inserter = writer.inserter
    fast = all(inserter._fast(model, columns) for model, columns in TABLES.items())
    if connection.vendor != "postgresql" or not fast:
        for rows, bytes_done, rows_done in batches:
            batch = writer.reserve(rows)
            for item in writer.build(batch):
                inserter.write(item)
            writer.written(batch)
            if progress:
                progress(bytes_done, rows_done)
        return

    def copy_all(writes: list[_Write], raw: Any) -> None:
        for item in writes:
            inserter.write(item, raw=raw)

    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    raw = connection.connection
    running: tuple[Future, _Reserved, int, int] | None = None
    built: tuple[list[_Write], _Reserved, int, int] | None = None

    def wait_running() -> None:
        nonlocal running
        if running:
            future, batch, bytes_done, rows_done = running
            running = None
            future.result()
            writer.written(batch)
            if progress:
                progress(bytes_done, rows_done)

    def start_built() -> None:
        nonlocal running, built
        if built:
            writes, batch, bytes_done, rows_done = built
            built = None
            for item in writes:
                inserter.prepare(item)
            running = (pool.submit(copy_all, writes, raw), batch, bytes_done, rows_done)

    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="import-copy") as pool:
        bad_line = None
        try:
            for rows, bytes_done, rows_done in batches:
                wait_running()
                batch = writer.reserve(rows)
                start_built()
                built = (writer.build(batch), batch, bytes_done, rows_done)
        except ImportFileError as exc:
            bad_line = exc
        wait_running()
        start_built()
        wait_running()
        if bad_line:
            raise bad_line
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL DEFERRED")


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
        # The next batches are parsed on a thread while this one is written.
        with gc_paused(), read_ahead(_batches_read(rows)) as batches:  # see labeling.gc_pause
            _write_all(writer, batches, progress)
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
