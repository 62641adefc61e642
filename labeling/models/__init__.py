from .annotation import Annotation, AnnotationStatus, FinishReason, StepLabel
from .assignment import Assignment
from .data import STEP_ALTERNATIVE_COLUMNS, Problem, Solution, Step, StepAlternative
from .exports import Export, ExportFileType, ExportFormat, ExportStatus
from .imports import ImportJob, ImportStatus
from .project import (
    DOMAIN_SOURCES,
    Domain,
    LabelScale,
    Project,
    ProjectMembership,
    Role,
    Screening,
    StepSplit,
)
from .queue import TaskLock
from .review import (
    Comment,
    GoldLabel,
    LabelAction,
    LabelHistory,
    MetricsSnapshot,
    Provenance,
    Resolution,
    ResolutionLabel,
    ReviewAction,
    ReviewActionKind,
)
from .suggestion import Suggestion, SuggestionSource
from .tokens import ApiToken

__all__ = [
    "ApiToken",
    "DOMAIN_SOURCES",
    "Domain",
    "Annotation",
    "Assignment",
    "AnnotationStatus",
    "Comment",
    "Export",
    "ExportFileType",
    "ExportFormat",
    "ExportStatus",
    "FinishReason",
    "GoldLabel",
    "ImportJob",
    "ImportStatus",
    "LabelAction",
    "LabelHistory",
    "LabelScale",
    "MetricsSnapshot",
    "Problem",
    "Project",
    "ProjectMembership",
    "Provenance",
    "Resolution",
    "ResolutionLabel",
    "ReviewAction",
    "ReviewActionKind",
    "Role",
    "STEP_ALTERNATIVE_COLUMNS",
    "Screening",
    "Solution",
    "Step",
    "StepAlternative",
    "StepLabel",
    "StepSplit",
    "Suggestion",
    "SuggestionSource",
    "TaskLock",
]
