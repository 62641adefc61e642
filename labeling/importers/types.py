"""What a parser yields for one line of a file: plain data, no database."""

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any


@dataclass(slots=True)
class ParsedAlternative:
    """One candidate at a step position (PRM800K completions and human completion)."""

    text: str
    position: int
    rating: int | None = None
    flagged: bool | None = None
    is_chosen: bool = False
    is_human: bool = False
    metadata: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class ParsedStep:
    text: str
    label: int | None = None  # the dataset's −1 / 0 / +1 for this step; None = unlabeled
    alternatives: list[ParsedAlternative] = field(default_factory=list)
    metadata: dict[str, Any] = field(default_factory=dict)
    # The earlier steps (0-based) this one uses; None = the file did not say (the import
    # then runs the detector: labeling.importers.dependencies).
    uses: list[int] | None = None
    uses_source: str = ""  # "import" (the file's) or "detected"; "" = none
    thinking: bool = False  # a step of the reasoning trace (`<think>` block): Step.thinking


@dataclass(slots=True)
class ParsedPrediction:
    """One source's labels for one solution: (step index, value, score) per predicted step."""

    name: str
    version: str
    steps: list[tuple[int, int | None, float | None]] = field(default_factory=list)
    sparse: bool = False  # given as `steps` with indices (else positional `labels`/`scores`)

    @property
    def agent(self) -> str:
        """The Suggestion's agent: name@version (the unique step/source/agent makes it
        idempotent)."""
        return f"{self.name}@{self.version}"

    @property
    def last_index(self) -> int:
        return max((index for index, _, _ in self.steps), default=-1)


@dataclass(slots=True)
class ParsedSolution:
    external_id: str
    steps: list[ParsedStep]
    generator: str = ""
    final_answer: str = ""
    answer_correct: bool | None = None
    source: str = ""
    metadata: dict[str, Any] = field(default_factory=dict)
    # Who gave the step labels: a Suggestion's agent, an imported Annotation's annotator.
    label_agent: str = ""
    label_annotator: str = ""
    finish_reason: str = ""  # a labeling.models.FinishReason value, or ""
    time_spent_ms: int = 0
    labeled_at: datetime | None = None
    # A team's model's step labels carried by the row (steplab's `predictions`): stored as
    # Suggestions of source "prediction", agent name@version (labeling.importers.predictions).
    predictions: list[ParsedPrediction] = field(default_factory=list)

    @property
    def label_count(self) -> int:
        return sum(step.label is not None for step in self.steps)


@dataclass(slots=True)
class ParsedProblem:
    text: str
    external_id: str
    answer: str = ""
    reference_solution: str = ""
    source: str = ""
    metadata: dict[str, Any] = field(default_factory=dict)
    domain: str = ""  # the row's own domain (steplab's `domain`), settled by domains.settle


@dataclass(slots=True)
class ParsedRow:
    """One line of the file: a problem and the solutions it carries (zero or more)."""

    line: int
    problem: ParsedProblem
    solutions: list[ParsedSolution] = field(default_factory=list)
    # Image bytes decoded from data: URIs, by media name (labeling/importers/images.py).
    media: dict[str, bytes] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ParseOptions:
    """Project settings a parser needs: how to split a solution given as one string, and
    which domain a row may name (labeling/importers/domains.py)."""

    step_split: str = "line"
    step_split_regex: str = ""
    step_split_tag: str = ""  # the `step_tags` rule's tag
    project_domain: str = ""  # "" : rows are not checked (a parser's own tests)
    domain: str = ""  # the domain of rows that name none (an import option)
    domains: tuple[str, ...] = ()  # the domains a problem may have
    # Run the step-reference detector on solutions whose line gives no `uses`
    # (labeling/importers/dependencies.py; about 45 µs a step).
    detect_uses: bool = True
