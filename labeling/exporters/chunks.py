"""A chunk of solutions' related rows: the export's chunk queries (`ChunkQueries`, one per
table, compiled once), what they read for one chunk (`ChunkRows`), and the same rows as the
label resolution takes them (`Chunk`)."""

from collections import defaultdict
from dataclasses import dataclass, field
from operator import itemgetter

from django.db.models.fields.json import KeyTextTransform

from labeling.models import (
    STEP_ALTERNATIVE_COLUMNS,
    Annotation,
    Resolution,
    ResolutionLabel,
    Step,
    StepAlternative,
    StepLabel,
    Suggestion,
)

from .labels import AnnotationLabels, BaseStep, ResolutionLabels, SuggestionLabel
from .options import DependencyPolicy, ExportOptions, LabelSource
from .raw import ChunkQuery
from .records import STEP_RECORD_META, AlternativeRecord, image_refs
from .selection import annotation_q, resolution_q, suggestion_q

_row_index = itemgetter(2)  # a step row's index (ChunkQueries.steps)


class ChunkQueries:
    """The chunk queries of one export, compiled once."""

    def __init__(
        self, options: ExportOptions, *, alternatives: bool, step_meta: bool = False
    ) -> None:
        filters = options.filters
        # Step dependencies (Step.uses, StepLabel.uses) only when the export writes them: a
        # JSON value more to decode per step and label otherwise.
        self.uses = options.label_policy.dependency_policy != DependencyPolicy.NONE
        # Only the step metadata's "via" (PRM800K: the labeler wrote this step), as text: no
        # JSON decoding per step; the whole metadata only for formats that read it (`meta`).
        # Unordered: with the chunk's ids as `= ANY(...)` PostgreSQL sorts the chunk's steps
        # (spilling ~6 MB to disk a chunk of 5,000 at the default work_mem: half the query's
        # time); Chunk puts each solution's steps in index order itself (most come so).
        self.steps = ChunkQuery(
            Step.objects.annotate(via=KeyTextTransform("via", "metadata"))
            .order_by()
            .values_list(
                "solution_id",
                "id",
                "index",
                "text",
                "via",
                "metadata" if step_meta else "metadata__images",
                "metadata__citations",
                "thinking",
                *(["uses"] if self.uses else []),
            ),
            "solution_id",
        )
        self.step_meta = step_meta
        self.alternatives = (
            ChunkQuery(
                # In AlternativeRecord's order after step_id (tests/exports checks it).
                StepAlternative.objects.order_by(
                    "step_id", "is_human", "position", "id"
                ).values_list(*STEP_ALTERNATIVE_COLUMNS),
                "step_id",
            )
            if alternatives
            else None
        )
        self.annotations = self.labels = self.suggestions = None
        self.resolutions = self.resolution_annotations = self.resolution_labels = None
        source = filters.label_source
        final = source == LabelSource.FINAL
        if source == LabelSource.REVIEWED or final:
            self.resolutions = ChunkQuery(
                Resolution.objects.filter(resolution_q(filters))
                .order_by()
                .values_list(
                    "id", "solution_id", "provenance", "resolved_by__username", "created_at"
                ),
                "solution_id",
            )
            if not final:  # final counts the annotations it reads itself
                self.resolution_annotations = ChunkQuery(
                    Resolution.annotations.through.objects.order_by().values_list(
                        "resolution_id", flat=True
                    ),
                    "resolution_id",
                )
            self.resolution_labels = ChunkQuery(
                ResolutionLabel.objects.order_by().values_list(
                    "resolution_id", "step_id", "rating", *(["uses"] if self.uses else [])
                ),
                "resolution_id",
            )
        if source.uses_annotations or final:
            self.annotations = ChunkQuery(
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
            self.labels = ChunkQuery(
                StepLabel.objects.order_by().values_list(
                    "annotation_id", "step_id", "rating", "unsure", *(["uses"] if self.uses else [])
                ),
                "annotation_id",
            )
        if (final and filters.machine_labels) or not (
            final or source == LabelSource.REVIEWED or source.uses_annotations
        ):
            self.suggestions = ChunkQuery(
                Suggestion.objects.filter(suggestion_q(filters))
                .order_by("step_id", "source", "agent")
                .values_list("step_id", "source", "agent", "value", "evidence", "updated_at"),
                "step_id",
            )

    def fetch(self, ids: list[int]) -> "ChunkRows":
        """The related rows of the solutions `ids`: one query per table."""
        rows = ChunkRows(steps=self.steps.rows(ids), step_meta=self.step_meta)
        step_ids = [row[1] for row in rows.steps]
        if self.alternatives:
            rows.alternatives = self.alternatives.rows(step_ids)
        if self.resolutions:
            rows.resolutions = self.resolutions.rows(ids)
            resolution_ids = [row[0] for row in rows.resolutions]
            if resolution_ids:  # most chunks of a project without review have none
                if self.resolution_annotations:
                    rows.resolution_annotations = self.resolution_annotations.rows(resolution_ids)
                rows.resolution_labels = self.resolution_labels.rows(resolution_ids)
        if self.annotations:
            rows.annotations = self.annotations.rows(ids)
            rows.labels = self.labels.rows([row[0] for row in rows.annotations])
        if self.suggestions:
            rows.suggestions = self.suggestions.rows(step_ids)
        return rows


@dataclass(slots=True)
class ChunkRows:
    """What `ChunkQueries.fetch` read for one chunk, as plain rows."""

    steps: list[tuple]
    step_meta: bool = False  # the steps' last column is their whole metadata, not its images
    alternatives: list[tuple] = field(default_factory=list)
    annotations: list[tuple] = field(default_factory=list)
    labels: list[tuple] = field(default_factory=list)
    suggestions: list[tuple] = field(default_factory=list)
    resolutions: list[tuple] = field(default_factory=list)
    resolution_annotations: list[tuple] = field(default_factory=list)
    resolution_labels: list[tuple] = field(default_factory=list)


def base_steps(rows: list[tuple], *, project_id: int, step_meta: bool) -> list[BaseStep]:
    """One solution's steps (rows of `ChunkQueries.steps`, in index order) as BaseSteps."""
    out = []
    for (
        _solution_id,
        step_id,
        index,
        text,
        via,
        images,
        citations,
        thinking,
        *uses,
    ) in rows:
        meta = None
        if step_meta:
            metadata = images or {}
            meta = {k: metadata[k] for k in STEP_RECORD_META if k in metadata}
            images = metadata.get("images")
        # Positional, built once per step: half the time of keywords; most steps have no
        # alternatives and no images, and share one empty tuple for each.
        out.append(
            BaseStep(
                step_id,
                index,
                text,
                via == "human",
                (),
                image_refs(project_id, images) if images is not None else (),
                meta,
                uses[0] if uses and uses[0] else (),
                citations if isinstance(citations, list) else (),
                thinking,
            )
        )
    return out


class Chunk:
    """The related rows of one chunk of solutions, as the label resolution takes them.

    `columnar` (labeling.exporters.columnar): each solution's step rows are kept as read,
    in index order (`step_rows`), and BaseSteps are built only for a solution that asks
    (`steps_of`); otherwise every step's BaseStep is built here (alternatives need them)."""

    def __init__(self, rows: ChunkRows, *, project_id: int, columnar: bool = False) -> None:
        self.project_id, self.step_meta = project_id, rows.step_meta
        grouped: dict[int, list[tuple]] = defaultdict(list)
        unordered = set()
        for row in rows.steps:
            own = grouped[row[0]]
            if own and own[-1][2] > row[2]:  # the rows come in no promised order
                unordered.add(row[0])
            own.append(row)
        for solution_id in unordered:
            grouped[solution_id].sort(key=_row_index)
        self.step_rows = grouped
        self.steps: dict[int, list[BaseStep]] = {}
        self.columnar = columnar
        if not columnar or rows.alternatives:
            self.columnar = False
            for solution_id, own in grouped.items():
                self.steps[solution_id] = base_steps(
                    own, project_id=project_id, step_meta=rows.step_meta
                )
            by_id = {step.id: step for own in self.steps.values() for step in own}
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

    def steps_of(self, solution_id: int) -> list[BaseStep]:
        """The solution's steps as BaseSteps (built now when columnar)."""
        if not self.columnar:
            return self.steps.get(solution_id, [])
        return base_steps(
            self.step_rows.get(solution_id, []),
            project_id=self.project_id,
            step_meta=self.step_meta,
        )

    def _annotations(self, rows: ChunkRows) -> None:
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
        for annotation_id, step_id, rating, unsure, *uses in rows.labels:
            item = by_id[annotation_id]
            item.labels[step_id] = (rating, unsure)
            if uses and uses[0] is not None:
                item.uses[step_id] = uses[0]

    def _resolutions(self, rows: ChunkRows) -> None:
        by_id: dict[int, ResolutionLabels] = {}
        for pk, solution_id, provenance, username, at in rows.resolutions:
            by_id[pk] = self.resolutions[solution_id] = ResolutionLabels(
                provenance=provenance, resolved_by=username or "", created_at=at, annotations=0
            )
        for (resolution_id,) in rows.resolution_annotations:
            by_id[resolution_id].annotations += 1
        for resolution_id, step_id, rating, *uses in rows.resolution_labels:
            item = by_id[resolution_id]
            item.labels[step_id] = rating
            if uses and uses[0] is not None:
                item.uses[step_id] = uses[0]
