"""Importing a file (`import_file`): one transaction under the project's row lock, in which
batches are parsed ahead on a thread, built here, and written: one batch at a time, or on
PostgreSQL pipelined with the COPYs on a second thread (`write_all`)."""

from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from django.db import connection, transaction

from labeling.importers import ImportFileError, ParsedRow, open_rows
from labeling.models import (
    Annotation,
    Problem,
    Project,
    Solution,
    Step,
    StepAlternative,
    StepLabel,
    Suggestion,
)
from labeling.pg.analyze import analyze_grown
from labeling.pg.gc_pause import gc_paused
from labeling.pg.read_ahead import read_ahead
from labeling.steps.splitting import StepRule

from .batches import BatchWriter, ImportResult, Reserved
from .near_dups import NearDupScreen, check_near_duplicates
from .parsing import PathOrFile, Progress, check_args, filename_of, parse_options, row_batches_read
from .tables import TABLES, Write


def write_all(
    writer: BatchWriter,
    batches: Iterable[tuple[list[ParsedRow], int, int]],
    progress: Progress | None,
    screen: Callable[[list[ParsedRow]], list[ParsedRow]] | None = None,
) -> None:
    """Screen, reserve, build and write every batch, then call `progress` for it.

    `screen(rows)`: the rows of a batch to import (near-duplicate screening, which queries):
    called on this thread when no COPY is running on the shared connection.

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
    fast = all(inserter.fast(model, columns) for model, columns in TABLES.items())
    if connection.vendor != "postgresql" or not fast:
        for rows, bytes_done, rows_done in batches:
            batch = writer.reserve(screen(rows) if screen else rows)
            for item in writer.build(batch):
                inserter.write(item)
            writer.written(batch)
            if progress:
                progress(bytes_done, rows_done)
        return

    def copy_all(writes: list[Write], raw: Any) -> None:
        for item in writes:
            inserter.write(item, raw=raw)

    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    raw = connection.connection
    running: tuple[Future, Reserved, int, int] | None = None
    built: tuple[list[Write], Reserved, int, int] | None = None

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
                batch = writer.reserve(screen(rows) if screen else rows)
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


def import_file(
    *,
    project: Project,
    path: PathOrFile,
    fmt: str = "auto",
    labels_as: str = "suggestions",
    filename: str | None = None,
    progress: Progress | None = None,
    domain: str = "",
    detect_uses: bool = True,
    import_job_id: int | None = None,
    near_duplicates: str = "keep",
    step_rule: StepRule | None = None,
) -> ImportResult:
    """Import a JSON Lines file (or .gz) into `project`, all or nothing.

    `labels_as`: the dataset's step labels become Suggestion rows (source "import"), imported
    submitted Annotation rows with StepLabels (annotator None, `external_annotator` the
    labeler or dataset), or are dropped ("none"). `progress(bytes_done, rows_done)` is called
    after every batch; bytes are of the file as stored (compressed for .gz). `domain`: the
    problem domain of rows that name none (a `mixed` project's dataset files). `detect_uses`:
    find step dependencies in the text of solutions whose line gives none (Step.uses).
    `import_job_id`: the ImportJob the new solutions record (Solution.import_job).
    `near_duplicates`: new problems that are near-duplicates of the project's or of earlier
    ones in the file are reported in `result.near_duplicates` and imported ("keep") or left
    out with their solutions ("skip"); see near_dups.py. `step_rule`: how solutions given
    as one string become steps (parsing.step_rule_resolve), else the project's rule.
    Raises ImportFileError for a bad line; then nothing is written.
    """
    check_args(fmt=fmt, labels_as=labels_as)
    check_near_duplicates(near_duplicates)
    name = filename_of(path, filename)
    options = parse_options(project, domain, detect_uses=detect_uses, step_rule=step_rule)
    with (
        open_rows(path, fmt=fmt, filename=name, options=options) as rows,
        transaction.atomic(),
    ):
        Project.objects.select_for_update(no_key=True).filter(pk=project.pk).first()
        writer = BatchWriter(
            project=project, labels_as=labels_as, filename=name, import_job_id=import_job_id
        )
        screen = NearDupScreen(project=project, mode=near_duplicates).load()
        # The next batches are parsed (and their new problems' signatures computed) on a
        # thread while this one is written.
        ahead = screen.ahead(row_batches_read(rows))
        with gc_paused(), read_ahead(ahead) as batches:  # gc: see labeling.pg.gc_pause
            write_all(writer, batches, progress, screen.rows)
        screen.store()
    result = writer.result
    result.format, result.rows = rows.format, rows.rows
    result.near_duplicates = screen.report()
    # Committed: the tables it filled get planner statistics now (labeling/pg/analyze.py).
    labels = StepLabel if labels_as == "annotations" else Suggestion
    analyze_grown(
        {
            Problem: result.problems_created,
            Solution: result.solutions_created,
            Step: result.steps_created,
            StepAlternative: result.alternatives_created,
            Annotation: result.annotations_created,
            labels: result.labels_created,
            Suggestion: result.predictions_created
            + (result.labels_created if labels is Suggestion else 0),
        }
    )
    return result
