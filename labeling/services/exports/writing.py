"""Writing an export's file: its records through the format into a temporary file, hashed.

`write_export` sets up what the rows need from the database (the split plan, the
decontamination benchmarks, the format and what the project has), then runs one loop
(`Formatting.run`: skip, split, decontaminate, licences, format, write) over the records
in one of two ways, both giving the same bytes:

- in this process (`solution_records`, the next chunks read on a thread while this one
  formats: labeling.pg.read_ahead), where there is one CPU, a small export (at most one
  chunk), or no fork;
- in two: this process reads the chunks as plain rows and a forked child turns them into
  records and the file (labeling.exporters.process). The read needs the snapshot's
  connection, so it stays here; the formatting, most of an export's CPU, moves to the other
  core. `EXPORT_FORMAT_PROCESS` ("auto", "always", "never") decides; "auto" takes two
  processes where the machine gives this one at least two CPUs.

The child writes and hashes the file and returns the counts; it touches no database.
"""

from collections.abc import Callable, Iterable, Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

from django.conf import settings

from labeling.accounts.operators import job_actor
from labeling.exporters import FORMATS, ExportOptions, Stats, licences_of, open_writer, split_of
from labeling.exporters.columnar import column_plan
from labeling.exporters.decontaminate import decontaminator
from labeling.exporters.final import NO_LABEL, FinalTally
from labeling.exporters.options import LabelSource, SplitMode
from labeling.exporters.policy import skip_reason
from labeling.exporters.process import consume_in_process, fork_available, usable_cpus
from labeling.exporters.records import SolutionRecord
from labeling.exporters.selection import candidate_solutions
from labeling.exporters.source import (
    problem_split_keys,
    project_has_thinking,
    records_of_chunks,
    solution_chunks,
    solution_records,
)
from labeling.exporters.split import SMALL, split_plan
from labeling.models import Domain, Export
from labeling.pg.gc_pause import gc_paused
from labeling.services.people.hub_tokens import hub_auth_for

Written = tuple[Stats, str, int]  # counts, sha256, size


class Formatting:
    """What turns an export's records into its file, set up from the database first."""

    def __init__(self, *, export: Export, options: ExportOptions, path: Path, total: int) -> None:
        self.options, self.path, self.file_type = options, path, export.file_type
        self.stats = stats = Stats()
        filters = options.filters
        if filters.label_source == LabelSource.FINAL:
            stats.final = FinalTally()
            # The candidates with no label at all are not read: counted here, one query.
            unlabeled = candidate_solutions(project=export.project, filters=filters).count()
            stats.final.solutions[NO_LABEL] += max(unlabeled - total, 0)
        # Near-duplicate problems split by their cluster's name (stored at import), so they
        # share a split; a small project by exact counts over all its problems' (split.py).
        self.plan = None
        if options.split_policy.mode != SplitMode.NONE:
            grouped = problem_split_keys(project=export.project, limit=SMALL)
            if grouped is not None:
                self.plan = split_plan(set(grouped.values()), options.split_policy)
        # Benchmark problems (exact or near-duplicates) are left out (decontaminate.py).
        # Hub benchmarks are read with the token of whoever asked for the export.
        self.clean = decontaminator(
            filters.decontaminate,
            auth=lambda repo_id: hub_auth_for(user=job_actor(export), repo_id=repo_id),
        )
        for label in self.clean.labels if self.clean else ():
            stats.decontaminated[label] = 0
        self.fmt = fmt = FORMATS[export.format](options, stats)
        fmt.with_images = export.project.domain == Domain.MULTIMODAL
        # Evidence columns for evidence projects, and many-domains ones (their problems may be).
        fmt.with_evidence = export.project.domain in (Domain.EVIDENCE, Domain.MIXED)
        fmt.domain = export.project.blank_domain or export.project.domain  # a blank one's
        fmt.with_domain = export.project.domain == Domain.MIXED
        fmt.with_thinking = project_has_thinking(project_id=export.project_id)

    def run(self, records: Iterable[SolutionRecord]) -> Written:
        """Write the records' rows to the file; its counts, sha256 and size."""
        options, stats, fmt, clean = self.options, self.stats, self.fmt, self.clean
        parquet = self.file_type == "parquet"
        writer = open_writer(
            self.path, file_type=self.file_type, schema=fmt.schema() if parquet else None
        )

        def emit(rows: list[dict[str, Any]]) -> None:
            if rows:
                writer.write([fmt.parquet_row(r) for r in rows] if parquet else rows)

        split_key, split, tainted = None, None, None
        licensed: set[str] = set()  # sources whose records without metadata were counted
        try:
            with gc_paused():  # see labeling.pg.gc_pause
                for record in records:
                    if reason := skip_reason(record, options.filters):
                        stats.skipped[reason] += 1
                        continue
                    if record.problem_key != split_key:
                        split_key = record.problem_key
                        by = record.cluster_key or split_key
                        split = split_of(by, options.split_policy, self.plan)
                        tainted = clean.benchmark_of(record.problem_text) if clean else None
                        if tainted:
                            stats.decontaminated[tainted] += 1
                    if tainted:
                        stats.decontaminated_solutions[tainted] += 1
                        continue
                    source, metadata = record.source, record.metadata
                    if metadata or source not in licensed:
                        stats.licences.update(licences_of(source=source, metadata=metadata))
                        if not metadata:  # the same for every such record of the source
                            licensed.add(source)
                    emit(fmt.feed(record, split))
                emit(fmt.finish())
        finally:
            sha256, size = writer.close()
        return stats, sha256, size


def two_processes(*, total: int, chunk_size: int) -> bool:
    """Whether to format in a second process (EXPORT_FORMAT_PROCESS, module docstring)."""
    mode = getattr(settings, "EXPORT_FORMAT_PROCESS", "auto")
    if mode == "never" or not fork_available():
        return False
    return mode == "always" or (total > chunk_size and usable_cpus() >= 2)


def write_export(
    *,
    export: Export,
    options: ExportOptions,
    path: Path,
    on_chunk: Callable[[int], None],
    chunk_size: int,
    read_ahead_chunks: bool,
    total: int,
) -> Written:
    """Build the export's file at `path` (module docstring); `on_chunk(solutions read so
    far)` after each chunk's records are written."""
    formatting = Formatting(export=export, options=options, path=path, total=total)
    fmt, stats = formatting.fmt, formatting.stats
    # Steps as columns where the format and options allow (labeling.exporters.columnar).
    columns = column_plan(fmt, options)
    if not two_processes(total=total, chunk_size=chunk_size):

        def chunk_done(n: int) -> None:
            stats.solutions_read += n
            on_chunk(stats.solutions_read)

        records = solution_records(
            project=export.project,
            options=options,
            alternatives=fmt.needs_alternatives,
            step_meta=fmt.needs_step_meta,
            chunk_size=chunk_size,
            on_chunk=chunk_done,
            read_ahead_chunks=read_ahead_chunks,
            tally=stats.final,
            columns=columns,
        )
        # closing: a read-ahead thread stops before the snapshot's transaction ends.
        with closing(records):
            return formatting.run(records)

    project_id, read = export.project_id, [0]

    def format_chunks(chunks: Iterator[Any], report: Callable[[int], None]) -> Written:
        """In the child: the records of the chunks, into the file."""

        def chunk_done(n: int) -> None:
            stats.solutions_read += n
            report(n)

        return formatting.run(
            records_of_chunks(
                chunks,
                project_id=project_id,
                options=options,
                on_chunk=chunk_done,
                tally=stats.final,
                columns=columns,
            )
        )

    def progress(n: int) -> None:
        read[0] += n
        on_chunk(read[0])

    chunks = solution_chunks(
        project=export.project,
        options=options,
        alternatives=fmt.needs_alternatives,
        step_meta=fmt.needs_step_meta,
        chunk_size=chunk_size,
    )
    with closing(chunks), gc_paused():
        return consume_in_process(chunks, format_chunks, on_progress=progress)
