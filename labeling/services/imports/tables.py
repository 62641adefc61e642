"""What an import writes: every column of each table it fills, and one table's rows of a
batch (`Write`), as the batch writer builds them and the inserter writes them."""

from dataclasses import dataclass

from django.db.models import Model

from labeling.models import (
    STEP_ALTERNATIVE_COLUMNS,
    Annotation,
    Problem,
    Solution,
    Step,
    StepAlternative,
    StepLabel,
    Suggestion,
)

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
    "domain",
    "near_cluster",  # "": set after the import's rows are written (imports/near_keys.py)
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
    "import_job_id",  # the ImportJob of an uploaded file, else null
    "extra_overlap",  # 0: a new solution wants its project's overlap, no more
    "has_submission",  # its imported annotation, if any (the batch's refresh stores the same)
)
STEP_COLUMNS = ("solution_id", "index", "text", "metadata", "uses", "uses_source", "thinking")
ALTERNATIVE_COLUMNS = STEP_ALTERNATIVE_COLUMNS  # shared with the exporter
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
STEP_LABEL_COLUMNS = (
    "annotation_id",
    "step_id",
    "rating",
    "unsure",
    "comment",
    "alternative_text",
    "uses",
)
TABLES: dict[type[Model], tuple[str, ...]] = {
    Problem: PROBLEM_COLUMNS,
    Solution: SOLUTION_COLUMNS,
    Step: STEP_COLUMNS,
    StepAlternative: ALTERNATIVE_COLUMNS,
    Suggestion: SUGGESTION_COLUMNS,
    Annotation: ANNOTATION_COLUMNS,
    StepLabel: STEP_LABEL_COLUMNS,
}


@dataclass
class Write:
    """One table's rows of a batch, ids included, ready to be written."""

    model: type[Model]
    columns: tuple[str, ...]
    ids: list[int]
    rows: list[tuple]


class JsonText(str):
    """A JSON column's value already written as JSON, exactly as json.dumps writes it: the
    batch writer writes a few shapes it knows (a step's `uses`, a suggestion's evidence) for
    less than json.dumps costs per row; `_adapt` passes them through and the bulk_create
    fallback reads them back."""
