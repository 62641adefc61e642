from django.urls import path

from autolabel import api, training_api

urlpatterns = [
    path(
        "projects/<int:project_id>/autolabel-runs/",
        api.RunListApi.as_view(),
        name="autolabel-run-list",
    ),
    path("autolabel-runs/<int:run_id>/", api.RunDetailApi.as_view(), name="autolabel-run"),
    path(
        "autolabel-runs/<int:run_id>/cancel/",
        api.RunCancelApi.as_view(),
        name="autolabel-run-cancel",
    ),
]

urlpatterns += [
    path(
        "projects/<int:project_id>/training-runs/",
        training_api.TrainingRunListApi.as_view(),
        name="training-run-list",
    ),
    path(
        "training-runs/<int:run_id>/",
        training_api.TrainingRunDetailApi.as_view(),
        name="training-run",
    ),
    path(
        "training-runs/<int:run_id>/cancel/",
        training_api.TrainingRunCancelApi.as_view(),
        name="training-run-cancel",
    ),
    path(
        "projects/<int:project_id>/prm-models/",
        training_api.PrmModelListApi.as_view(),
        name="prm-model-list",
    ),
    path(
        "projects/<int:project_id>/queue-priority/",
        training_api.QueuePriorityApi.as_view(),
        name="queue-priority",
    ),
]
