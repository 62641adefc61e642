"""Uploaded predictions: a team's own model's step labels stored as Suggestions.

`predictions_upload` reads an upload (labeling.importers.predictions: JSON Lines or a JSON
array, streamed) in batches, and for each batch looks up its solutions by external id and
their steps (two queries), then writes every step's label with one multi-row upsert
(labeling.pg.rows_insert, the importer's SUGGESTION_COLUMNS): source "prediction", agent
"name@version", evidence naming the file, line and upload time. The unique (step, source,
agent) makes it idempotent: the same upload again updates in place. A solution's prediction is
the whole of that source's say on it: a step it no longer predicts loses the old label.

The whole upload is one transaction: an unknown id, a step index past the solution's steps,
the same solution twice for one source, or any bad line raises ImportFileError naming the line
(or array item) and field, and nothing is written.
"""

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import IO

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from labeling.importers.errors import ImportFileError
from labeling.importers.predictions import PredictionLine, read_predictions
from labeling.models import Project, Solution, Step, Suggestion, SuggestionSource
from labeling.pg.opaque import opaque_id
from labeling.pg.rows_insert import insert_rows, json_value, time_value
from labeling.services.imports.tables import SUGGESTION_COLUMNS
from labeling.services.projects.metrics_version import metrics_version_bump_of_solutions

PREDICTION = SuggestionSource.PREDICTION.value
BATCH_LINES = 1000
BATCH_STEPS = 10_000  # step rows a batch writes at most (its IN lists stay well bounded)


@dataclass
class PredictionsResult:
    solutions: int = 0  # solutions given a prediction
    steps_written: int = 0  # step labels stored (new and updated)
    steps_created: int = 0
    steps_updated: int = 0
    steps_removed: int = 0  # old labels of a source on steps its new prediction leaves out
    sources: list[str] = field(default_factory=list)  # name@version, in the order first seen

    def as_dict(self) -> dict:
        return {
            "solutions": self.solutions,
            "steps_written": self.steps_written,
            "steps_created": self.steps_created,
            "steps_updated": self.steps_updated,
            "steps_removed": self.steps_removed,
            "sources": self.sources,
        }


def predictions_upload(
    *,
    project: Project,
    source: IO[bytes],
    filename: str,
    kind: str = "jsonl",
    name: str = "",
    version: str = "",
    max_bytes: int | None = None,
) -> PredictionsResult:
    """Store an upload's predictions on the project's solutions; all or nothing."""
    lines = read_predictions(
        source,
        filename=filename,
        kind=kind,
        name=name,
        version=version,
        max_lines=settings.PREDICTIONS_MAX_LINES,
        max_bytes=max_bytes if max_bytes is not None else settings.PREDICTIONS_MAX_BYTES,
        max_steps=settings.PREDICTIONS_MAX_STEPS,
    )
    writer = _Writer(project, filename)
    with transaction.atomic():
        for batch in _batches(lines):
            writer.write(batch)
        # Suggestions only (auto_sources), no label: the solutions given one, logged.
        metrics_version_bump_of_solutions(
            project_id=project.pk, solution_ids={pk for pk, _ in writer.seen}
        )
    return writer.result


def _batches(lines: Iterable[PredictionLine]) -> Iterator[list[PredictionLine]]:
    batch: list[PredictionLine] = []
    steps = 0
    for line in lines:
        batch.append(line)
        steps += len(line.prediction.steps)
        if len(batch) >= BATCH_LINES or steps >= BATCH_STEPS:
            yield batch
            batch, steps = [], 0
    if batch:
        yield batch


class _Writer:
    def __init__(self, project: Project, filename: str) -> None:
        self.project = project
        self.filename = filename
        self.result = PredictionsResult()
        self.now = timezone.now()
        self.seen: dict[tuple[int, str], str] = {}  # (solution, agent) -> where it came first
        self._sources: dict[str, None] = {}

    def _error(self, line: PredictionLine, field: str, message: str) -> ImportFileError:
        at = f"{line.at}.{field}" if line.at else field
        return ImportFileError(file=self.filename, line=line.line, field=at, message=message)

    def _solutions(self, batch: list[PredictionLine]) -> dict[str, int]:
        ids = list({line.external_id for line in batch})
        rows = Solution.objects.filter(project_id=opaque_id(self.project.pk), external_id__in=ids)
        found = dict(rows.values_list("external_id", "pk"))
        for line in batch:
            if line.external_id not in found:
                raise self._error(
                    line,
                    "id",
                    f"no solution with id {line.external_id[:120]!r} in this project "
                    "(the `id` its import file gave it)",
                )
        return found

    def write(self, batch: list[PredictionLine]) -> None:
        solution_of = self._solutions(batch)
        step_ids: dict[int, dict[int, int]] = {pk: {} for pk in solution_of.values()}
        for solution_id, index, pk in Step.objects.filter(
            solution_id__in=list(step_ids)
        ).values_list("solution_id", "index", "pk"):
            step_ids[solution_id][index] = pk
        now = time_value(self.now)
        rows: list[tuple] = []
        kept: dict[str, dict[int, list[int]]] = {}  # agent -> solution -> its written steps
        for line in batch:
            solution_id = solution_of[line.external_id]
            agent = line.prediction.agent
            if (first := self.seen.get((solution_id, agent))) is not None:
                raise self._error(
                    line,
                    "id",
                    f"solution {line.external_id[:120]!r} is given twice for {agent} "
                    f"(first at {first})",
                )
            self.seen[solution_id, agent] = f"line {line.line}" if line.line else f"item {line.at}"
            self._sources.setdefault(agent, None)
            steps = step_ids[solution_id]
            evidence = json_value(
                {"upload": self.filename, "line": line.line or line.at, "at": self.now.isoformat()}
            )
            written = kept.setdefault(agent, {}).setdefault(solution_id, [])
            for index, value, score in line.prediction.steps:
                if index not in steps:
                    raise self._error(
                        line,
                        "steps" if line.prediction.sparse else "labels",
                        f"step {index} is past the solution's {len(steps)} steps "
                        "(indices are 0-based)",
                    )
                rows.append((steps[index], PREDICTION, agent, value, score, evidence, now, now))
                written.append(steps[index])
        self._count(rows, kept)
        insert_rows(
            Suggestion._meta.db_table,
            SUGGESTION_COLUMNS,
            rows,
            conflict=("step_id", "source", "agent"),
            update=("value", "score", "evidence", "updated_at"),
        )
        self.result.solutions += len(batch)
        self.result.steps_written += len(rows)
        self.result.sources = list(self._sources)

    def _count(self, rows: list[tuple], kept: dict[str, dict[int, list[int]]]) -> None:
        """How many rows update an existing label; and delete the labels a source's new
        prediction leaves out on a solution it predicts again."""
        existing = Suggestion.objects.filter(source=PREDICTION)
        present = set(
            existing.filter(step_id__in=[row[0] for row in rows], agent__in=list(kept)).values_list(
                "step_id", "agent"
            )
        )
        updated = sum((row[0], row[2]) in present for row in rows)
        self.result.steps_updated += updated
        self.result.steps_created += len(rows) - updated
        # The stale rows are found here, not by NOT IN (the new steps) in SQL: PostgreSQL checks
        # such a list row by row, which made a 5,000-solution upload take minutes.
        for agent, solutions in kept.items():
            written = {pk for steps in solutions.values() for pk in steps}
            rows_of_agent = existing.filter(agent=agent, step__solution_id__in=list(solutions))
            stale = [
                pk
                for pk, step_id in rows_of_agent.values_list("id", "step_id")
                if step_id not in written
            ]
            if stale:
                removed, _ = Suggestion.objects.filter(pk__in=stale).delete()
                self.result.steps_removed += removed
