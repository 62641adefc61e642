"""Before an export: how many solutions the label source and filters take, and, for the final
source, where their labels come from and what is left out and why (`export_preview`).

The same reads as the export (source.solution_records), over at most PREVIEW_LIMIT solutions
(one chunk) so the answer comes in a request's time: `partial` says when the counts by origin
cover only the first PREVIEW_LIMIT of them. The labeled and unlabeled totals are exact counts.
"""

from contextlib import closing
from dataclasses import dataclass
from typing import Any

from labeling.models import Project

from .final import NO_LABEL, FinalTally
from .options import ExportOptions, LabelSource
from .selection import candidate_solutions, matching_solutions
from .source import solution_records

PREVIEW_LIMIT = 5000


@dataclass(frozen=True)
class ExportPreview:
    label_source: str
    solutions_labeled: int  # solutions with at least one label the source and filters take
    solutions_unlabeled: int  # the filters' other solutions: nothing to export
    solutions_read: int  # of solutions_labeled, those the counts by origin cover
    partial: bool
    final_labels: dict[str, Any] | None  # FinalTally.as_dict(); None for the other sources


def export_preview(
    *, project: Project, options: ExportOptions, limit: int = PREVIEW_LIMIT
) -> ExportPreview:
    filters = options.filters
    labeled = matching_solutions(project=project, filters=filters).count()
    unlabeled = candidate_solutions(project=project, filters=filters).count() - labeled
    read, tally = 0, None
    if filters.label_source == LabelSource.FINAL:
        tally = FinalTally()
        records = solution_records(
            project=project, options=options, chunk_size=min(limit, 5000), tally=tally
        )
        with closing(records):
            for _ in records:
                read += 1
                if read >= limit:
                    break
        tally.solutions[NO_LABEL] += max(unlabeled, 0)
    return ExportPreview(
        label_source=filters.label_source.value,
        solutions_labeled=labeled,
        solutions_unlabeled=max(unlabeled, 0),
        solutions_read=read,
        partial=tally is not None and read < labeled,
        final_labels=tally.as_dict() if tally is not None else None,
    )
