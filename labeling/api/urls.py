from django.urls import path

from labeling.api import (
    assignments,
    auth,
    explorer,
    exports,
    gold,
    hub,
    hub_token,
    imports,
    labeling,
    machine_sources,
    media,
    my_work,
    people,
    predictions,
    projects,
    resegment,
    review,
    step_preview,
    webhooks,
)

urlpatterns = [
    path("auth/me/", auth.MeApi.as_view(), name="auth-me"),
    path("auth/login/", auth.LoginApi.as_view(), name="auth-login"),
    path("auth/logout/", auth.LogoutApi.as_view(), name="auth-logout"),
    path("auth/token/", auth.TokenApi.as_view(), name="auth-token"),
    path("auth/password/", auth.PasswordChangeApi.as_view(), name="auth-password"),
    path("auth/password/reset/", auth.PasswordResetApi.as_view(), name="auth-password-reset"),
    path(
        "auth/password/reset/confirm/",
        auth.PasswordResetConfirmApi.as_view(),
        name="auth-password-reset-confirm",
    ),
    path("auth/tokens/", auth.MyTokenListApi.as_view(), name="auth-tokens"),
    path("auth/tokens/<int:token_id>/", auth.MyTokenDetailApi.as_view(), name="auth-token-detail"),
    path("auth/hub-token/", hub_token.HubTokenApi.as_view(), name="auth-hub-token"),
    path(
        "machine-sources/", machine_sources.MachineSourceListApi.as_view(), name="machine-sources"
    ),
    path("projects/", projects.ProjectListApi.as_view(), name="project-list"),
    path("projects/<int:project_id>/", projects.ProjectDetailApi.as_view(), name="project-detail"),
    path(
        "projects/<int:project_id>/members/",
        projects.MemberListApi.as_view(),
        name="member-list",
    ),
    path(
        "projects/<int:project_id>/members/<int:user_id>/",
        projects.MemberDetailApi.as_view(),
        name="member-detail",
    ),
    path(
        "projects/<int:project_id>/solutions/",
        projects.SolutionListApi.as_view(),
        name="solution-list",
    ),
    path("projects/<int:project_id>/imports/", imports.ImportListApi.as_view(), name="import-list"),
    path("imports/<int:import_id>/", imports.ImportDetailApi.as_view(), name="import-detail"),
    path(
        "projects/<int:project_id>/step-preview/",
        step_preview.StepPreviewApi.as_view(),
        name="step-preview",
    ),
    path(
        "projects/<int:project_id>/predictions/",
        predictions.PredictionListApi.as_view(),
        name="prediction-list",
    ),
    path(
        "projects/<int:project_id>/queue/next/",
        labeling.QueueNextApi.as_view(),
        name="queue-next",
    ),
    path("projects/<int:project_id>/progress/", labeling.ProgressApi.as_view(), name="progress"),
    path(
        "annotations/<int:annotation_id>/",
        labeling.AnnotationDetailApi.as_view(),
        name="annotation-detail",
    ),
    path(
        "annotations/<int:annotation_id>/draft/",
        labeling.AnnotationDraftApi.as_view(),
        name="annotation-draft",
    ),
    path(
        "annotations/<int:annotation_id>/submit/",
        labeling.AnnotationSubmitApi.as_view(),
        name="annotation-submit",
    ),
    path(
        "annotations/<int:annotation_id>/skip/",
        labeling.AnnotationSkipApi.as_view(),
        name="annotation-skip",
    ),
    path(
        "annotations/<int:annotation_id>/steps/split/",
        resegment.StepSplitApi.as_view(),
        name="annotation-step-split",
    ),
    path(
        "annotations/<int:annotation_id>/steps/merge/",
        resegment.StepMergeApi.as_view(),
        name="annotation-step-merge",
    ),
]

urlpatterns += [
    path("projects/<int:project_id>/exports/", exports.ExportListApi.as_view(), name="export-list"),
    path(
        "projects/<int:project_id>/exports/preview/",
        exports.ExportPreviewApi.as_view(),
        name="export-preview",
    ),
    path("exports/<int:export_id>/", exports.ExportDetailApi.as_view(), name="export-detail"),
    path(
        "exports/<int:export_id>/download/",
        exports.ExportDownloadApi.as_view(),
        name="export-download",
    ),
    path("exports/<int:export_id>/card/", exports.ExportCardApi.as_view(), name="export-card"),
    path(
        "exports/<int:export_id>/hub-pushes/",
        hub.ExportHubPushListApi.as_view(),
        name="export-hub-pushes",
    ),
    path("hub-pushes/<int:push_id>/", hub.HubPushDetailApi.as_view(), name="hub-push-detail"),
]

urlpatterns += [
    path(
        "projects/<int:project_id>/review/queue/",
        review.ReviewQueueApi.as_view(),
        name="review-queue",
    ),
    path("projects/<int:project_id>/metrics/", review.MetricsApi.as_view(), name="metrics"),
    path(
        "projects/<int:project_id>/assignments/",
        assignments.AssignmentListApi.as_view(),
        name="assignment-list",
    ),
    path(
        "projects/<int:project_id>/assignments/preview/",
        assignments.AssignmentPreviewApi.as_view(),
        name="assignment-preview",
    ),
    path(
        "projects/<int:project_id>/problem-sources/",
        assignments.ProblemSourceListApi.as_view(),
        name="problem-source-list",
    ),
    path("projects/<int:project_id>/gold/", gold.GoldListApi.as_view(), name="gold-list"),
    path(
        "projects/<int:project_id>/members/<int:user_id>/screening/reset/",
        gold.MemberScreeningResetApi.as_view(),
        name="member-screening-reset",
    ),
    path(
        "projects/<int:project_id>/rejections/",
        review.MyRejectionsApi.as_view(),
        name="my-rejections",
    ),
    path("solutions/<int:solution_id>/review/", review.ReviewDetailApi.as_view(), name="review"),
    path(
        "solutions/<int:solution_id>/adjudicate/",
        review.AdjudicateApi.as_view(),
        name="review-adjudicate",
    ),
    path(
        "solutions/<int:solution_id>/comments/",
        review.CommentListApi.as_view(),
        name="comment-list",
    ),
    path("solutions/<int:solution_id>/gold/", review.GoldApi.as_view(), name="solution-gold"),
    path(
        "annotations/<int:annotation_id>/accept/",
        review.AcceptApi.as_view(),
        name="review-accept",
    ),
    path(
        "annotations/<int:annotation_id>/reject/",
        review.RejectApi.as_view(),
        name="review-reject",
    ),
    path(
        "annotations/<int:annotation_id>/feedback/",
        review.AnnotationFeedbackApi.as_view(),
        name="annotation-feedback",
    ),
    path(
        "projects/<int:project_id>/media/",
        media.MediaUploadApi.as_view(),
        name="media-upload",
    ),
    path(
        "projects/<int:project_id>/media/<str:name>",
        media.MediaFileApi.as_view(),
        name="media-file",
    ),
]

urlpatterns += [
    path(
        "projects/<int:project_id>/my-work/",
        my_work.MyWorkListApi.as_view(),
        name="my-work-list",
    ),
    path(
        "projects/<int:project_id>/my-work/back/",
        my_work.MyWorkBackApi.as_view(),
        name="my-work-back",
    ),
    path(
        "annotations/<int:annotation_id>/reopen/",
        my_work.AnnotationReopenApi.as_view(),
        name="annotation-reopen",
    ),
    path(
        "annotations/<int:annotation_id>/resubmit/",
        my_work.AnnotationResubmitApi.as_view(),
        name="annotation-resubmit",
    ),
    path(
        "projects/<int:project_id>/explorer/",
        explorer.ExplorerListApi.as_view(),
        name="explorer-list",
    ),
    path(
        "projects/<int:project_id>/explorer/bulk/",
        explorer.ExplorerBulkApi.as_view(),
        name="explorer-bulk",
    ),
]

# People: accounts made by admins, invite links (labeling/api/people.py).
urlpatterns += [
    path("users/", people.UserListApi.as_view(), name="user-list"),
    path(
        "projects/<int:project_id>/users/",
        people.ProjectUserCreateApi.as_view(),
        name="project-user-create",
    ),
    path(
        "projects/<int:project_id>/members/<int:user_id>/temporary-password/",
        people.MemberTemporaryPasswordApi.as_view(),
        name="member-temporary-password",
    ),
    path("projects/<int:project_id>/invites/", people.InviteListApi.as_view(), name="invite-list"),
    path(
        "projects/<int:project_id>/invites/<int:invite_id>/",
        people.InviteDetailApi.as_view(),
        name="invite-detail",
    ),
    path("invites/<str:token>/", people.InviteOpenApi.as_view(), name="invite-open"),
    path("invites/<str:token>/accept/", people.InviteAcceptApi.as_view(), name="invite-accept"),
]

# Webhooks: a project's endpoints and their delivery log (labeling/api/webhooks.py).
urlpatterns += [
    path("webhook-events/", webhooks.WebhookEventListApi.as_view(), name="webhook-events"),
    path(
        "projects/<int:project_id>/webhooks/",
        webhooks.WebhookEndpointListApi.as_view(),
        name="webhook-list",
    ),
    path(
        "projects/<int:project_id>/webhooks/<int:endpoint_id>/",
        webhooks.WebhookEndpointDetailApi.as_view(),
        name="webhook-detail",
    ),
    path(
        "projects/<int:project_id>/webhooks/<int:endpoint_id>/rotate-secret/",
        webhooks.WebhookSecretRotateApi.as_view(),
        name="webhook-rotate-secret",
    ),
    path(
        "projects/<int:project_id>/webhooks/<int:endpoint_id>/test/",
        webhooks.WebhookTestApi.as_view(),
        name="webhook-test",
    ),
    path(
        "projects/<int:project_id>/webhooks/<int:endpoint_id>/deliveries/",
        webhooks.WebhookDeliveryListApi.as_view(),
        name="webhook-deliveries",
    ),
]
