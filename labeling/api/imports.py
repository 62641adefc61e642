from django.conf import settings
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response
from rest_framework.views import APIView

from labeling.admin_selectors import import_job_list
from labeling.api.access import project_for
from labeling.api.idempotency import IDEMPOTENCY_HEADER, idempotency_key, request_id_field
from labeling.api.pagination import BoundedLimitOffsetPagination
from labeling.api.schema import paginated
from labeling.importers import FORMATS
from labeling.models import PROBLEM_DOMAINS, ImportJob, Role
from labeling.services.imports import LABELS_AS, parse_options
from labeling.services.outbox import outbox_job_create
from labeling.tasks import import_job_run_task


class ImportJobOutput(serializers.ModelSerializer):
    class Meta:
        model = ImportJob
        fields = [
            "id",
            "filename",
            "format",
            "detected_format",
            "labels_as",
            "domain",
            "detect_uses",
            "status",
            "bytes_total",
            "bytes_done",
            "rows_done",
            "result",
            "error",
            "created_at",
            "finished_at",
        ]


class ImportInput(serializers.Serializer):
    file = serializers.FileField()
    format = serializers.ChoiceField(choices=FORMATS, default="auto")
    labels_as = serializers.ChoiceField(choices=LABELS_AS, default="suggestions")
    domain = serializers.ChoiceField(
        choices=PROBLEM_DOMAINS,
        default="",
        allow_blank=True,
        help_text="The domain of rows that name none (a many-domains project's dataset files).",
    )
    detect_uses = serializers.BooleanField(
        default=True,
        help_text="Find the earlier steps each step refers to (step `uses`) where a row gives "
        "none. Off: such steps keep no `uses`, and a large file imports a few percent faster.",
    )

    request_id = request_id_field()

    def validate_file(self, file):
        if file.size > settings.IMPORT_MAX_BYTES:
            raise serializers.ValidationError(
                f"The file is {file.size} bytes; the limit is {settings.IMPORT_MAX_BYTES}."
            )
        return file


class ImportListApi(APIView):
    parser_classes = [MultiPartParser, FormParser]

    @extend_schema(
        operation_id="imports_list", responses=paginated(ImportJobOutput, "PaginatedImportJobs")
    )
    def get(self, request, project_id: int):
        project = project_for(request, project_id, at_least=Role.ADMIN)
        paginator = BoundedLimitOffsetPagination()
        page = paginator.paginate_queryset(import_job_list(project=project), request)
        return paginator.get_paginated_response(ImportJobOutput(page, many=True).data)

    @extend_schema(
        request=ImportInput, responses={202: ImportJobOutput}, parameters=[IDEMPOTENCY_HEADER]
    )
    def post(self, request, project_id: int):
        """Upload a file; a worker imports it. Poll the job for progress and errors."""
        project = project_for(request, project_id, at_least=Role.ADMIN)
        data = ImportInput(data=request.data)
        data.is_valid(raise_exception=True)
        parse_options(project, data.validated_data["domain"])  # the option fits the project
        key = idempotency_key(request, data.validated_data.get("request_id"))
        job, _ = outbox_job_create(
            task=import_job_run_task.name,
            create=lambda: _job_create(request, project, data.validated_data),
            fetch=lambda pk: ImportJob.objects.filter(pk=pk, project=project).first(),
            created_by=request.user,
            idempotency_key=key,
        )
        return Response(ImportJobOutput(job).data, status=status.HTTP_202_ACCEPTED)


def _job_create(request, project, validated: dict) -> ImportJob:
    upload = validated["file"]
    return ImportJob.objects.create(
        project=project,
        created_by=request.user,
        file=upload,
        filename=upload.name[:300],
        format=validated["format"],
        labels_as=validated["labels_as"],
        domain=validated["domain"],
        detect_uses=validated["detect_uses"],
        bytes_total=upload.size,
    )


class ImportDetailApi(APIView):
    @extend_schema(responses=ImportJobOutput)
    def get(self, request, import_id: int):
        job = get_object_or_404(ImportJob, pk=import_id)
        project_for(request, job.project_id, at_least=Role.ADMIN)
        return Response(ImportJobOutput(job).data)
