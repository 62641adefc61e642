"""What the exporter's reader yields for one output unit: plain data, no database.

A SolutionRecord is one solution with every step and the label resolved for each step from
the chosen label source (labeling.exporters.labels); the format modules turn records into
rows. With `combine=per_annotation` one solution gives one record per annotation.
"""

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

# What of a step's metadata an export can read (embodied episodes' signals).
STEP_RECORD_META = ("kind", "success", "timestamp", "preconditions", "effects")


@dataclass(slots=True)
class AlternativeRecord:
    """A candidate step at one position (StepAlternative), as imported."""

    position: int
    text: str
    rating: int | None
    flagged: bool | None
    is_chosen: bool
    is_human: bool
    metadata: dict[str, Any]


@dataclass(slots=True)
class StepRecord:
    index: int
    text: str
    rating: int | None = None  # the resolved −1 / 0 / +1; None = unlabeled
    unsure: bool = False
    soft: float | None = None  # P(step is good): MC fraction, else share of positive votes
    source: str = ""  # where the label came from: "human", "imported", "rollout:agent", ...
    human_written: bool = False  # the labeler wrote this step (PRM800K human_completion)
    alternatives: Sequence[AlternativeRecord] = field(default_factory=list)
    images: Sequence[str] = field(default_factory=list)  # references (see image_refs)
    # Step.metadata's STEP_RECORD_META keys, read only for a format with needs_step_meta.
    meta: dict[str, Any] | None = None
    # The earlier steps (0-based indices) it uses: an annotator's marks, else the step's own
    # (imported or detected); read only when the export asks for dependencies.
    uses: Sequence[int] = ()
    # dependency_policy=inherit made it -1 because it uses a -1 step (labeling.exporters.
    # dependencies.inherit_errors).
    inherited: bool = False
    # What an evidence-cited step cites: {doc, quote} | {doc, start, end} | {table, row, column}.
    citations: Sequence[dict[str, Any]] = field(default_factory=list)
    # A step of the model's reasoning trace (`<think>` block, Step.thinking).
    thinking: bool = False


@dataclass(slots=True)
class StepColumns:
    """A row's written steps as columns, for a format that writes only their texts and
    training labels (labeling.exporters.columnar): no object a step."""

    texts: list[str]  # the labeled prefix's step texts
    labels: list[bool]  # their training labels
    ratings: list[int | None]  # their ratings (None: a step its labeler wrote, unrated)
    source: str  # the label source of the rated ones ("imported", "human")
    unsure: bool  # a step of the solution (written or not) is unsure


@dataclass(slots=True)
class SolutionRecord:
    solution_id: int
    problem_key: str  # the problem's external id, else a hash of its text: stable across DBs
    problem_text: str
    problem_answer: str
    problem_reference: str
    problem_source: str
    external_id: str
    generator: str
    final_answer: str
    answer_correct: bool | None
    source: str
    metadata: dict[str, Any]
    steps: list[StepRecord]
    agreement: float | None = None  # mean per-step share of raters agreeing with the label
    labeler: str = ""  # annotator, external annotator, "majority" or suggestion agent
    labeled_at: datetime | None = None  # latest label time of the contributing labels
    time_spent_ms: int | None = None
    finish_reason: str = ""
    # The labels are exactly those imported with the dataset, so dataset-specific metadata
    # (PRM800K labeler, timestamp, total time) still describes them.
    from_import: bool = False
    annotations: int = 0  # how many annotations contributed
    problem_images: list[str] = field(default_factory=list)  # references (image_refs)
    # An evidence-cited problem's sources: [{id, title, text}], [{id, title, columns, rows}].
    problem_documents: list[dict[str, Any]] = field(default_factory=list)
    problem_tables: list[dict[str, Any]] = field(default_factory=list)
    domain: str = ""  # the problem's own domain; "" = the project's (Format.domain)
    # Its near-duplicate cluster's name (Problem.near_cluster); "" = a cluster of its own. The
    # split is decided by it, else by problem_key (services/exports.py).
    cluster_key: str = ""
    # Set instead of `steps` (left empty) where the format takes its rows from columns.
    columns: StepColumns | None = None


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
