from django.urls import path

from training_runs import api

urlpatterns = [
    path(
        "projects/<int:project_id>/training-runs/",
        api.TrainingRunListApi.as_view(),
        name="training-run-list",
    ),
    path(
        "training-runs/<int:run_id>/",
        api.TrainingRunDetailApi.as_view(),
        name="training-run",
    ),
    path(
        "training-runs/<int:run_id>/cancel/",
        api.TrainingRunCancelApi.as_view(),
        name="training-run-cancel",
    ),
    path(
        "projects/<int:project_id>/prm-models/",
        api.PrmModelListApi.as_view(),
        name="prm-model-list",
    ),
    path(
        "projects/<int:project_id>/prm-models/<int:model_id>/",
        api.PrmModelDetailApi.as_view(),
        name="prm-model",
    ),
    path(
        "projects/<int:project_id>/queue-priority/",
        api.QueuePriorityApi.as_view(),
        name="queue-priority",
    ),
]
