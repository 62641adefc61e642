from django.urls import path

from autolabel import api

urlpatterns = [
    path("autolabel-engines/", api.EngineListApi.as_view(), name="autolabel-engine-list"),
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
    path(
        "autolabel-runs/<int:run_id>/pause/", api.RunPauseApi.as_view(), name="autolabel-run-pause"
    ),
    path(
        "autolabel-runs/<int:run_id>/resume/",
        api.RunResumeApi.as_view(),
        name="autolabel-run-resume",
    ),
]
