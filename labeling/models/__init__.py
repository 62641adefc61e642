from .annotation import Annotation, AnnotationStatus, FinishReason, StepLabel
from .data import Problem, Solution, Step, StepAlternative
from .exports import Export, ExportFileType, ExportFormat, ExportStatus
from .imports import ImportJob, ImportStatus
from .project import LabelScale, Project, ProjectMembership, Role, StepSplit
from .queue import TaskLock
from .suggestion import Suggestion, SuggestionSource

__all__ = [
    "Annotation",
    "AnnotationStatus",
    "Export",
    "ExportFileType",
    "ExportFormat",
    "ExportStatus",
    "FinishReason",
    "ImportJob",
    "ImportStatus",
    "LabelScale",
    "Problem",
    "Project",
    "ProjectMembership",
    "Role",
    "Solution",
    "Step",
    "StepAlternative",
    "StepLabel",
    "StepSplit",
    "Suggestion",
    "SuggestionSource",
    "TaskLock",
]
