"""Building a batch's rows: `BatchWriter.reserve` looks up which of the batch's problems and
solutions the project already has and allocates ids for every row to write (all its
queries); `build` turns the new ones into each table's rows (pure Python); `written` runs
what follows the batch's write. Re-importing is a no-op because of these lookups."""

import json
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any

from django.db import connection
from django.db.models import Model
from django.utils import timezone

from labeling.importers import (
    ImportFileError,
    ParsedProblem,
    ParsedRow,
    ParsedSolution,
    ParsedStep,
)
from labeling.models import (
    Annotation,
    AnnotationStatus,
    Problem,
    Project,
    Solution,
    Step,
    StepAlternative,
    StepLabel,
    Suggestion,
    SuggestionSource,
)
from labeling.pg.arrays import text_array
from labeling.pg.opaque import external_ids_found
from labeling.services.media.images import media_store_rows
from labeling.services.projects.metrics_version import (
    metrics_version_bump,
    metrics_version_bump_of_solutions,
)
from labeling.services.review.reasons import review_reasons_refresh

from .inserter import Inserter
from .tables import (
    ALTERNATIVE_COLUMNS,
    ANNOTATION_COLUMNS,
    PROBLEM_COLUMNS,
    SOLUTION_COLUMNS,
    STEP_COLUMNS,
    STEP_LABEL_COLUMNS,
    SUGGESTION_COLUMNS,
    JsonText,
    Write,
)

LOOKUP_CHUNK = 900  # ids per `IN (...)` lookup; below SQLite's old 999-variable limit


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
    predictions_created: int = 0  # Suggestion rows of the rows' `predictions` (source prediction)
    # Near-duplicate problems: counts, examples and what was done (near_dups.py report).
    near_duplicates: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


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
class Reserved:
    """A batch after its lookups: its new rows, with ids allocated for every row to write."""

    now: datetime
    problems: list[tuple[int, ParsedProblem]]
    solutions: list[_NewSolution]
    ids: dict[type[Model], list[int]]  # allocated for the steps and the rows below them


_NO_USES = JsonText("[]")


def _chunks(items: list[str], size: int = LOOKUP_CHUNK) -> Iterator[list[str]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


class BatchWriter:
    """Writes batches of parsed rows in two steps: `reserve` (the batch's two lookups and the
    ids of every row it will write: all its queries) and `build` (its rows, pure Python); then
    `Inserter.write` writes each table's rows (one COPY or INSERT per table per batch)."""

    def __init__(
        self, *, project: Project, labels_as: str, filename: str, import_job_id: int | None = None
    ) -> None:
        self.project = project
        self.import_job_id = import_job_id
        self.labels_as = labels_as
        self.filename = filename
        self.result = ImportResult(format="")
        self.inserter = Inserter()
        self._created_problems: set[int] = set()
        self._existing_problems: set[int] = set()
        # The last reserved batch's new problems and solutions, which may not be written yet
        # when the next batch looks its ids up (the pipelined import writes a batch while the
        # next one is built).
        self._unwritten_problems: dict[str, int] = {}
        self._unwritten_solutions: dict[str, int] = {}  # external id -> its problem's pk
        self._evidence_head: str | None = None

    def reserve(self, rows: list[ParsedRow]) -> Reserved:
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
        predicted = sum(len(p.steps) for new in solutions for p in new.parsed.predictions)
        if self.labels_as == "suggestions":
            counts[Suggestion] = labeled + predicted
        elif predicted:
            counts[Suggestion] = predicted
        if self.labels_as == "annotations":
            counts[Annotation] = sum(bool(new.parsed.label_count) for new in solutions)
            counts[StepLabel] = labeled
        ids = {model: self.inserter.allocate(model, n) for model, n in counts.items()}
        self._unwritten_problems = {p.external_id: pk for pk, p in problems}
        self._unwritten_solutions = {new.parsed.external_id: new.problem_pk for new in solutions}
        return Reserved(now=now, problems=problems, solutions=solutions, ids=ids)

    def build(self, batch: Reserved) -> list[Write]:
        writes = [self._problem_rows(batch), self._solution_rows(batch)]
        steps, step_write = self._steps(batch)
        writes += [step_write, self._alternatives(batch, steps)]
        if Suggestion in batch.ids:  # the file's labels as suggestions, or predictions
            writes.append(self._suggestions(batch, steps))
        if self.labels_as == "annotations":
            writes += self._annotations(batch, steps)
        return writes

    def written(self, batch: Reserved) -> None:
        """After the batch's rows are written (on this thread's connection)."""
        # New solutions (the metrics' coverage counts them), labels, suggestions: the import's
        # transaction moves the project's metrics version, the batch's solutions logged (the
        # next refresh recomputes their parts only; past METRICS_PARTS_MAX_SOLUTIONS, all).
        if batch.solutions:
            metrics_version_bump_of_solutions(
                project_id=self.project.pk, solution_ids=[s.pk for s in batch.solutions]
            )
        else:
            metrics_version_bump(project_id=self.project.pk)
        if self.labels_as == "annotations" and batch.solutions:
            # Imported annotations count as submitted. Suggestions alone give no reason: every
            # reason is about submitted labels (a suggestion can refute one), and the batch's
            # new solutions have none, so their stored 0 is already right.
            ids = [s.pk for s in batch.solutions]
            review_reasons_refresh(project=self.project, id_range=(min(ids), max(ids)))

    def _existing(
        self, model: type[Model], external_ids: list[str], column: str = "id"
    ) -> dict[str, int]:
        """{external id: the row's `column`} for the ids some row of the project has."""
        if connection.vendor == "postgresql":  # one probe of the unique index per id
            table = connection.ops.quote_name(model._meta.db_table)
            found = external_ids_found(table, self.project.pk, text_array(external_ids), column)
            return dict(found)
        found: dict[str, int] = {}
        for chunk in _chunks(external_ids):
            found.update(
                model._default_manager.filter(
                    project=self.project, external_id__in=chunk
                ).values_list("external_id", column)
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
        # A solution id already taken is skipped (a file imported again adds nothing) when it
        # is taken by a solution of the same problem; by another problem's, it is an error:
        # skipping it left the row's problem without its solution (issue 24).
        taken = self._existing(Solution, [s.external_id for _, s in parsed], "problem_id")
        taken.update(self._unwritten_solutions)
        lines: dict[str, int] = {}
        new: list[tuple[ParsedRow, ParsedSolution]] = []
        for row, s in parsed:
            problem_pk = problem_pks[row.problem.external_id]
            other = taken.get(s.external_id)
            if other is None:
                taken[s.external_id] = problem_pk
                lines[s.external_id] = row.line
                new.append((row, s))
                continue
            if other != problem_pk:
                first = lines.get(s.external_id)
                where = f"line {first} of this file" if first else "an earlier line or import"
                raise ImportFileError(
                    file=self.filename,
                    line=row.line,
                    field="id",
                    message=f"solution id {s.external_id!r} is already used by a solution of "
                    f"another problem ({where}); solution ids must be unique in a project",
                )
            self.result.solutions_skipped += 1
        ids = self.inserter.allocate(Solution, len(new))
        self.result.solutions_created += len(new)
        return [
            _NewSolution(pk, s, row.line, problem_pks[row.problem.external_id])
            for pk, (row, s) in zip(ids, new, strict=True)
        ]

    def _problem_rows(self, batch: Reserved) -> Write:
        return Write(
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
                    p.domain,
                    "",
                )
                for _, p in batch.problems
            ],
        )

    def _solution_rows(self, batch: Reserved) -> Write:
        now = batch.now
        annotated = self.labels_as == "annotations"  # a labeled row gets a submitted annotation
        return Write(
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
                    self.import_job_id,
                    0,
                    annotated and bool(new.parsed.label_count),
                )
                for new in batch.solutions
            ],
        )

    def _steps(self, batch: Reserved) -> tuple[list[_NewStep], Write]:
        pairs = [
            (new, index, step)
            for new in batch.solutions
            for index, step in enumerate(new.parsed.steps)
        ]
        ids = batch.ids[Step]
        rows = [
            (
                new.pk,
                index,
                step.text,
                step.metadata,
                # `uses` (indices, ints: checked at parse) as json.dumps writes the list.
                JsonText(f"[{', '.join(map(str, step.uses))}]") if step.uses else _NO_USES,
                step.uses_source,
                step.thinking,
            )
            for new, index, step in pairs
        ]
        self.result.steps_created += len(pairs)
        steps = [
            _NewStep(pk, new.pk, step, new.parsed, new.line)
            for pk, (new, _, step) in zip(ids, pairs, strict=True)
        ]
        return steps, Write(Step, STEP_COLUMNS, ids, rows)

    def _alternatives(self, batch: Reserved, steps: list[_NewStep]) -> Write:
        rows = [
            (s.pk, a.position, a.text, a.rating, a.flagged, a.is_chosen, a.is_human, a.metadata)
            for s in steps
            for a in s.parsed.alternatives
        ]
        self.result.alternatives_created += len(rows)
        return Write(StepAlternative, ALTERNATIVE_COLUMNS, batch.ids[StepAlternative], rows)

    def _suggestions(self, batch: Reserved, steps: list[_NewStep]) -> Write:
        now = batch.now
        evidence: dict[int, JsonText] = {}  # one per line, shared by its steps
        rows = [
            (
                s.pk,
                SuggestionSource.IMPORT.value,
                s.solution.label_agent,
                s.parsed.label,
                None,
                evidence.get(s.line) or evidence.setdefault(s.line, self._evidence(s.line)),
                now,
                now,
            )
            for s in steps
            if s.parsed.label is not None and self.labels_as == "suggestions"
        ]
        self.result.labels_created += len(rows)
        predicted = self._predictions(batch, steps)
        self.result.predictions_created += len(predicted)
        return Write(Suggestion, SUGGESTION_COLUMNS, batch.ids[Suggestion], rows + predicted)

    def _evidence(self, line: int) -> JsonText:
        """A suggestion's evidence, {"file": ..., "line": ...}, as json.dumps writes it."""
        if self._evidence_head is None:
            self._evidence_head = f'{{"file": {json.dumps(self.filename)}, "line": '
        return JsonText(f"{self._evidence_head}{line:d}}}")

    def _predictions(self, batch: Reserved, steps: list[_NewStep]) -> list[tuple]:
        """The rows' `predictions` (labeling.importers.predictions), on the new steps."""
        step_pks: dict[int, list[int]] = {}
        for s in steps:
            step_pks.setdefault(s.solution_pk, []).append(s.pk)
        rows = []
        for new in batch.solutions:
            for prediction in new.parsed.predictions:
                evidence = self._evidence(new.line)
                rows += [
                    (
                        step_pks[new.pk][index],
                        SuggestionSource.PREDICTION.value,
                        prediction.agent,
                        value,
                        score,
                        evidence,
                        batch.now,
                        batch.now,
                    )
                    for index, value, score in prediction.steps
                ]
        return rows

    def _annotations(self, batch: Reserved, steps: list[_NewStep]) -> list[Write]:
        # Solution.submitted_count is left alone: imported labels are not part of the human
        # queue's overlap (the queue counts annotations by annotators only).
        now = batch.now
        labeled = [new for new in batch.solutions if new.parsed.label_count]
        ids = batch.ids[Annotation]
        annotations = Write(
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
            # uses None: the file's dependencies are the step's (Step.uses), not this labeler's.
            (annotation_of[s.solution_pk], s.pk, s.parsed.label, False, "", "", None)
            for s in steps
            if s.parsed.label is not None
        ]
        self.result.annotations_created += len(labeled)
        self.result.labels_created += len(rows)
        return [annotations, Write(StepLabel, STEP_LABEL_COLUMNS, batch.ids[StepLabel], rows)]
