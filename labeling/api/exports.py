"""Export snapshots: create (202, a worker builds it), poll, download, card, list, delete.

Project admins and reviewers only; deleting is for admins. A done export is immutable
(there is no PATCH).
"""

import base64

from django.core.files.storage import default_storage
from django.http import FileResponse, HttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.negotiation import BaseContentNegotiation
from rest_framework.response import Response
from rest_framework.views import APIView

from labeling.api import bounds
from labeling.api.access import project_for
from labeling.api.idempotency import IDEMPOTENCY_HEADER, idempotency_key, request_id_field
from labeling.api.pagination import BoundedLimitOffsetPagination
from labeling.api.schema import paginated
from labeling.errors import Conflict, Gone
from labeling.exporters import (
    FILE_TYPES,
    FORMATS,
    Combine,
    DependencyPolicy,
    LabelSource,
    Neutral,
    SplitMode,
    options_from,
)
from labeling.exporters import Unsure as UnsureMode
from labeling.exporters.decontaminate import SETS_MAX
from labeling.exporters.preview import export_preview
from labeling.exporters.source import export_list
from labeling.models import Export, ExportStatus, Role
from labeling.rules.machine_sources import SOURCE_MAX_LENGTH, SOURCES_MAX
from labeling.services.exports.snapshots import export_create, export_delete
from labeling.services.jobs.outbox import outbox_job_create
from labeling.tasks import export_build_task

CONTENT_TYPES = {
    "jsonl": "application/x-ndjson",
    "jsonl.gz": "application/gzip",
    "parquet": "application/vnd.apache.parquet",
}


def _choices(enum) -> list[str]:
    return [e.value for e in enum]


class _Strict(serializers.Serializer):
    """Refuses keys it does not know, instead of silently dropping an option."""

    def to_internal_value(self, data):
        if isinstance(data, dict):
            unknown = sorted(set(data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError({unknown[0]: "Unknown option."})
        return super().to_internal_value(data)


class BenchmarkSetInput(_Strict):
    file = serializers.CharField(max_length=800, required=False)
    hub = serializers.CharField(max_length=200, required=False)
    config = serializers.CharField(max_length=200, required=False)
    split = serializers.CharField(max_length=200, required=False)


class FiltersInput(_Strict):
    label_source = serializers.ChoiceField(
        choices=_choices(LabelSource),
        required=False,
        help_text="Where step labels come from (default final). 'final': per step, a "
        "review's resolution, else the annotators' majority (ties left out), else a machine "
        "label only with machine_labels. 'reviewed': each solution's current resolution only. "
        "'annotations': every submitted annotation, as annotators submitted it.",
    )
    machine_labels = serializers.BooleanField(
        required=False,
        help_text="label_source=final: machine labels (suggestions, machine-agreed "
        "resolutions) for steps no human labeled. Default false.",
    )
    auto_sources = serializers.ListField(
        child=serializers.CharField(max_length=SOURCE_MAX_LENGTH),
        required=False,
        max_length=SOURCES_MAX,
        help_text="Suggestion sources for auto_any, most preferred first: the built-in ones "
        "and any installed engine plug-in's name (GET /api/autolabel-engines/).",
    )
    min_agreement = serializers.FloatField(min_value=0, max_value=1, required=False)
    unsure = serializers.ChoiceField(choices=_choices(UnsureMode), required=False)
    labeled_after = serializers.DateTimeField(required=False, allow_null=True)
    labeled_before = serializers.DateTimeField(required=False, allow_null=True)
    annotators = serializers.ListField(child=bounds.name_field(), required=False, max_length=1000)
    problem_sources = serializers.ListField(
        child=serializers.CharField(max_length=500), required=False, max_length=1000
    )
    include_gold = serializers.BooleanField(
        required=False, help_text="Gold questions are excluded by default once they exist."
    )
    min_score = serializers.FloatField(
        min_value=0,
        max_value=1,
        required=False,
        allow_null=True,
        help_text="auto_consensus / auto_any: leave out machine labels whose score (the "
        "measured probability that the verdict is right) is below this or unknown.",
    )
    decontaminate = serializers.ListField(
        child=BenchmarkSetInput(),
        required=False,
        max_length=SETS_MAX,
        help_text="Benchmark sets to decontaminate against: problems equal to a benchmark "
        "problem after normalization, or near-duplicates of one (a reworded copy), are left "
        "out and counted in the card. Each is {file: a JSONL file in the server's benchmark "
        "folder} or {hub: owner/name, config, split}; rows carry `problem` or `question`.",
    )


class LabelPolicyInput(_Strict):
    neutral = serializers.ChoiceField(choices=_choices(Neutral), required=False)
    truncate_after_first_error = serializers.BooleanField(required=False)
    human_written_positive = serializers.BooleanField(required=False)
    soft_labels = serializers.BooleanField(required=False)
    label_sources = serializers.BooleanField(required=False)
    combine = serializers.ChoiceField(choices=_choices(Combine), required=False)
    dependency_policy = serializers.ChoiceField(
        choices=_choices(DependencyPolicy),
        required=False,
        help_text="Step dependencies: none (not written), keep (per step `uses`, the earlier "
        "steps it uses, 0-based within the row, and `inherited`: lists beside the steps in TRL "
        "and ProcessBench rows, keys of each step in PRM800K `label.steps` and dense-rewards "
        "`steps`, `chosen_uses` / `rejected_uses` in pairwise rows, nothing in Math-Shepherd; "
        "labels as given), inherit (a step that uses a -1 step, transitively, is exported as -1 "
        "with `inherited: true`, in every format).",
    )
    placeholder_token = serializers.CharField(
        max_length=32,
        required=False,
        help_text="openrlhf: the step tag after each step in `input` (OpenRLHF's "
        "--placeholder_token); default ки.",
    )
    reward_tokens = serializers.ListField(
        child=serializers.CharField(max_length=32),
        min_length=2,
        max_length=2,
        required=False,
        help_text="openrlhf: the hard labels, the positive token then the negative one "
        '(OpenRLHF\'s --reward_tokens); default ["+", "-"].',
    )
    tokenizer = serializers.CharField(
        max_length=300,
        required=False,
        allow_blank=True,
        help_text="chat_template (required there): the tokenizer whose chat template renders "
        "each row: a local directory with its files, or a name in the Hugging Face cache "
        "(loaded offline).",
    )
    step_separator = serializers.CharField(
        max_length=32,
        required=False,
        help_text="chat_template: the token after each step (one token of the tokenizer); "
        "default <extra_0> (Qwen PRM).",
    )
    system_prompt = serializers.CharField(
        max_length=4000,
        required=False,
        allow_blank=True,
        help_text="chat_template: a system message before the problem; none when blank.",
    )


class SplitPolicyInput(_Strict):
    mode = serializers.ChoiceField(choices=_choices(SplitMode), required=False)
    train = serializers.FloatField(min_value=0, max_value=1, required=False)
    validation = serializers.FloatField(min_value=0, max_value=1, required=False)
    test = serializers.FloatField(min_value=0, max_value=1, required=False)
    seed = serializers.CharField(max_length=200, required=False, allow_blank=True)


class ExportInput(_Strict):
    format = serializers.ChoiceField(choices=list(FORMATS))
    file_type = serializers.ChoiceField(choices=list(FILE_TYPES), default="jsonl")
    filters = FiltersInput(required=False)
    label_policy = LabelPolicyInput(required=False)
    split_policy = SplitPolicyInput(required=False)
    request_id = request_id_field()


class ExportPreviewInput(_Strict):
    filters = FiltersInput(required=False)
    label_policy = LabelPolicyInput(required=False)


class FinalCountsOutput(serializers.Serializer):
    review = serializers.IntegerField()
    agreement = serializers.IntegerField()
    single = serializers.IntegerField()
    machine = serializers.IntegerField()
    tie = serializers.IntegerField()
    no_label = serializers.IntegerField()


class FinalLabelsOutput(serializers.Serializer):
    solutions = FinalCountsOutput()
    steps = FinalCountsOutput()


class ExportPreviewOutput(serializers.Serializer):
    label_source = serializers.CharField()
    solutions_labeled = serializers.IntegerField()
    solutions_unlabeled = serializers.IntegerField()
    solutions_read = serializers.IntegerField()
    partial = serializers.BooleanField(
        help_text="The counts by origin cover only the first solutions_read solutions."
    )
    final_labels = FinalLabelsOutput(
        allow_null=True,
        help_text="label_source=final: solutions and steps by where their label came from "
        "(review, agreement, single annotator, machine) and those left out (tie, no_label); "
        "solutions.no_label includes the solutions_unlabeled. Null for the other sources.",
    )


class ExportProgressOutput(serializers.Serializer):
    solutions_done = serializers.IntegerField()
    solutions_total = serializers.IntegerField()
    fraction = serializers.FloatField()


class ExportUserOutput(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()


class ExportOutput(serializers.ModelSerializer):
    # Every format the exporters write (the model's choices predate openrlhf and chat_template).
    format = serializers.ChoiceField(choices=list(FORMATS), read_only=True)
    progress = serializers.SerializerMethodField()
    created_by = serializers.SerializerMethodField()
    file_name = serializers.SerializerMethodField()
    download_url = serializers.SerializerMethodField()
    card_url = serializers.SerializerMethodField()

    class Meta:
        model = Export
        fields = [
            "id",
            "project",
            "format",
            "file_type",
            "filters",
            "label_policy",
            "split_policy",
            "status",
            "progress",
            "row_count",
            "step_count",
            "stats",
            "sha256",
            "size_bytes",
            "file_name",
            "download_url",
            "card_url",
            "error",
            "created_by",
            "created_at",
            "started_at",
            "finished_at",
        ]

    @extend_schema_field(ExportProgressOutput)
    def get_progress(self, export: Export) -> dict:
        total, done = export.solutions_total, export.solutions_done
        if export.status == ExportStatus.DONE:
            fraction = 1.0
        else:
            fraction = min(done / total, 1.0) if total else 0.0
        return {"solutions_done": done, "solutions_total": total, "fraction": fraction}

    @extend_schema_field(ExportUserOutput(allow_null=True))
    def get_created_by(self, export: Export) -> dict | None:
        user = export.created_by
        return {"id": user.pk, "username": user.username} if user else None

    def get_file_name(self, export: Export) -> str | None:
        return export.file.name.rsplit("/", 1)[-1] if export.file else None

    def get_download_url(self, export: Export) -> str | None:
        return f"/api/exports/{export.pk}/download/" if export.status == ExportStatus.DONE else None

    def get_card_url(self, export: Export) -> str | None:
        return f"/api/exports/{export.pk}/card/" if export.status == ExportStatus.DONE else None


class _AnyAccept(BaseContentNegotiation):
    """Downloads answer whatever the client accepts; errors still render as JSON."""

    def select_parser(self, request, parsers):
        return parsers[0]

    def select_renderer(self, request, renderers, format_suffix=None):
        return renderers[0], renderers[0].media_type


def _export_for(request, export_id: int, *, at_least: str = Role.REVIEWER) -> Export:
    export = get_object_or_404(Export.objects.select_related("created_by"), pk=export_id)
    project_for(request, export.project_id, at_least=at_least)
    return export


def _done(export: Export) -> None:
    if export.status != ExportStatus.DONE:
        raise Conflict(
            f"Export {export.pk} is {export.status}; it can be downloaded once it is done.",
            status=export.status,
        )


def _export_file(export: Export):
    """The done export's file, open; 410 when it is no longer in storage (removed from the
    disk, a volume replaced): build the export again."""
    gone = Gone(
        f"Export {export.pk}'s file is no longer on the server; build the export again.",
        status=export.status,
    )
    if not export.file.name:
        raise gone
    try:
        return default_storage.open(export.file.name, "rb")
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        raise gone from None


class ExportListApi(APIView):
    class FilterInput(serializers.Serializer):
        # Not `format`: DRF reads that query parameter as the renderer to use.
        export_format = serializers.ChoiceField(choices=list(FORMATS), required=False)
        status = serializers.ChoiceField(choices=ExportStatus.choices, required=False)

    @extend_schema(
        operation_id="exports_list",
        parameters=[FilterInput],
        responses=paginated(ExportOutput, "PaginatedExports"),
    )
    def get(self, request, project_id: int):
        """The project's exports, newest first; `export_format` and `status` keep those only
        (the training tab asks for the finished TRL ones)."""
        project = project_for(request, project_id, at_least=Role.REVIEWER)
        filters = self.FilterInput(data=request.query_params)
        filters.is_valid(raise_exception=True)
        f = filters.validated_data
        rows = export_list(project=project, format=f.get("export_format"), status=f.get("status"))
        paginator = BoundedLimitOffsetPagination()
        page = paginator.paginate_queryset(rows, request)
        return paginator.get_paginated_response(ExportOutput(page, many=True).data)

    @extend_schema(
        request=ExportInput, responses={202: ExportOutput}, parameters=[IDEMPOTENCY_HEADER]
    )
    def post(self, request, project_id: int):
        """Create an export; a worker on the `exports` queue builds it. Poll it for progress.

        It is stored with its start message (the outbox): while the broker is down it stays
        pending and is sent when the broker is back."""
        project = project_for(request, project_id, at_least=Role.REVIEWER)
        data = ExportInput(data=request.data)
        data.is_valid(raise_exception=True)
        options = dict(data.validated_data)
        key = idempotency_key(request, options.pop("request_id", None))
        export, _ = outbox_job_create(
            task=export_build_task.name,
            create=lambda: export_create(project=project, created_by=request.user, **options),
            fetch=lambda pk: export_list(project=project).filter(pk=pk).first(),
            created_by=request.user,
            idempotency_key=key,
        )
        return Response(ExportOutput(export).data, status=status.HTTP_202_ACCEPTED)


class ExportDetailApi(APIView):
    @extend_schema(responses=ExportOutput)
    def get(self, request, export_id: int):
        """Status, progress and, once done, counts, sha256 and the download links."""
        return Response(ExportOutput(_export_for(request, export_id)).data)

    @extend_schema(responses={204: None})
    def delete(self, request, export_id: int):
        """Delete the export and its file (project admins)."""
        export = _export_for(request, export_id, at_least=Role.ADMIN)
        export_delete(export=export)
        return Response(status=status.HTTP_204_NO_CONTENT)


class ExportDownloadApi(APIView):
    content_negotiation_class = _AnyAccept

    @extend_schema(
        responses={
            (200, "application/octet-stream"): OpenApiResponse(
                OpenApiTypes.BINARY,
                description="The data file, streamed. Headers: X-Checksum-SHA256 (hex), "
                "Digest (sha-256, base64), ETag, Content-Disposition.",
            ),
            409: OpenApiResponse(description="The export is not done."),
        }
    )
    def get(self, request, export_id: int):
        """Stream the export's data file with its sha256."""
        export = _export_for(request, export_id)
        _done(export)
        name = export.file.name.rsplit("/", 1)[-1]
        response = FileResponse(
            _export_file(export),
            as_attachment=True,
            filename=name,
            content_type=CONTENT_TYPES[export.file_type],
        )
        digest = base64.b64encode(bytes.fromhex(export.sha256)).decode()
        response["X-Checksum-SHA256"] = export.sha256
        response["Digest"] = f"sha-256={digest}"
        response["ETag"] = f'"{export.sha256}"'
        return response


class ExportCardApi(APIView):
    content_negotiation_class = _AnyAccept

    @extend_schema(
        responses={
            (200, "text/markdown"): OpenApiResponse(
                OpenApiTypes.STR, description="The dataset card (Markdown)."
            ),
            409: OpenApiResponse(description="The export is not done."),
        }
    )
    def get(self, request, export_id: int):
        """The export's dataset card: counts, label distribution, splits, licences."""
        export = _export_for(request, export_id)
        _done(export)
        response = HttpResponse(export.card, content_type="text/markdown; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="README-export-{export.pk}.md"'
        return response


class ExportPreviewApi(APIView):
    @extend_schema(request=ExportPreviewInput, responses=ExportPreviewOutput)
    def post(self, request, project_id: int):
        """Before an export: how many solutions the filters take and, for the final label
        source, where their labels come from and what is left out and why."""
        project = project_for(request, project_id, at_least=Role.REVIEWER)
        data = ExportPreviewInput(data=request.data)
        data.is_valid(raise_exception=True)
        options = options_from(
            filters=data.validated_data.get("filters"),
            label_policy=data.validated_data.get("label_policy"),
        )
        preview = export_preview(project=project, options=options)
        return Response(ExportPreviewOutput(preview).data)
