from django.conf import settings
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response
from rest_framework.views import APIView

from labeling.api.access import project_for
from labeling.api.idempotency import IDEMPOTENCY_HEADER, idempotency_key, request_id_field
from labeling.api.pagination import BoundedLimitOffsetPagination
from labeling.api.parsers import BoundedJSONParser
from labeling.api.schema import paginated
from labeling.hub.connection import HubError
from labeling.hub.pull import HubSource
from labeling.importers import FORMATS
from labeling.models import PROBLEM_DOMAINS, STEP_TAG_MAX, ImportJob, Role, StepSplit
from labeling.models.imports import ImportStatus
from labeling.selectors.admin import import_job_list
from labeling.services.imports import LABELS_AS, parse_options, step_rule_resolve
from labeling.services.imports.near_dups import NEAR_DUPLICATES
from labeling.services.jobs.outbox import outbox_job_create
from labeling.services.jobs.quota import active_jobs_check
from labeling.steps.patterns import MAX_PATTERN
from labeling.tasks import import_job_run_task


class ImportJobOutput(serializers.ModelSerializer):
    class Meta:
        model = ImportJob
        fields = [
            "id",
            "filename",
            "hub",
            "format",
            "detected_format",
            "labels_as",
            "domain",
            "detect_uses",
            "near_duplicates",
            "step_split",
            "step_split_regex",
            "step_split_tag",
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
    file = serializers.FileField(required=False, help_text="The file; or name a Hub dataset.")
    hub_repo = serializers.CharField(
        required=False,
        max_length=193,
        help_text="Import a Hugging Face Hub dataset (owner/name) instead of a file: one split "
        "of one config, fetched by the worker with your own Hugging Face token "
        "(PUT /api/auth/hub-token/), else the server's HF_TOKEN where it covers the repo for "
        "you (the hub-token answer's uses), else none; the job's hub.token says whose.",
    )
    hub_config = serializers.CharField(required=False, default="default", max_length=100)
    hub_split = serializers.CharField(required=False, default="train", max_length=100)
    hub_revision = serializers.CharField(
        required=False, default="main", max_length=200, help_text="A branch, tag or commit."
    )
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
    near_duplicates = serializers.ChoiceField(
        choices=NEAR_DUPLICATES,
        default="keep",
        help_text="New problems that are near-duplicates (MinHash, Jaccard of word shingles "
        "at least NEAR_DUP_THRESHOLD) of the project's problems or of earlier ones in the "
        "file: keep (import them) or skip (leave them out with their solutions). Either way "
        "the result's near_duplicates counts them, with examples.",
    )

    step_split = serializers.ChoiceField(
        choices=StepSplit.choices,
        default="",
        allow_blank=True,
        help_text="How this import cuts a solution given as one string into steps; blank: "
        "the project's rule. The job records the rule it used.",
    )
    step_split_regex = serializers.CharField(
        default="",
        allow_blank=True,
        max_length=MAX_PATTERN,
        help_text="The regex rule's separator pattern (RE2 syntax).",
    )
    step_split_tag = serializers.CharField(
        default="",
        allow_blank=True,
        max_length=STEP_TAG_MAX,
        trim_whitespace=False,
        help_text="The step_tags rule's tag: <extra_0> (Qwen PRM), ки (Math-Shepherd), "
        "<step> (steps between <step> and </step>) or any literal.",
    )

    request_id = request_id_field()

    def validate(self, attrs):
        if bool(attrs.get("file")) == bool(attrs.get("hub_repo")):
            raise serializers.ValidationError({"file": "Send a file or a hub_repo (one of them)."})
        if attrs.get("hub_repo"):
            source = HubSource(
                attrs["hub_repo"], attrs["hub_config"], attrs["hub_split"], attrs["hub_revision"]
            )
            try:
                attrs["hub"] = source.checked()
            except HubError as exc:
                field = exc.details.get("field", "repo_id")
                raise serializers.ValidationError(
                    {f"hub_{'repo' if field == 'repo_id' else field}": exc.message}
                ) from None
        return attrs

    def validate_file(self, file):
        if file.size > settings.IMPORT_MAX_BYTES:
            raise serializers.ValidationError(
                f"The file is {file.size} bytes; the limit is {settings.IMPORT_MAX_BYTES}."
            )
        return file


class ImportListApi(APIView):
    parser_classes = [MultiPartParser, FormParser, BoundedJSONParser]

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
        validated = data.validated_data
        parse_options(project, validated["domain"])  # the option fits the project
        validated["step_rule"] = step_rule_resolve(
            project=project,
            split=validated["step_split"],
            regex=validated["step_split_regex"],
            tag=validated["step_split_tag"],
        )
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
    unfinished = ImportJob.objects.filter(
        project=project, status__in=(ImportStatus.PENDING, ImportStatus.RUNNING)
    )
    active_jobs_check(
        project_id=project.pk, kind="imports", unfinished=unfinished, user=request.user
    )
    rule = validated["step_rule"]
    recorded = {
        "step_split": rule.split,
        "step_split_regex": rule.regex,
        "step_split_tag": rule.tag,
    }
    if hub := validated.get("hub"):
        return ImportJob.objects.create(
            project=project,
            created_by=request.user,
            hub=hub.as_dict(),
            filename=hub.label()[:300],
            format=validated["format"],
            labels_as=validated["labels_as"],
            domain=validated["domain"],
            detect_uses=validated["detect_uses"],
            near_duplicates=validated["near_duplicates"],
            **recorded,
        )
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
        near_duplicates=validated["near_duplicates"],
        bytes_total=upload.size,
        **recorded,
    )


class ImportDetailApi(APIView):
    @extend_schema(responses=ImportJobOutput)
    def get(self, request, import_id: int):
        job = get_object_or_404(ImportJob, pk=import_id)
        project_for(request, job.project_id, at_least=Role.ADMIN)
        return Response(ImportJobOutput(job).data)
