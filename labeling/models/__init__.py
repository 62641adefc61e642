from .annotation import Annotation, AnnotationStatus, FinishReason, StepLabel
from .assignment import Assignment
from .data import (
    EXTRA_OVERLAP_MAX,
    STEP_ALTERNATIVE_COLUMNS,
    Problem,
    Solution,
    Step,
    StepAlternative,
)
from .exports import Export, ExportFileType, ExportFormat, ExportStatus, HubPush
from .imports import ImportJob, ImportStatus
from .outbox import OutboxMessage
from .people import Invite, TemporaryPassword
from .project import (
    DOMAIN_SOURCES,
    PROBLEM_DOMAINS,
    STEP_TAG_MAX,
    STEP_TAG_PRESETS,
    Domain,
    LabelScale,
    Project,
    ProjectMembership,
    Role,
    Screening,
    StepSplit,
    problem_domain,
    sources_for_problem,
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
from .signatures import ProblemSignature
from .suggestion import Suggestion, SuggestionSource
from .tokens import ApiToken
from .webhooks import DeliveryStatus, WebhookDelivery, WebhookEndpoint

__all__ = [
    "DeliveryStatus",
    "WebhookDelivery",
    "WebhookEndpoint",
    "OutboxMessage",
    "ApiToken",
    "DOMAIN_SOURCES",
    "EXTRA_OVERLAP_MAX",
    "PROBLEM_DOMAINS",
    "problem_domain",
    "sources_for_problem",
    "Domain",
    "Annotation",
    "Assignment",
    "AnnotationStatus",
    "Comment",
    "Export",
    "ExportFileType",
    "ExportFormat",
    "ExportStatus",
    "HubPush",
    "FinishReason",
    "GoldLabel",
    "ImportJob",
    "ProblemSignature",
    "Invite",
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
    "STEP_TAG_MAX",
    "STEP_TAG_PRESETS",
    "Suggestion",
    "SuggestionSource",
    "TaskLock",
    "TemporaryPassword",
]
