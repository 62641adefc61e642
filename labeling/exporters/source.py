"""Reading an export's records from the database: the one module here that queries, and
the exports' selectors (`export_list`).

Solutions that match the filters come from one ordered query read with
`.iterator(chunk_size=...)` (a server-side cursor on PostgreSQL, fetchmany on SQLite), so the
whole set is never in memory. For each chunk, four bounded queries fetch the chunk's steps,
labels (or suggestions) and, for formats that need them, alternatives; then the chunk's
records are yielded and `on_chunk(n)` is told. Order: problem external id, problem id,
solution external id, solution id, with byte-wise collation ("C" on PostgreSQL, BINARY on
SQLite) so it does not depend on the database's locale.
"""

from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from itertools import islice
from typing import Any

from django.db import connection
from django.db.models import Exists, F, OuterRef, Q, QuerySet
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

CHUNK = 1000
IN_LIMIT = 10_000  # ids per IN (...): below SQLite's 32766 host parameters

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

    cond = q(source__in=list(auto_sources(filters)), value__isnull=False)
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


def _parts(ids: list[int], size: int = IN_LIMIT) -> Iterator[list[int]]:
    for start in range(0, len(ids), size):
        yield ids[start : start + size]


def _chunks(rows: Iterable[tuple], size: int) -> Iterator[list[tuple]]:
    it = iter(rows)
    while chunk := list(islice(it, size)):
        yield chunk


class _Chunk:
    """The related rows of one chunk of solutions, fetched with one query per table."""

    def __init__(
        self, ids: list[int], options: ExportOptions, *, alternatives: bool, project_id: int
    ) -> None:
        filters = options.filters
        self.steps: dict[int, list[BaseStep]] = defaultdict(list)
        by_id: dict[int, BaseStep] = {}
        # Only the step metadata's "via" (PRM800K: the labeler wrote this step), as text: no
        # JSON decoding per step.
        step_rows = (
            Step.objects.filter(solution_id__in=ids)
            .annotate(via=KeyTextTransform("via", "metadata"))
            .order_by("solution_id", "index")
            .values_list("solution_id", "id", "index", "text", "via", "metadata__images")
        )
        for solution_id, step_id, index, text, via, images in step_rows:
            step = BaseStep(
                id=step_id,
                index=index,
                text=text,
                human_written=via == "human",
                images=image_refs(project_id, images),
            )
            self.steps[solution_id].append(step)
            by_id[step_id] = step
        step_ids = list(by_id)
        if alternatives:
            for part in _parts(step_ids):
                alt_rows = (
                    StepAlternative.objects.filter(step_id__in=part)
                    .order_by("step_id", "is_human", "position", "id")
                    .values_list(
                        "step_id",
                        "position",
                        "text",
                        "rating",
                        "flagged",
                        "is_chosen",
                        "is_human",
                        "metadata",
                    )
                )
                for step_id, *fields in alt_rows:
                    by_id[step_id].alternatives.append(AlternativeRecord(*fields))
        self.annotations: dict[int, list[AnnotationLabels]] = defaultdict(list)
        self.suggestions: dict[int, list[SuggestionLabel]] = defaultdict(list)
        self.resolutions: dict[int, ResolutionLabels] = {}
        if filters.label_source == LabelSource.REVIEWED:
            self._resolutions(ids, filters)
        elif filters.label_source.uses_annotations:
            self._annotations(ids, filters)
        else:
            self._suggestions(step_ids, filters)

    def _annotations(self, ids: list[int], filters: Filters) -> None:
        rows = (
            Annotation.objects.filter(annotation_q(filters), solution_id__in=ids)
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
            )
        )
        by_id = {}
        for pk, solution_id, username, external, imported, finish, spent, at in rows:
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
        # By annotation id (the unique (annotation, step) index), not through a join.
        for part in _parts(list(by_id)):
            # order_by(): StepLabel's default ordering joins Step to sort by its index.
            labels = (
                StepLabel.objects.filter(annotation_id__in=part)
                .order_by()
                .values_list("annotation_id", "step_id", "rating", "unsure")
            )
            for annotation_id, step_id, rating, unsure in labels:
                by_id[annotation_id].labels[step_id] = (rating, unsure)

    def _resolutions(self, ids: list[int], filters: Filters) -> None:
        rows = (
            Resolution.objects.filter(resolution_q(filters), solution_id__in=ids)
            .order_by()
            .values_list("id", "solution_id", "provenance", "resolved_by__username", "created_at")
        )
        by_id: dict[int, ResolutionLabels] = {}
        for pk, solution_id, provenance, username, at in rows:
            by_id[pk] = self.resolutions[solution_id] = ResolutionLabels(
                provenance=provenance, resolved_by=username or "", created_at=at, annotations=0
            )
        for part in _parts(list(by_id)):
            through = Resolution.annotations.through.objects.filter(resolution_id__in=part)
            for resolution_id in through.values_list("resolution_id", flat=True):
                by_id[resolution_id].annotations += 1
            labels = (
                ResolutionLabel.objects.filter(resolution_id__in=part)
                .order_by()
                .values_list("resolution_id", "step_id", "rating")
            )
            for resolution_id, step_id, rating in labels:
                by_id[resolution_id].labels[step_id] = rating

    def _suggestions(self, step_ids: list[int], filters: Filters) -> None:
        for part in _parts(step_ids):
            rows = (
                Suggestion.objects.filter(suggestion_q(filters), step_id__in=part)
                .order_by("step_id", "source", "agent")
                .values_list("step_id", "source", "agent", "value", "evidence", "updated_at")
            )
            for step_id, source, agent, value, evidence, at in rows:
                self.suggestions[step_id].append(
                    SuggestionLabel(source, agent, value, evidence, at)
                )


def _record(row: tuple, resolved: Resolved, project_id: int) -> SolutionRecord:
    (pk, p_ext, p_text, p_answer, p_ref, p_source, ext, generator, final, correct, source, meta) = (
        row[:12]
    )
    return SolutionRecord(
        solution_id=pk,
        problem_key=p_ext or problem_id(p_text),
        problem_text=p_text,
        problem_answer=p_answer,
        problem_reference=p_ref,
        problem_source=p_source,
        external_id=ext,
        generator=generator,
        final_answer=final,
        answer_correct=correct,
        source=source,
        metadata=meta if isinstance(meta, dict) else {},
        steps=resolved.steps,
        agreement=resolved.agreement,
        labeler=resolved.labeler,
        labeled_at=resolved.labeled_at,
        time_spent_ms=resolved.time_spent_ms,
        finish_reason=resolved.finish_reason,
        from_import=resolved.from_import,
        annotations=resolved.annotations,
        problem_images=image_refs(project_id, row[12]),
    )


def _per_annotation_order(a: AnnotationLabels) -> tuple:
    return (a.imported, a.name, a.id)


def solution_records(
    *,
    project: Project,
    options: ExportOptions,
    alternatives: bool = False,
    chunk_size: int = CHUNK,
    on_chunk: Callable[[int], None] | None = None,
) -> Iterator[SolutionRecord]:
    """The export's records in their stable order, read chunk by chunk."""
    filters = options.filters

    def positive(rating: int) -> bool:
        return positive_rating(rating, options.label_policy)

    solutions = (
        matching_solutions(project=project, filters=filters)
        .order_by(
            _bytewise("problem__external_id"),
            "problem_id",
            _bytewise("external_id"),
            "id",
        )
        .values_list(*SOLUTION_FIELDS)
    )
    per_annotation = options.label_policy.combine == Combine.PER_ANNOTATION
    for chunk in _chunks(solutions.iterator(chunk_size=chunk_size), chunk_size):
        related = _Chunk(
            [row[0] for row in chunk], options, alternatives=alternatives, project_id=project.pk
        )
        for row in chunk:
            steps = related.steps.get(row[0], [])
            if filters.label_source == LabelSource.REVIEWED:
                resolution = related.resolutions[row[0]]
                yield _record(
                    row, from_resolution(steps, resolution, positive=positive), project.pk
                )
                continue
            if not filters.label_source.uses_annotations:
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
