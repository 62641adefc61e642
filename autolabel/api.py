"""Auto-labeling runs over the API: start, watch (progress, rate, time left), pause, resume,
cancel."""

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from autolabel.engine_listing import EngineOutput, engines_listed
from autolabel.models import AutolabelRun
from autolabel.run_progress import eta_seconds
from autolabel.services import (
    autolabel_run_cancel,
    autolabel_run_create,
    autolabel_run_pause,
    autolabel_run_resume,
)
from autolabel.tasks import autolabel_run_start_task
from labeling.api.access import project_for
from labeling.api.idempotency import IDEMPOTENCY_HEADER, idempotency_key, request_id_field
from labeling.api.pagination import BoundedLimitOffsetPagination
from labeling.api.schema import paginated
from labeling.models import Role
from labeling.rules.machine_sources import SOURCE_MAX_LENGTH, SOURCES_MAX
from labeling.services.jobs.outbox import outbox_job_create


class VerdictCounts(serializers.Serializer):
    plus = serializers.IntegerField(source="+1", help_text="+1 suggestions.")
    zero = serializers.IntegerField(source="0", help_text="0 suggestions.")
    minus = serializers.IntegerField(source="-1", help_text="−1 suggestions.")
    doubtful = serializers.IntegerField(help_text='Evidence "looks wrong, not refuted".')
    evidence = serializers.IntegerField(help_text='Other evidence without a rating ("checks out").')


class ErrorGroup(serializers.Serializer):
    error = serializers.CharField()
    count = serializers.IntegerField()


class RunOutput(serializers.ModelSerializer):
    progress = serializers.SerializerMethodField()
    rate = serializers.SerializerMethodField(
        help_text="Solutions a second, smoothed; null before the first chunk."
    )
    eta_seconds = serializers.SerializerMethodField(
        help_text="Seconds left at the rate, while running."
    )
    verdicts = serializers.SerializerMethodField()
    error_groups = ErrorGroup(many=True, read_only=True)

    class Meta:
        model = AutolabelRun
        fields = [
            "id",
            "sources",
            "params",
            "filter",
            "status",
            "total",
            "done",
            "failed",
            "prepared",
            "progress",
            "rate",
            "eta_seconds",
            "suggestions_written",
            "verdicts",
            "errors",
            "error_groups",
            "created_at",
            "started_at",
            "finished_at",
        ]

    def get_progress(self, run: AutolabelRun) -> float:
        if not run.prepared:
            return 0.0  # its start task has not listed its solutions yet
        return 1.0 if run.total == 0 else round((run.done + run.failed) / run.total, 4)

    def get_rate(self, run: AutolabelRun) -> float | None:
        return None if run.rate is None else round(run.rate, 3)

    def get_eta_seconds(self, run: AutolabelRun) -> float | None:
        return eta_seconds(run)

    @extend_schema_field(VerdictCounts)
    def get_verdicts(self, run: AutolabelRun) -> dict:
        counts = run.verdicts or {}
        return {
            "plus": counts.get("+1", 0),
            "zero": counts.get("0", 0),
            "minus": counts.get("-1", 0),
            "doubtful": counts.get("doubtful", 0),
            "evidence": counts.get("evidence", 0),
        }


class RunInput(serializers.Serializer):
    # Names, not a fixed choice: the installed plug-ins are sources too (GET
    # /api/autolabel-engines/ lists them); autolabel_run_create refuses an unknown one by name.
    sources = serializers.ListField(
        child=serializers.SlugField(max_length=SOURCE_MAX_LENGTH),
        min_length=1,
        max_length=SOURCES_MAX,
    )
    params = serializers.DictField(required=False, default=dict)
    filter = serializers.DictField(required=False, default=dict)
    request_id = request_id_field()


class RunListApi(APIView):
    @extend_schema(
        operation_id="autolabel_runs_list", responses=paginated(RunOutput, "PaginatedAutolabelRuns")
    )
    def get(self, request, project_id: int):
        project = project_for(request, project_id, at_least=Role.ADMIN)
        paginator = BoundedLimitOffsetPagination()
        page = paginator.paginate_queryset(project.autolabel_runs.order_by("-id"), request)
        return paginator.get_paginated_response(RunOutput(page, many=True).data)

    @extend_schema(request=RunInput, responses={202: RunOutput}, parameters=[IDEMPOTENCY_HEADER])
    def post(self, request, project_id: int):
        project = project_for(request, project_id, at_least=Role.ADMIN)
        data = RunInput(data=request.data)
        data.is_valid(raise_exception=True)
        options = dict(data.validated_data)
        key = idempotency_key(request, options.pop("request_id", None))
        run, _ = outbox_job_create(
            task=autolabel_run_start_task.name,
            create=lambda: autolabel_run_create(
                project=project, created_by=request.user, prepare_later=True, **options
            ),
            fetch=lambda pk: project.autolabel_runs.filter(pk=pk).first(),
            created_by=request.user,
            idempotency_key=key,
        )
        return Response(RunOutput(run).data, status=status.HTTP_202_ACCEPTED)


def _run_for(request, run_id: int) -> AutolabelRun:
    run = get_object_or_404(AutolabelRun, pk=run_id)
    project_for(request, run.project_id, at_least=Role.ADMIN)
    return run


class RunDetailApi(APIView):
    @extend_schema(responses=RunOutput)
    def get(self, request, run_id: int):
        return Response(RunOutput(_run_for(request, run_id)).data)


class RunCancelApi(APIView):
    @extend_schema(request=None, responses=RunOutput)
    def post(self, request, run_id: int):
        run = autolabel_run_cancel(run=_run_for(request, run_id))
        return Response(RunOutput(run).data)


class EngineListApi(APIView):
    @extend_schema(operation_id="autolabel_engines_list", responses=EngineOutput(many=True))
    def get(self, request):
        """The auto-label sources this server runs: the built-in engines and the installed
        plug-ins, each plug-in with its parameter schema (the run dialog's form)."""
        return Response(EngineOutput(engines_listed(), many=True).data)


class RunPauseApi(APIView):
    @extend_schema(request=None, responses=RunOutput)
    def post(self, request, run_id: int):
        run = autolabel_run_pause(run=_run_for(request, run_id))
        return Response(RunOutput(run).data)


class RunResumeApi(APIView):
    @extend_schema(request=None, responses=RunOutput)
    def post(self, request, run_id: int):
        run = autolabel_run_resume(run=_run_for(request, run_id))
        return Response(RunOutput(run).data)
