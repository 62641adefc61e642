"""Reading an export's records from the database (`solution_records`), and the exports'
selectors (`export_list`). The exporter's database reads are this module's and those of the
three it uses: selection.py (what the label source and filters admit), chunks.py (a chunk's
related rows) and raw.py (how those queries run).

Solutions that match the filters come from one ordered query read a chunk at a time with
fetchmany (a server-side cursor on PostgreSQL, as QuerySet.iterator), so the whole set is
never in memory. For each chunk, a few bounded queries fetch the chunk's steps, labels (or
suggestions) and, for formats that need them, alternatives; then the chunk's records are
yielded and `on_chunk(n)` is told. Order: problem external id, problem id, solution external
id, solution id, with byte-wise collation ("C" on PostgreSQL, BINARY on SQLite) so it does
not depend on the database's locale.

Every query is built with the ORM (the filters live in selection.py) but
compiled once per export (`RawQuery`); the chunk queries run once per chunk with the chunk's
ids as one parameter (`ChunkQuery`): compiling an `IN (...)` of thousands of ids, and
turning every row into Django's values, cost more than the database's work for them.
"""

from collections.abc import Callable, Iterable, Iterator

from django.db import connection, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import F, QuerySet
from django.db.models.functions import Collate

from labeling.importers.ids import problem_id
from labeling.models import Export, Problem, Project, Step
from labeling.pg.read_ahead import read_ahead
from labeling.steps.graphs import with_graph

from .chunks import Chunk, ChunkQueries, ChunkRows
from .columnar import ColumnPlan
from .dependencies import inherit_errors
from .final import FinalTally, from_final
from .labels import (
    AnnotationLabels,
    Resolved,
    agreement_of,
    from_annotations,
    from_resolution,
    from_suggestions,
)
from .options import Combine, DependencyPolicy, ExportOptions, LabelSource
from .policy import positive_rating
from .raw import RawQuery
from .records import SolutionRecord, image_refs
from .selection import auto_sources, matching_solutions

# Solutions per chunk: each chunk costs three queries and a progress write; at 100k solutions
# 5000 exported 15-20% faster than 1000 (bench/export_bench.py), for tens of MB more memory.
CHUNK = 5000

SOLUTION_FIELDS = (
    "id",
    "problem__external_id",
    "problem__text",
    "problem__answer",
    "problem__reference_solution",
    "problem__source",
    "external_id",
    "generator",
    "final_answer",
    "answer_correct",
    "source",
    "metadata",
    "problem__metadata__images",
    "problem__domain",
    "problem__metadata__graph",
    "problem__metadata__task",
    "problem__metadata__graph_in_text",
    "problem__metadata__documents",
    "problem__metadata__tables",
    "problem__near_cluster",
)


def _bytewise(name: str) -> Collate:
    return Collate(F(name), "C" if connection.vendor == "postgresql" else "BINARY")


def _record(
    row: tuple, resolved: Resolved, project_id: int, inherit: bool = False
) -> SolutionRecord:
    (pk, p_ext, p_text, p_answer, p_ref, p_source, ext, generator, final, correct, source, meta) = (
        row[:12]
    )
    key = p_ext or problem_id(p_text)
    if (
        row[14] is not None
    ):  # a graph problem: its prompt states the graph (labeling/steps/graphs.py)
        p_text = with_graph(p_text, {"graph": row[14], "task": row[15], "graph_in_text": row[16]})
    if inherit:
        inherit_errors(resolved.steps)
    return SolutionRecord(  # positional, in the fields' order: one per exported row
        pk,
        key,
        p_text,
        p_answer,
        p_ref,
        p_source,
        ext,
        generator,
        final,
        correct,
        source,
        meta if isinstance(meta, dict) else {},
        resolved.steps,
        resolved.agreement,
        resolved.labeler,
        resolved.labeled_at,
        resolved.time_spent_ms,
        resolved.finish_reason,
        resolved.from_import,
        resolved.annotations,
        image_refs(project_id, row[12]) if row[12] is not None else [],
        row[17] if isinstance(row[17], list) else [],  # documents
        row[18] if isinstance(row[18], list) else [],  # tables
        row[13],  # domain
        row[19],  # near-duplicate cluster
    )


def _per_annotation_order(a: AnnotationLabels) -> tuple:
    return (a.imported, a.name, a.id)


def _chunk_reads(
    solutions: QuerySet,
    options: ExportOptions,
    *,
    project_id: int,
    alternatives: bool,
    chunk_size: int,
    shared: BaseDatabaseWrapper | None,
    step_meta: bool = False,
    columnar: bool = False,
) -> Iterator[tuple[list[tuple], Chunk]]:
    """Each chunk of solution rows with its related rows: every database read of an export.

    `shared`: the connection to read on, when this runs on the read-ahead thread (inside the
    caller's transaction, so in its snapshot), instead of this thread's own.
    """
    if shared is not None:
        connections[shared.alias] = shared
    for chunk, rows in _raw_chunks(
        solutions, options, alternatives=alternatives, chunk_size=chunk_size, step_meta=step_meta
    ):
        yield chunk, Chunk(rows, project_id=project_id, columnar=columnar)


def _raw_chunks(
    solutions: QuerySet,
    options: ExportOptions,
    *,
    alternatives: bool,
    chunk_size: int,
    step_meta: bool,
) -> Iterator[tuple[list[tuple], ChunkRows]]:
    queries = ChunkQueries(options, alternatives=alternatives, step_meta=step_meta)
    for chunk in RawQuery(solutions).chunks(chunk_size):
        yield chunk, queries.fetch([row[0] for row in chunk])


def _ordered_solutions(*, project: Project, options: ExportOptions) -> QuerySet:
    """The matching solutions in the export's order. The problems' own project condition
    (a solution's problem is its project's) lets PostgreSQL walk the problems in that order
    through problem_export_order_idx (migration 0050) and sort each problem's few solutions
    (an incremental sort): the rows stream from the first chunk on, instead of waiting for a
    sort of every solution with its problem's text (spilled to disk, seconds at 300k: the
    export's formatter idle meanwhile, and more so the larger the project)."""
    return (
        matching_solutions(project=project, filters=options.filters)
        .filter(problem__project_id=project.pk)
        .order_by(
            _bytewise("problem__external_id"),
            "problem_id",
            _bytewise("external_id"),
            "id",
        )
        .values_list(*SOLUTION_FIELDS)
    )


def solution_chunks(
    *,
    project: Project,
    options: ExportOptions,
    alternatives: bool = False,
    step_meta: bool = False,
    chunk_size: int = CHUNK,
) -> Iterator[tuple[list[tuple], ChunkRows]]:
    """The export's chunks as plain rows (the solutions' and their related tables'), in the
    records' order, read on this thread: what `records_of_chunks` turns into records in
    another process (labeling.exporters.process; plain rows pickle cheaply, records do not)."""
    yield from _raw_chunks(
        _ordered_solutions(project=project, options=options),
        options,
        alternatives=alternatives,
        chunk_size=chunk_size,
        step_meta=step_meta,
    )


def records_of_chunks(
    chunks: Iterable[tuple[list[tuple], ChunkRows]],
    *,
    project_id: int,
    options: ExportOptions,
    on_chunk: Callable[[int], None] | None = None,
    tally: FinalTally | None = None,
    columns: ColumnPlan | None = None,
) -> Iterator[SolutionRecord]:
    """The records of chunks read by `solution_chunks`: the same records, in the same order,
    as `solution_records` gives; no database."""
    columnar = columns is not None
    built = (
        (chunk, Chunk(rows, project_id=project_id, columnar=columnar)) for chunk, rows in chunks
    )
    yield from _records(
        built,
        project_id=project_id,
        options=options,
        on_chunk=on_chunk,
        tally=tally,
        columns=columns,
    )


def solution_records(
    *,
    project: Project,
    options: ExportOptions,
    alternatives: bool = False,
    step_meta: bool = False,
    chunk_size: int = CHUNK,
    on_chunk: Callable[[int], None] | None = None,
    read_ahead_chunks: bool = False,
    tally: FinalTally | None = None,
    columns: ColumnPlan | None = None,
) -> Iterator[SolutionRecord]:
    """The export's records in their stable order, read chunk by chunk.

    `tally`: with label_source=final, counts where each step's label came from (final.py).

    `read_ahead_chunks`: read the next chunks on a second thread, on this thread's connection,
    while this one's records are consumed (`labeling.pg.read_ahead`). Only for a caller that
    uses no other query on that connection until the records are done (`export_build` in its
    read-only snapshot; its progress goes out on a second connection), and that closes the
    iterator (contextlib.closing) before it ends the transaction.

    `columns`: records of one annotation's labels carry their steps as columns
    (labeling.exporters.columnar), for a format that takes them.
    """
    solutions = _ordered_solutions(project=project, options=options)
    if not read_ahead_chunks:
        chunks = _chunk_reads(
            solutions,
            options,
            project_id=project.pk,
            alternatives=alternatives,
            chunk_size=chunk_size,
            shared=None,
            step_meta=step_meta,
            columnar=columns is not None,
        )
        yield from _records(
            chunks,
            project_id=project.pk,
            options=options,
            on_chunk=on_chunk,
            tally=tally,
            columns=columns,
        )
        return
    shared = connections[solutions.db]
    shared.inc_thread_sharing()
    try:
        chunks = _chunk_reads(
            solutions,
            options,
            project_id=project.pk,
            alternatives=alternatives,
            chunk_size=chunk_size,
            shared=shared,
            step_meta=step_meta,
            columnar=columns is not None,
        )
        with read_ahead(chunks) as ahead:
            yield from _records(
                ahead,
                project_id=project.pk,
                options=options,
                on_chunk=on_chunk,
                tally=tally,
                columns=columns,
            )
    finally:
        shared.dec_thread_sharing()


def _records(
    chunks: Iterable[tuple[list[tuple], Chunk]],
    *,
    project_id: int,
    options: ExportOptions,
    on_chunk: Callable[[int], None] | None,
    tally: FinalTally | None = None,
    columns: ColumnPlan | None = None,
) -> Iterator[SolutionRecord]:
    filters = options.filters
    final = filters.label_source == LabelSource.FINAL
    if final and tally is None:
        tally = FinalTally()
    machine = final and filters.machine_labels
    priority = auto_sources(filters)

    def positive(rating: int) -> bool:
        return positive_rating(rating, options.label_policy)

    per_annotation = options.label_policy.combine == Combine.PER_ANNOTATION
    inherit = options.label_policy.dependency_policy == DependencyPolicy.INHERIT
    reviewed = filters.label_source == LabelSource.REVIEWED
    uses_annotations = filters.label_source.uses_annotations
    for chunk, related in chunks:
        for row in chunk:
            if columns is not None and related.columnar:
                single = related.annotations.get(row[0])
                if (
                    single is not None
                    and len(single) == 1
                    and not (final and row[0] in related.resolutions)
                ):
                    resolved, cols = columns.resolve(
                        related.step_rows.get(row[0], []), single[0], tally
                    )
                    record = _record(row, resolved, project_id)
                    record.columns = cols
                    yield record
                    continue
            steps = related.steps_of(row[0])
            if final:
                resolved = from_final(
                    steps,
                    related.resolutions.get(row[0]),
                    related.annotations.get(row[0], []),
                    positive=positive,
                    tally=tally,  # type: ignore[arg-type]
                    suggestions=related.suggestions if machine else None,
                    priority=priority,
                    reuse=True,
                )
                yield _record(row, resolved, project_id, inherit)
                continue
            if reviewed:
                resolution = related.resolutions[row[0]]
                yield _record(
                    row, from_resolution(steps, resolution, positive=positive), project_id, inherit
                )
                continue
            if not uses_annotations:
                resolved = from_suggestions(
                    steps, related.suggestions, priority=priority, positive=positive
                )
                yield _record(row, resolved, project_id, inherit)
                continue
            annotations = related.annotations.get(row[0], [])
            if not per_annotation:
                yield _record(
                    row,
                    from_annotations(steps, annotations, positive=positive, reuse=True),
                    project_id,
                    inherit,
                )
                continue
            agreement = agreement_of(steps, annotations)
            for one in sorted(annotations, key=_per_annotation_order):
                resolved = from_annotations(steps, [one], positive=positive, agreement=agreement)
                yield _record(row, resolved, project_id, inherit)
        if on_chunk:
            on_chunk(len(chunk))


def problem_split_keys(*, project: Project, limit: int) -> dict[str, str] | None:
    """Split key → the key its split is decided by (its near-duplicate cluster's name, else
    its own) for all the project's problems; None when it has more than `limit`."""
    rows = list(
        Problem.objects.filter(project=project)
        .order_by("pk")
        .values_list("external_id", "text", "near_cluster")[: limit + 1]
    )
    if len(rows) > limit:
        return None
    return {(key := ext or problem_id(text)): cluster or key for ext, text, cluster in rows}


def project_has_thinking(*, project_id: int) -> bool:
    """The project has a reasoning step (Step.thinking): formats then say which steps are.
    Read through the partial index of thinking steps (step_thinking_idx), so a project
    without any costs a look at the (few) thinking steps, not a scan of its steps."""
    return Step.objects.filter(thinking=True, solution__project_id=project_id).exists()


def export_list(
    *, project: Project, format: str | None = None, status: str | None = None
) -> QuerySet[Export]:
    rows = Export.objects.filter(project=project)
    if format is not None:
        rows = rows.filter(format=format)
    if status is not None:
        rows = rows.filter(status=status)
    return rows.select_related("created_by").order_by("-id")
