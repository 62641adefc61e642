"""Reading an export's records from the database: the one module here that queries, and
the exports' selectors (`export_list`).

Solutions that match the filters come from one ordered query read a chunk at a time with
fetchmany (a server-side cursor on PostgreSQL, as QuerySet.iterator), so the whole set is
never in memory. For each chunk, a few bounded queries fetch the chunk's steps, labels (or
suggestions) and, for formats that need them, alternatives; then the chunk's records are
yielded and `on_chunk(n)` is told. Order: problem external id, problem id, solution external
id, solution id, with byte-wise collation ("C" on PostgreSQL, BINARY on SQLite) so it does
not depend on the database's locale.

Every query is built with the ORM (the filters live in annotation_q and friends) but
compiled once per export (`_Compiled`); the chunk queries run once per chunk with the chunk's
ids as one parameter (`_ChunkQuery`): compiling an `IN (...)` of thousands of ids, and
turning every row into Django's values, cost more than the database's work for them.
"""

import json
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from django.db import connection, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import BooleanField, DateTimeField, Exists, F, OuterRef, Q, QuerySet
from django.db.models.expressions import RawSQL
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Collate

from labeling.importers.ids import problem_id
from labeling.models import (
    Annotation,
    AnnotationStatus,
    Export,
    Project,
    Resolution,
    ResolutionLabel,
    Solution,
    Step,
    StepAlternative,
    StepLabel,
    Suggestion,
)
from labeling.read_ahead import read_ahead

from .labels import (
    AnnotationLabels,
    BaseStep,
    ResolutionLabels,
    Resolved,
    SuggestionLabel,
    agreement_of,
    from_annotations,
    from_resolution,
    from_suggestions,
)
from .options import Combine, ExportOptions, Filters, LabelSource
from .policy import positive_rating
from .records import AlternativeRecord, SolutionRecord

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
)


def image_refs(project_id: int, images: Any) -> list[str]:
    """A problem's or step's stored images as the API paths that serve them to members
    (`/api/projects/<id>/media/<sha256>.<ext>`): what exports write as image references."""
    if not isinstance(images, list):
        return []
    return [
        f"/api/projects/{project_id}/media/{ref['media']}"
        for ref in images
        if isinstance(ref, dict) and isinstance(ref.get("media"), str)
    ]


def _bytewise(name: str) -> Collate:
    return Collate(F(name), "C" if connection.vendor == "postgresql" else "BINARY")


def annotation_q(filters: Filters, prefix: str = "") -> Q:
    """The annotations the label source and filters admit (`prefix` for related lookups)."""

    def q(**lookups: Any) -> Q:
        return Q(**{prefix + key: value for key, value in lookups.items()})

    cond = q(status=AnnotationStatus.SUBMITTED)
    if filters.label_source == LabelSource.HUMAN:
        cond &= q(imported=False, annotator__isnull=False)
    elif filters.label_source == LabelSource.IMPORTED:
        cond &= q(imported=True)
    if filters.annotators:
        names = list(filters.annotators)
        cond &= q(annotator__username__in=names) | q(
            annotator__isnull=True, external_annotator__in=names
        )
    if filters.labeled_after:
        cond &= q(submitted_at__gte=filters.labeled_after)
    if filters.labeled_before:
        cond &= q(submitted_at__lt=filters.labeled_before)
    return cond


def auto_sources(filters: Filters) -> tuple[str, ...]:
    if filters.label_source == LabelSource.AUTO_CONSENSUS:
        return ("consensus",)
    return filters.auto_sources


def suggestion_q(filters: Filters, prefix: str = "") -> Q:
    def q(**lookups: Any) -> Q:
        return Q(**{prefix + key: value for key, value in lookups.items()})

    # value None: evidence only ("checks out", "tests pass"), never a label.
    cond = q(source__in=list(auto_sources(filters)), value__isnull=False)
    if filters.min_score is not None:  # an unknown score (NULL) is not >= anything
        cond &= q(score__gte=filters.min_score)
    if filters.labeled_after:
        cond &= q(updated_at__gte=filters.labeled_after)
    if filters.labeled_before:
        cond &= q(updated_at__lt=filters.labeled_before)
    return cond


def resolution_q(filters: Filters) -> Q:
    """Current resolutions in the date range (the resolution's own time)."""
    cond = Q(is_current=True)
    if filters.labeled_after:
        cond &= Q(created_at__gte=filters.labeled_after)
    if filters.labeled_before:
        cond &= Q(created_at__lt=filters.labeled_before)
    return cond


def matching_solutions(*, project: Project, filters: Filters) -> QuerySet[Solution]:
    """Solutions of the project with at least one label the filters admit; gold questions
    only with `include_gold` (their labels are the reviewers' answer key)."""
    qs = Solution.objects.filter(project=project)
    if not filters.include_gold:
        qs = qs.filter(is_gold=False)
    if filters.problem_sources:
        qs = qs.filter(problem__source__in=list(filters.problem_sources))
    if filters.label_source == LabelSource.REVIEWED:
        labels = Resolution.objects.filter(resolution_q(filters), solution_id=OuterRef("pk"))
    elif filters.label_source.uses_annotations:
        labels = Annotation.objects.filter(annotation_q(filters), solution_id=OuterRef("pk"))
    else:
        labels = Suggestion.objects.filter(suggestion_q(filters), step__solution_id=OuterRef("pk"))
    return qs.filter(Exists(labels))


def _timestamptz_loader() -> Any:
    """psycopg's own timestamptz loader (its C one with psycopg[binary]): Django's connection
    loader subclasses the pure-Python one to set its time zone, about seven times slower."""
    from psycopg import adapters, postgres
    from psycopg.pq import Format

    return adapters.get_loader(postgres.types["timestamptz"].oid, Format.TEXT)


class _Compiled:
    """A values_list query compiled once, its rows read as plain tuples: the fields' database
    converters (JSON decoding; SQLite's booleans) are applied to the values that are not
    NULL, which is all they change; on PostgreSQL timestamps are read by psycopg's loader,
    then given the connection's time zone as Django's loader does. Django's own iterator
    spends more on each row than the database does."""

    def __init__(self, qs: QuerySet, marker: object = None) -> None:
        self.alias = qs.db
        self.vendor = connections[self.alias].vendor
        compiler = qs.query.get_compiler(using=self.alias)
        self.sql, params = compiler.as_sql()
        self.params = list(params)
        self.at = [i for i, p in enumerate(self.params) if marker is not None and p is marker]
        fields = [s[0] for s in compiler.select[: compiler.col_count]]
        self.converters = [
            (pos, convs, expression)
            for pos, (convs, expression) in compiler.get_converters(fields).items()
        ]
        self.times = [
            pos
            for pos, field in enumerate(fields)
            if self.vendor == "postgresql" and isinstance(field.output_field, DateTimeField)
        ]

    def execute(self, cursor: Any, params: list[Any]) -> None:
        if self.times:
            cursor.cursor.adapters.register_loader("timestamptz", _timestamptz_loader())
        cursor.execute(self.sql, params)

    def convert(self, rows: list[tuple], wrapper: BaseDatabaseWrapper) -> list[tuple]:
        for pos, convs, expression in self.converters:
            for n, row in enumerate(rows):
                if (value := row[pos]) is not None:
                    for convert in convs:
                        value = convert(value, expression, wrapper)
                    rows[n] = (*row[:pos], value, *row[pos + 1 :])
        # psycopg reads times in the session's time zone, which Django sets to its own (UTC):
        # mostly the very tzinfo Django's loader gives them already.
        tz = wrapper.timezone
        for pos in self.times:
            for n, row in enumerate(rows):
                if (value := row[pos]) is not None and value.tzinfo is not tz:
                    rows[n] = (*row[:pos], value.replace(tzinfo=tz), *row[pos + 1 :])
        return rows

    def chunks(self, size: int) -> Iterator[list[tuple]]:
        """All rows, `size` at a time, through a server-side cursor where the connection
        allows one (as QuerySet.iterator)."""
        wrapper = connections[self.alias]
        chunked = not wrapper.settings_dict.get("DISABLE_SERVER_SIDE_CURSORS")
        cursor = wrapper.chunked_cursor() if chunked else wrapper.cursor()
        try:
            self.execute(cursor, self.params)
            while rows := cursor.fetchmany(size):
                yield self.convert(list(rows), wrapper)
        finally:
            cursor.close()


class _ChunkQuery(_Compiled):
    """A chunk's related rows: compiled once, run once per chunk, `column` taking the chunk's
    ids as one parameter (`= ANY(array)` on PostgreSQL, written as one array literal; a JSON
    array on SQLite) instead of an `IN (...)` compiled and quoted id by id."""

    def __init__(self, qs: QuerySet, column: str) -> None:
        marker = object()
        qn = connections[qs.db].ops.quote_name
        target = f"{qn(qs.model._meta.db_table)}.{qn(column)}"
        if connections[qs.db].vendor == "postgresql":
            condition = f"{target} = ANY(%s::bigint[])"
        else:
            condition = f"{target} IN (SELECT value FROM json_each(%s))"
        ids = RawSQL(condition, [marker], output_field=BooleanField())
        super().__init__(qs.filter(ids), marker)

    def rows(self, ids: list[int]) -> list[tuple]:
        if not ids:
            return []
        if self.vendor == "postgresql":
            value = "{" + ",".join(map(str, ids)) + "}"
        else:
            value = json.dumps(ids)
        params = list(self.params)
        for i in self.at:
            params[i] = value
        wrapper = connections[self.alias]  # this thread's, not the proxy: read per value
        with wrapper.cursor() as cursor:
            self.execute(cursor, params)
            rows = cursor.fetchall()
        return self.convert(rows, wrapper)


class _Queries:
    """The chunk queries of one export, compiled once."""

    def __init__(self, options: ExportOptions, *, alternatives: bool) -> None:
        filters = options.filters
        # Only the step metadata's "via" (PRM800K: the labeler wrote this step), as text: no
        # JSON decoding per step.
        self.steps = _ChunkQuery(
            Step.objects.annotate(via=KeyTextTransform("via", "metadata"))
            .order_by("solution_id", "index")
            .values_list("solution_id", "id", "index", "text", "via", "metadata__images"),
            "solution_id",
        )
        self.alternatives = (
            _ChunkQuery(
                StepAlternative.objects.order_by(
                    "step_id", "is_human", "position", "id"
                ).values_list(
                    "step_id",
                    "position",
                    "text",
                    "rating",
                    "flagged",
                    "is_chosen",
                    "is_human",
                    "metadata",
                ),
                "step_id",
            )
            if alternatives
            else None
        )
        self.annotations = self.labels = self.suggestions = None
        self.resolutions = self.resolution_annotations = self.resolution_labels = None
        if filters.label_source == LabelSource.REVIEWED:
            self.resolutions = _ChunkQuery(
                Resolution.objects.filter(resolution_q(filters))
                .order_by()
                .values_list(
                    "id", "solution_id", "provenance", "resolved_by__username", "created_at"
                ),
                "solution_id",
            )
            self.resolution_annotations = _ChunkQuery(
                Resolution.annotations.through.objects.order_by().values_list(
                    "resolution_id", flat=True
                ),
                "resolution_id",
            )
            self.resolution_labels = _ChunkQuery(
                ResolutionLabel.objects.order_by().values_list(
                    "resolution_id", "step_id", "rating"
                ),
                "resolution_id",
            )
        elif filters.label_source.uses_annotations:
            self.annotations = _ChunkQuery(
                Annotation.objects.filter(annotation_q(filters))
                .order_by("solution_id", "id")
                .values_list(
                    "id",
                    "solution_id",
                    "annotator__username",
                    "external_annotator",
                    "imported",
                    "finish_reason",
                    "time_spent_ms",
                    "submitted_at",
                ),
                "solution_id",
            )
            # By annotation id (the unique (annotation, step) index), not through a join;
            # order_by(): StepLabel's default ordering joins Step to sort by its index.
            self.labels = _ChunkQuery(
                StepLabel.objects.order_by().values_list(
                    "annotation_id", "step_id", "rating", "unsure"
                ),
                "annotation_id",
            )
        else:
            self.suggestions = _ChunkQuery(
                Suggestion.objects.filter(suggestion_q(filters))
                .order_by("step_id", "source", "agent")
                .values_list("step_id", "source", "agent", "value", "evidence", "updated_at"),
                "step_id",
            )

    def fetch(self, ids: list[int]) -> "_ChunkRows":
        """The related rows of the solutions `ids`: one query per table."""
        rows = _ChunkRows(steps=self.steps.rows(ids))
        step_ids = [row[1] for row in rows.steps]
        if self.alternatives:
            rows.alternatives = self.alternatives.rows(step_ids)
        if self.resolutions:
            rows.resolutions = self.resolutions.rows(ids)
            resolution_ids = [row[0] for row in rows.resolutions]
            rows.resolution_annotations = self.resolution_annotations.rows(resolution_ids)
            rows.resolution_labels = self.resolution_labels.rows(resolution_ids)
        elif self.annotations:
            rows.annotations = self.annotations.rows(ids)
            rows.labels = self.labels.rows([row[0] for row in rows.annotations])
        elif self.suggestions:
            rows.suggestions = self.suggestions.rows(step_ids)
        return rows


@dataclass(slots=True)
class _ChunkRows:
    """What `_Queries.fetch` read for one chunk, as plain rows."""

    steps: list[tuple]
    alternatives: list[tuple] = field(default_factory=list)
    annotations: list[tuple] = field(default_factory=list)
    labels: list[tuple] = field(default_factory=list)
    suggestions: list[tuple] = field(default_factory=list)
    resolutions: list[tuple] = field(default_factory=list)
    resolution_annotations: list[tuple] = field(default_factory=list)
    resolution_labels: list[tuple] = field(default_factory=list)


class _Chunk:
    """The related rows of one chunk of solutions, as the label resolution takes them."""

    def __init__(self, rows: _ChunkRows, *, project_id: int) -> None:
        self.steps: dict[int, list[BaseStep]] = defaultdict(list)
        steps, by_id = self.steps, {}
        for solution_id, step_id, index, text, via, images in rows.steps:
            # Positional, built once per step: half the time of keywords; most steps have no
            # alternatives and no images, and share one empty tuple for each.
            step = BaseStep(
                step_id,
                index,
                text,
                via == "human",
                (),
                image_refs(project_id, images) if images is not None else (),
            )
            steps[solution_id].append(step)
            by_id[step_id] = step
        alternatives: dict[int, list[AlternativeRecord]] = defaultdict(list)
        for step_id, *fields in rows.alternatives:
            alternatives[step_id].append(AlternativeRecord(*fields))
        for step_id, found in alternatives.items():
            by_id[step_id].alternatives = found
        self.annotations: dict[int, list[AnnotationLabels]] = defaultdict(list)
        self.suggestions: dict[int, list[SuggestionLabel]] = defaultdict(list)
        self.resolutions: dict[int, ResolutionLabels] = {}
        self._resolutions(rows)
        self._annotations(rows)
        for step_id, source, agent, value, evidence, at in rows.suggestions:
            self.suggestions[step_id].append(SuggestionLabel(source, agent, value, evidence, at))

    def _annotations(self, rows: _ChunkRows) -> None:
        by_id = {}
        for (
            pk,
            solution_id,
            username,
            external,
            imported,
            finish,
            spent,
            at,
        ) in rows.annotations:
            item = AnnotationLabels(
                id=pk,
                name=username or external,
                imported=imported,
                finish_reason=finish,
                time_spent_ms=spent,
                submitted_at=at,
            )
            self.annotations[solution_id].append(item)
            by_id[pk] = item
        for annotation_id, step_id, rating, unsure in rows.labels:
            by_id[annotation_id].labels[step_id] = (rating, unsure)

    def _resolutions(self, rows: _ChunkRows) -> None:
        by_id: dict[int, ResolutionLabels] = {}
        for pk, solution_id, provenance, username, at in rows.resolutions:
            by_id[pk] = self.resolutions[solution_id] = ResolutionLabels(
                provenance=provenance, resolved_by=username or "", created_at=at, annotations=0
            )
        for (resolution_id,) in rows.resolution_annotations:
            by_id[resolution_id].annotations += 1
        for resolution_id, step_id, rating in rows.resolution_labels:
            by_id[resolution_id].labels[step_id] = rating


def _record(row: tuple, resolved: Resolved, project_id: int) -> SolutionRecord:
    (pk, p_ext, p_text, p_answer, p_ref, p_source, ext, generator, final, correct, source, meta) = (
        row[:12]
    )
    return SolutionRecord(  # positional, in the fields' order: one per exported row
        pk,
        p_ext or problem_id(p_text),
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
) -> Iterator[tuple[list[tuple], _Chunk]]:
    """Each chunk of solution rows with its related rows: every database read of an export.

    `shared`: the connection to read on, when this runs on the read-ahead thread (inside the
    caller's transaction, so in its snapshot), instead of this thread's own.
    """
    if shared is not None:
        connections[shared.alias] = shared
    queries = _Queries(options, alternatives=alternatives)
    for chunk in _Compiled(solutions).chunks(chunk_size):
        rows = queries.fetch([row[0] for row in chunk])
        yield chunk, _Chunk(rows, project_id=project_id)


def solution_records(
    *,
    project: Project,
    options: ExportOptions,
    alternatives: bool = False,
    chunk_size: int = CHUNK,
    on_chunk: Callable[[int], None] | None = None,
    read_ahead_chunks: bool = False,
) -> Iterator[SolutionRecord]:
    """The export's records in their stable order, read chunk by chunk.

    `read_ahead_chunks`: read the next chunks on a second thread, on this thread's connection,
    while this one's records are consumed (`labeling.read_ahead`). Only for a caller that
    uses no other query on that connection until the records are done (`export_build` in its
    read-only snapshot; its progress goes out on a second connection), and that closes the
    iterator (contextlib.closing) before it ends the transaction.
    """
    solutions = (
        matching_solutions(project=project, filters=options.filters)
        .order_by(
            _bytewise("problem__external_id"),
            "problem_id",
            _bytewise("external_id"),
            "id",
        )
        .values_list(*SOLUTION_FIELDS)
    )
    if not read_ahead_chunks:
        chunks = _chunk_reads(
            solutions,
            options,
            project_id=project.pk,
            alternatives=alternatives,
            chunk_size=chunk_size,
            shared=None,
        )
        yield from _records(chunks, project=project, options=options, on_chunk=on_chunk)
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
        )
        with read_ahead(chunks) as ahead:
            yield from _records(ahead, project=project, options=options, on_chunk=on_chunk)
    finally:
        shared.dec_thread_sharing()


def _records(
    chunks: Iterable[tuple[list[tuple], _Chunk]],
    *,
    project: Project,
    options: ExportOptions,
    on_chunk: Callable[[int], None] | None,
) -> Iterator[SolutionRecord]:
    filters = options.filters

    def positive(rating: int) -> bool:
        return positive_rating(rating, options.label_policy)

    per_annotation = options.label_policy.combine == Combine.PER_ANNOTATION
    reviewed = filters.label_source == LabelSource.REVIEWED
    uses_annotations = filters.label_source.uses_annotations
    for chunk, related in chunks:
        for row in chunk:
            steps = related.steps.get(row[0], [])
            if reviewed:
                resolution = related.resolutions[row[0]]
                yield _record(
                    row, from_resolution(steps, resolution, positive=positive), project.pk
                )
                continue
            if not uses_annotations:
                resolved = from_suggestions(
                    steps, related.suggestions, priority=auto_sources(filters), positive=positive
                )
                yield _record(row, resolved, project.pk)
                continue
            annotations = related.annotations.get(row[0], [])
            if not per_annotation:
                yield _record(
                    row, from_annotations(steps, annotations, positive=positive), project.pk
                )
                continue
            agreement = agreement_of(steps, annotations)
            for one in sorted(annotations, key=_per_annotation_order):
                resolved = from_annotations(steps, [one], positive=positive, agreement=agreement)
                yield _record(row, resolved, project.pk)
        if on_chunk:
            on_chunk(len(chunk))


def export_list(*, project: Project) -> QuerySet[Export]:
    return Export.objects.filter(project=project).select_related("created_by").order_by("-id")
