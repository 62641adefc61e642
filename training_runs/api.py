"""PRM training runs, trained PRMs and the active-learning queue order over the API.

Project admins start and cancel runs, register models and set the queue order; reviewers
may read all of it. Annotators get 403, non-members 404 (labeling.api.access).
"""

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from labeling.api import bounds
from labeling.api.access import project_for
from labeling.api.idempotency import IDEMPOTENCY_HEADER, idempotency_key, request_id_field
from labeling.api.pagination import BoundedLimitOffsetPagination
from labeling.api.schema import paginated
from labeling.errors import ValidationFailed
from labeling.models import Export, Role
from labeling.services.jobs.outbox import outbox_job_create
from training_runs.active_learning import queue_order_get, queue_order_set
from training_runs.models import PrmModel, QueueOrder, TrainingRun
from training_runs.services import (
    prm_model_delete,
    prm_model_register,
    training_run_cancel,
    training_run_create,
)
from training_runs.tasks import training_run_task


class TrainingRunOutput(serializers.ModelSerializer):
    progress = serializers.FloatField(read_only=True)
    created_by = serializers.CharField(source="created_by.username", default=None)
    prm_model = serializers.SerializerMethodField()

    class Meta:
        model = TrainingRun
        fields = [
            "id",
            "project",
            "export",
            "base_model",
            "config",
            "status",
            "step",
            "total_steps",
            "progress",
            "metrics",
            "history",
            "log_tail",
            "artifact_path",
            "error",
            "attempts",
            "prm_model",
            "created_by",
            "created_at",
            "started_at",
            "finished_at",
        ]

    def get_prm_model(self, run: TrainingRun) -> int | None:
        model = getattr(run, "prm_model", None)
        return model.pk if model else None


class TrainingRunSummaryOutput(TrainingRunOutput):
    """The list leaves out the metric history and the log."""

    class Meta(TrainingRunOutput.Meta):
        fields = [f for f in TrainingRunOutput.Meta.fields if f not in ("history", "log_tail")]


class TrainingRunListApi(APIView):
    class Input(serializers.Serializer):
        class Meta:
            ref_name = "TrainingRunInput"

        export = bounds.id_field(help_text="A done TRL-format export of this project.")
        base_model = serializers.CharField(
            max_length=1000,
            help_text="Absolute path of a causal LM checkpoint directory, under one of the "
            "server's MODEL_DIRS or this project's own training runs (staff users: any).",
        )
        config = serializers.DictField(
            required=False,
            default=dict,
            help_text="training.config.TrainConfig settings, e.g. lr, epochs, max_steps, "
            "batch_size, max_length, head, lora, bf16. data, eval_data, model, out, resume_from "
            "and progress are set by the run (it evaluates on its export's own split).",
        )
        request_id = request_id_field()

    @extend_schema(
        operation_id="training_runs_list",
        responses=paginated(TrainingRunSummaryOutput, "PaginatedTrainingRuns"),
    )
    def get(self, request, project_id: int):
        project = project_for(request, project_id, at_least=Role.REVIEWER)
        runs = project.training_runs.select_related("created_by", "prm_model").order_by("-id")
        paginator = BoundedLimitOffsetPagination()
        page = paginator.paginate_queryset(runs, request)
        return paginator.get_paginated_response(TrainingRunSummaryOutput(page, many=True).data)

    @extend_schema(
        request=Input, responses={202: TrainingRunOutput}, parameters=[IDEMPOTENCY_HEADER]
    )
    def post(self, request, project_id: int):
        project = project_for(request, project_id, at_least=Role.ADMIN)
        data = self.Input(data=request.data)
        data.is_valid(raise_exception=True)
        export = Export.objects.filter(pk=data.validated_data["export"], project=project).first()
        if export is None:
            raise ValidationFailed("No such export in this project.", field="export")
        run, _ = outbox_job_create(
            task=training_run_task.name,
            create=lambda: training_run_create(
                project=project,
                export=export,
                base_model=data.validated_data["base_model"],
                config=data.validated_data["config"],
                created_by=request.user,
            ),
            fetch=lambda pk: project.training_runs.filter(pk=pk).first(),
            created_by=request.user,
            idempotency_key=idempotency_key(request, data.validated_data.get("request_id")),
        )
        return Response(TrainingRunOutput(run).data, status=status.HTTP_202_ACCEPTED)


def _run_for(request, run_id: int, *, at_least: str) -> TrainingRun:
    run = get_object_or_404(TrainingRun.objects.select_related("created_by"), pk=run_id)
    project_for(request, run.project_id, at_least=at_least)
    return run


class TrainingRunDetailApi(APIView):
    @extend_schema(responses=TrainingRunOutput)
    def get(self, request, run_id: int):
        return Response(TrainingRunOutput(_run_for(request, run_id, at_least=Role.REVIEWER)).data)


class TrainingRunCancelApi(APIView):
    @extend_schema(request=None, responses=TrainingRunOutput)
    def post(self, request, run_id: int):
        run = training_run_cancel(run=_run_for(request, run_id, at_least=Role.ADMIN))
        return Response(TrainingRunOutput(run).data)


class PrmModelOutput(serializers.ModelSerializer):
    created_by = serializers.CharField(source="created_by.username", default=None)

    class Meta:
        model = PrmModel
        fields = [
            "id",
            "project",
            "name",
            "path",
            "training_run",
            "base_model",
            "kind",
            "metrics",
            "created_by",
            "created_at",
        ]


class PrmModelListApi(APIView):
    class Input(serializers.Serializer):
        class Meta:
            ref_name = "PrmModelInput"

        name = serializers.CharField(max_length=200)
        path = serializers.CharField(
            max_length=1000,
            help_text="Absolute path of a saved PRM directory on the workers, under one of the "
            "server's MODEL_DIRS or this project's own training runs (staff users: any).",
        )
        metrics = bounds.json_object_field(required=False, default=dict)

    @extend_schema(
        operation_id="projects_prm_models_list",
        responses=paginated(PrmModelOutput, "PaginatedPrmModels"),
    )
    def get(self, request, project_id: int):
        project = project_for(request, project_id, at_least=Role.REVIEWER)
        models = project.prm_models.select_related("created_by").order_by("-id")
        paginator = BoundedLimitOffsetPagination()
        page = paginator.paginate_queryset(models, request)
        return paginator.get_paginated_response(PrmModelOutput(page, many=True).data)

    @extend_schema(
        request=Input,
        responses={201: PrmModelOutput},
        description="At most COLLECTION_CAPS['prm_models'] models a project (100 by default, "
        "counting those its unfinished training runs will register): the next is a 409.",
    )
    def post(self, request, project_id: int):
        project = project_for(request, project_id, at_least=Role.ADMIN)
        data = self.Input(data=request.data)
        data.is_valid(raise_exception=True)
        model = prm_model_register(project=project, created_by=request.user, **data.validated_data)
        return Response(PrmModelOutput(model).data, status=status.HTTP_201_CREATED)


class PrmModelDetailApi(APIView):
    @extend_schema(
        request=None,
        responses={204: None},
        description="Unregister a model (project admins), freeing its place under "
        "COLLECTION_CAPS['prm_models']. A 409 while an unfinished auto-label run scores with it "
        "or a training run starts from it. The suggestions it wrote stay (each names its agent); "
        "its files stay where they are (registering stores a path, not a copy).",
    )
    def delete(self, request, project_id: int, model_id: int):
        project = project_for(request, project_id, at_least=Role.ADMIN)
        prm_model_delete(model=get_object_or_404(PrmModel, project=project, pk=model_id))
        return Response(status=status.HTTP_204_NO_CONTENT)


class QueuePriorityApi(APIView):
    class Body(serializers.Serializer):
        class Meta:
            ref_name = "QueuePriority"

        order = serializers.ChoiceField(
            choices=QueueOrder.choices,
            help_text="prm_active: convincing wrong answers first, then the least certain "
            "(needs a prm auto-label run to have scored the solutions).",
        )

    @extend_schema(responses=Body)
    def get(self, request, project_id: int):
        project = project_for(request, project_id, at_least=Role.REVIEWER)
        return Response({"order": queue_order_get(project=project)})

    @extend_schema(request=Body, responses=Body)
    def put(self, request, project_id: int):
        project = project_for(request, project_id, at_least=Role.ADMIN)
        data = self.Body(data=request.data)
        data.is_valid(raise_exception=True)
        priority = queue_order_set(project=project, order=data.validated_data["order"])
        return Response({"order": priority.order})
