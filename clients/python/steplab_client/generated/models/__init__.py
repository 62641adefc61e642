"""Contains all the data models used in inputs/outputs"""

from .accept_input_request import AcceptInputRequest
from .adjudicate_input_request import AdjudicateInputRequest
from .adjudicated_label_request import AdjudicatedLabelRequest
from .annotation_output import AnnotationOutput
from .api_token_created_output import ApiTokenCreatedOutput
from .api_token_output import ApiTokenOutput
from .assignment_preview import AssignmentPreview
from .assignment_preview_new import AssignmentPreviewNew
from .assignment_summary_output import AssignmentSummaryOutput
from .benchmark_set_input_request import BenchmarkSetInputRequest
from .blank_enum import BlankEnum
from .combine_enum import CombineEnum
from .comment_create_input_request import CommentCreateInputRequest
from .comment_output import CommentOutput
from .create_input_request import CreateInputRequest
from .create_output import CreateOutput
from .create_output_created import CreateOutputCreated
from .created_invite_output import CreatedInviteOutput
from .created_user_output import CreatedUserOutput
from .credentials_request import CredentialsRequest
from .dependency_policy_enum import DependencyPolicyEnum
from .domain_enum import DomainEnum
from .draft_input_request import DraftInputRequest
from .engine_output import EngineOutput
from .engine_param_output import EngineParamOutput
from .engine_param_type_enum import EngineParamTypeEnum
from .error import Error
from .error_error import ErrorError
from .error_group import ErrorGroup
from .events_enum import EventsEnum
from .explorer_answer_enum import ExplorerAnswerEnum
from .explorer_bulk_action_enum import ExplorerBulkActionEnum
from .explorer_bulk_input_request import ExplorerBulkInputRequest
from .explorer_bulk_result import ExplorerBulkResult
from .explorer_bulk_result_skipped import ExplorerBulkResultSkipped
from .explorer_filter_input_request import ExplorerFilterInputRequest
from .explorer_label_state_enum import ExplorerLabelStateEnum
from .explorer_list_answer import ExplorerListAnswer
from .explorer_list_sort import ExplorerListSort
from .explorer_list_state import ExplorerListState
from .explorer_list_status import ExplorerListStatus
from .explorer_list_verdict import ExplorerListVerdict
from .explorer_page import ExplorerPage
from .explorer_queue_status_enum import ExplorerQueueStatusEnum
from .explorer_row import ExplorerRow
from .explorer_sort_enum import ExplorerSortEnum
from .explorer_verdict_enum import ExplorerVerdictEnum
from .export_format_enum import ExportFormatEnum
from .export_input_file_type_enum import ExportInputFileTypeEnum
from .export_input_request import ExportInputRequest
from .export_output import ExportOutput
from .export_output_file_type_enum import ExportOutputFileTypeEnum
from .export_preview_input_request import ExportPreviewInputRequest
from .export_preview_output import ExportPreviewOutput
from .export_progress_output import ExportProgressOutput
from .export_user_output import ExportUserOutput
from .exports_list_export_format import ExportsListExportFormat
from .exports_list_status import ExportsListStatus
from .feedback_output import FeedbackOutput
from .filters_input_request import FiltersInputRequest
from .final_counts_output import FinalCountsOutput
from .final_labels_output import FinalLabelsOutput
from .finish_reason_enum import FinishReasonEnum
from .gold_annotator_output import GoldAnnotatorOutput
from .gold_input_request import GoldInputRequest
from .gold_output import GoldOutput
from .gold_row import GoldRow
from .history_output import HistoryOutput
from .hub_push_input_request import HubPushInputRequest
from .hub_push_output import HubPushOutput
from .hub_token_input_request import HubTokenInputRequest
from .hub_token_output import HubTokenOutput
from .import_input_format_enum import ImportInputFormatEnum
from .import_input_request import ImportInputRequest
from .import_job_output import ImportJobOutput
from .input_request import InputRequest
from .invite_accept_input_request import InviteAcceptInputRequest
from .invite_accept_output import InviteAcceptOutput
from .invite_accept_output_user import InviteAcceptOutputUser
from .invite_list_input_request import InviteListInputRequest
from .invite_output import InviteOutput
from .invite_public_output import InvitePublicOutput
from .issued_password_output import IssuedPasswordOutput
from .job_status_enum import JobStatusEnum
from .kind_enum import KindEnum
from .label_input import LabelInput
from .label_input_request import LabelInputRequest
from .label_policy_input_request import LabelPolicyInputRequest
from .label_scale_enum import LabelScaleEnum
from .label_source_enum import LabelSourceEnum
from .labels_as_enum import LabelsAsEnum
from .machine_source_output import MachineSourceOutput
from .media_output import MediaOutput
from .member_input_request import MemberInputRequest
from .member_output import MemberOutput
from .member_output_user import MemberOutputUser
from .metrics_annotator import MetricsAnnotator
from .metrics_computing import MetricsComputing
from .metrics_coverage import MetricsCoverage
from .metrics_review import MetricsReview
from .metrics_review_unresolved import MetricsReviewUnresolved
from .mode_enum import ModeEnum
from .my_work_list_status import MyWorkListStatus
from .my_work_page import MyWorkPage
from .my_work_row_output import MyWorkRowOutput
from .my_work_row_output_status_enum import MyWorkRowOutputStatusEnum
from .near_duplicates_enum import NearDuplicatesEnum
from .neutral_enum import NeutralEnum
from .order_enum import OrderEnum
from .paginated_api_tokens import PaginatedApiTokens
from .paginated_assignment_summary import PaginatedAssignmentSummary
from .paginated_autolabel_runs import PaginatedAutolabelRuns
from .paginated_exports import PaginatedExports
from .paginated_gold_rows import PaginatedGoldRows
from .paginated_import_jobs import PaginatedImportJobs
from .paginated_members import PaginatedMembers
from .paginated_prediction_sources import PaginatedPredictionSources
from .paginated_prm_models import PaginatedPrmModels
from .paginated_problem_sources import PaginatedProblemSources
from .paginated_projects import PaginatedProjects
from .paginated_rejections import PaginatedRejections
from .paginated_solution_rows import PaginatedSolutionRows
from .paginated_training_runs import PaginatedTrainingRuns
from .password_change_input_request import PasswordChangeInputRequest
from .password_reset_confirm_input_request import PasswordResetConfirmInputRequest
from .password_reset_input_request import PasswordResetInputRequest
from .password_token_input_request import PasswordTokenInputRequest
from .patched_member_role_input_request import PatchedMemberRoleInputRequest
from .patched_project_input_request import PatchedProjectInputRequest
from .patched_webhook_endpoint_patch_input_request import PatchedWebhookEndpointPatchInputRequest
from .prediction_source_output import PredictionSourceOutput
from .predictions_result_output import PredictionsResultOutput
from .preview_step_output import PreviewStepOutput
from .prm_model_input_request import PrmModelInputRequest
from .prm_model_input_request_metrics import PrmModelInputRequestMetrics
from .prm_model_output import PrmModelOutput
from .problem_domain_enum import ProblemDomainEnum
from .problem_output import ProblemOutput
from .problem_output_documents_item import ProblemOutputDocumentsItem
from .problem_output_tables_item import ProblemOutputTablesItem
from .problem_source import ProblemSource
from .progress_output import ProgressOutput
from .project_delete_output import ProjectDeleteOutput
from .project_input_request import ProjectInputRequest
from .project_metrics import ProjectMetrics
from .project_output import ProjectOutput
from .project_output_stats import ProjectOutputStats
from .project_user_create_input_request import ProjectUserCreateInputRequest
from .projects_media_create_body import ProjectsMediaCreateBody
from .projects_rejections_list_rework import ProjectsRejectionsListRework
from .projects_review_queue_retrieve_domain import ProjectsReviewQueueRetrieveDomain
from .projects_review_queue_retrieve_reason import ProjectsReviewQueueRetrieveReason
from .projects_review_queue_retrieve_state import ProjectsReviewQueueRetrieveState
from .queue_annotator import QueueAnnotator
from .queue_counts_output import QueueCountsOutput
from .queue_item_output import QueueItemOutput
from .queue_priority import QueuePriority
from .queue_priority_request import QueuePriorityRequest
from .rating_label_request import RatingLabelRequest
from .reject_input_request import RejectInputRequest
from .reject_output import RejectOutput
from .rejection_output import RejectionOutput
from .resolution_label_output import ResolutionLabelOutput
from .resolution_output import ResolutionOutput
from .resubmit_input_request import ResubmitInputRequest
from .review_action_output import ReviewActionOutput
from .review_annotation_output import ReviewAnnotationOutput
from .review_detail_output import ReviewDetailOutput
from .review_problem import ReviewProblem
from .review_problem_documents_item import ReviewProblemDocumentsItem
from .review_problem_tables_item import ReviewProblemTablesItem
from .review_project import ReviewProject
from .review_queue_page import ReviewQueuePage
from .review_solution import ReviewSolution
from .review_step_output import ReviewStepOutput
from .review_suggestion_output import ReviewSuggestionOutput
from .rework_output import ReworkOutput
from .role_enum import RoleEnum
from .run_input_request import RunInputRequest
from .run_input_request_filter import RunInputRequestFilter
from .run_input_request_params import RunInputRequestParams
from .run_output import RunOutput
from .run_status_enum import RunStatusEnum
from .screening_enum import ScreeningEnum
from .skip_input_request import SkipInputRequest
from .solution_output import SolutionOutput
from .solution_row_output import SolutionRowOutput
from .split_policy_input_request import SplitPolicyInputRequest
from .step_label_cell import StepLabelCell
from .step_merge_input_request import StepMergeInputRequest
from .step_output import StepOutput
from .step_preview_input_request import StepPreviewInputRequest
from .step_preview_output import StepPreviewOutput
from .step_split_enum import StepSplitEnum
from .step_split_input_request import StepSplitInputRequest
from .strategy_enum import StrategyEnum
from .submit_input_request import SubmitInputRequest
from .submit_output import SubmitOutput
from .suggestion_output import SuggestionOutput
from .task_output import TaskOutput
from .task_project_output import TaskProjectOutput
from .token_kind_enum import TokenKindEnum
from .token_output import TokenOutput
from .training_run_input_request import TrainingRunInputRequest
from .training_run_input_request_config import TrainingRunInputRequestConfig
from .training_run_output import TrainingRunOutput
from .training_run_summary_output import TrainingRunSummaryOutput
from .training_status_enum import TrainingStatusEnum
from .unsure_enum import UnsureEnum
from .user_list_output import UserListOutput
from .user_output import UserOutput
from .uses_enum import UsesEnum
from .verdict_counts import VerdictCounts
from .webhook_delivery_output import WebhookDeliveryOutput
from .webhook_endpoint_input_request import WebhookEndpointInputRequest
from .webhook_endpoint_output import WebhookEndpointOutput
from .webhook_endpoint_with_secret_output import WebhookEndpointWithSecretOutput
from .webhook_event_output import WebhookEventOutput

__all__ = (
    "AcceptInputRequest",
    "AdjudicateInputRequest",
    "AdjudicatedLabelRequest",
    "AnnotationOutput",
    "ApiTokenCreatedOutput",
    "ApiTokenOutput",
    "AssignmentPreview",
    "AssignmentPreviewNew",
    "AssignmentSummaryOutput",
    "BenchmarkSetInputRequest",
    "BlankEnum",
    "CombineEnum",
    "CommentCreateInputRequest",
    "CommentOutput",
    "CreateInputRequest",
    "CreateOutput",
    "CreateOutputCreated",
    "CreatedInviteOutput",
    "CreatedUserOutput",
    "CredentialsRequest",
    "DependencyPolicyEnum",
    "DomainEnum",
    "DraftInputRequest",
    "EngineOutput",
    "EngineParamOutput",
    "EngineParamTypeEnum",
    "Error",
    "ErrorError",
    "ErrorGroup",
    "EventsEnum",
    "ExplorerAnswerEnum",
    "ExplorerBulkActionEnum",
    "ExplorerBulkInputRequest",
    "ExplorerBulkResult",
    "ExplorerBulkResultSkipped",
    "ExplorerFilterInputRequest",
    "ExplorerLabelStateEnum",
    "ExplorerListAnswer",
    "ExplorerListSort",
    "ExplorerListState",
    "ExplorerListStatus",
    "ExplorerListVerdict",
    "ExplorerPage",
    "ExplorerQueueStatusEnum",
    "ExplorerRow",
    "ExplorerSortEnum",
    "ExplorerVerdictEnum",
    "ExportFormatEnum",
    "ExportInputFileTypeEnum",
    "ExportInputRequest",
    "ExportOutput",
    "ExportOutputFileTypeEnum",
    "ExportPreviewInputRequest",
    "ExportPreviewOutput",
    "ExportProgressOutput",
    "ExportUserOutput",
    "ExportsListExportFormat",
    "ExportsListStatus",
    "FeedbackOutput",
    "FiltersInputRequest",
    "FinalCountsOutput",
    "FinalLabelsOutput",
    "FinishReasonEnum",
    "GoldAnnotatorOutput",
    "GoldInputRequest",
    "GoldOutput",
    "GoldRow",
    "HistoryOutput",
    "HubPushInputRequest",
    "HubPushOutput",
    "HubTokenInputRequest",
    "HubTokenOutput",
    "ImportInputFormatEnum",
    "ImportInputRequest",
    "ImportJobOutput",
    "InputRequest",
    "InviteAcceptInputRequest",
    "InviteAcceptOutput",
    "InviteAcceptOutputUser",
    "InviteListInputRequest",
    "InviteOutput",
    "InvitePublicOutput",
    "IssuedPasswordOutput",
    "JobStatusEnum",
    "KindEnum",
    "LabelInput",
    "LabelInputRequest",
    "LabelPolicyInputRequest",
    "LabelScaleEnum",
    "LabelSourceEnum",
    "LabelsAsEnum",
    "MachineSourceOutput",
    "MediaOutput",
    "MemberInputRequest",
    "MemberOutput",
    "MemberOutputUser",
    "MetricsAnnotator",
    "MetricsComputing",
    "MetricsCoverage",
    "MetricsReview",
    "MetricsReviewUnresolved",
    "ModeEnum",
    "MyWorkListStatus",
    "MyWorkPage",
    "MyWorkRowOutput",
    "MyWorkRowOutputStatusEnum",
    "NearDuplicatesEnum",
    "NeutralEnum",
    "OrderEnum",
    "PaginatedApiTokens",
    "PaginatedAssignmentSummary",
    "PaginatedAutolabelRuns",
    "PaginatedExports",
    "PaginatedGoldRows",
    "PaginatedImportJobs",
    "PaginatedMembers",
    "PaginatedPredictionSources",
    "PaginatedPrmModels",
    "PaginatedProblemSources",
    "PaginatedProjects",
    "PaginatedRejections",
    "PaginatedSolutionRows",
    "PaginatedTrainingRuns",
    "PasswordChangeInputRequest",
    "PasswordResetConfirmInputRequest",
    "PasswordResetInputRequest",
    "PasswordTokenInputRequest",
    "PatchedMemberRoleInputRequest",
    "PatchedProjectInputRequest",
    "PatchedWebhookEndpointPatchInputRequest",
    "PredictionSourceOutput",
    "PredictionsResultOutput",
    "PreviewStepOutput",
    "PrmModelInputRequest",
    "PrmModelInputRequestMetrics",
    "PrmModelOutput",
    "ProblemDomainEnum",
    "ProblemOutput",
    "ProblemOutputDocumentsItem",
    "ProblemOutputTablesItem",
    "ProblemSource",
    "ProgressOutput",
    "ProjectDeleteOutput",
    "ProjectInputRequest",
    "ProjectMetrics",
    "ProjectOutput",
    "ProjectOutputStats",
    "ProjectUserCreateInputRequest",
    "ProjectsMediaCreateBody",
    "ProjectsRejectionsListRework",
    "ProjectsReviewQueueRetrieveDomain",
    "ProjectsReviewQueueRetrieveReason",
    "ProjectsReviewQueueRetrieveState",
    "QueueAnnotator",
    "QueueCountsOutput",
    "QueueItemOutput",
    "QueuePriority",
    "QueuePriorityRequest",
    "RatingLabelRequest",
    "RejectInputRequest",
    "RejectOutput",
    "RejectionOutput",
    "ResolutionLabelOutput",
    "ResolutionOutput",
    "ResubmitInputRequest",
    "ReviewActionOutput",
    "ReviewAnnotationOutput",
    "ReviewDetailOutput",
    "ReviewProblem",
    "ReviewProblemDocumentsItem",
    "ReviewProblemTablesItem",
    "ReviewProject",
    "ReviewQueuePage",
    "ReviewSolution",
    "ReviewStepOutput",
    "ReviewSuggestionOutput",
    "ReworkOutput",
    "RoleEnum",
    "RunInputRequest",
    "RunInputRequestFilter",
    "RunInputRequestParams",
    "RunOutput",
    "RunStatusEnum",
    "ScreeningEnum",
    "SkipInputRequest",
    "SolutionOutput",
    "SolutionRowOutput",
    "SplitPolicyInputRequest",
    "StepLabelCell",
    "StepMergeInputRequest",
    "StepOutput",
    "StepPreviewInputRequest",
    "StepPreviewOutput",
    "StepSplitEnum",
    "StepSplitInputRequest",
    "StrategyEnum",
    "SubmitInputRequest",
    "SubmitOutput",
    "SuggestionOutput",
    "TaskOutput",
    "TaskProjectOutput",
    "TokenKindEnum",
    "TokenOutput",
    "TrainingRunInputRequest",
    "TrainingRunInputRequestConfig",
    "TrainingRunOutput",
    "TrainingRunSummaryOutput",
    "TrainingStatusEnum",
    "UnsureEnum",
    "UserListOutput",
    "UserOutput",
    "UsesEnum",
    "VerdictCounts",
    "WebhookDeliveryOutput",
    "WebhookEndpointInputRequest",
    "WebhookEndpointOutput",
    "WebhookEndpointWithSecretOutput",
    "WebhookEventOutput",
)
