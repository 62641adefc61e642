"""Uploaded predictions: POST a team's model's step labels, GET the project's prediction
sources. The body is read as a stream (never held whole): JSON Lines, optionally gzipped, or
a JSON array (labeling.services.imports.predictions)."""

from django.conf import settings
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiRequest, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import UnsupportedMediaType
from rest_framework.parsers import BaseParser
from rest_framework.response import Response
from rest_framework.views import APIView

from labeling.api.access import project_for
from labeling.api.pagination import BoundedLimitOffsetPagination
from labeling.api.schema import paginated
from labeling.api.throttles import PredictionsThrottle
from labeling.errors import ValidationFailed
from labeling.importers.predictions import PredictionsTooLarge
from labeling.models import Role
from labeling.selectors.predictions import prediction_source_list
from labeling.services.imports.predictions import predictions_upload

JSONL_TYPES = ("application/x-ndjson", "application/jsonl", "application/x-jsonlines")


class _StreamParser(BaseParser):
    """Leaves the body unread: the view streams it (request.stream) into the service."""

    def parse(self, stream, media_type=None, parser_context=None):
        return {}


class JsonLinesStreamParser(_StreamParser):
    media_type = "application/x-ndjson"


class JsonLinesAltParser(_StreamParser):
    media_type = "application/jsonl"


class JsonLinesOtherParser(_StreamParser):
    media_type = "application/x-jsonlines"


class JsonStreamParser(_StreamParser):
    media_type = "application/json"


class PredictionSourceOutput(serializers.Serializer):
    name = serializers.CharField()
    version = serializers.CharField()
    agent = serializers.CharField(help_text="name@version, as the label page shows it.")
    steps = serializers.IntegerField()
    solutions = serializers.IntegerField()
    last_upload = serializers.DateTimeField()


class PredictionsResultOutput(serializers.Serializer):
    solutions = serializers.IntegerField(help_text="Solutions given a prediction.")
    steps_written = serializers.IntegerField(help_text="Step labels stored, new and updated.")
    steps_created = serializers.IntegerField()
    steps_updated = serializers.IntegerField(help_text="Labels that were there and changed.")
    steps_removed = serializers.IntegerField(
        help_text="Old labels of a source on steps its new prediction of a solution leaves out."
    )
    sources = serializers.ListField(child=serializers.CharField())


class PredictionsQuery(serializers.Serializer):
    name = serializers.CharField(
        required=False,
        allow_blank=True,
        default="",
        max_length=64,
        help_text="The source's name for lines without one.",
    )
    version = serializers.CharField(
        required=False,
        allow_blank=True,
        default="",
        max_length=40,
        help_text="Its version, likewise.",
    )
    filename = serializers.CharField(
        required=False, default="upload", max_length=200, help_text="Named in errors and evidence."
    )


def _source_row(row: dict) -> dict:
    name, _, version = row["agent"].partition("@")
    return {**row, "name": name, "version": version}


class PredictionListApi(APIView):
    parser_classes = [
        JsonLinesStreamParser,
        JsonLinesAltParser,
        JsonLinesOtherParser,
        JsonStreamParser,
    ]

    def get_throttles(self):
        return [PredictionsThrottle()] if self.request.method == "POST" else []

    @extend_schema(
        operation_id="predictions_sources",
        responses=paginated(PredictionSourceOutput, "PaginatedPredictionSources"),
    )
    def get(self, request, project_id: int):
        """The project's prediction sources (name@version) with their steps, solutions and
        last upload."""
        project = project_for(request, project_id, at_least=Role.ADMIN)
        paginator = BoundedLimitOffsetPagination()
        page = paginator.paginate_queryset(prediction_source_list(project=project), request)
        rows = [_source_row(row) for row in page]
        return paginator.get_paginated_response(PredictionSourceOutput(rows, many=True).data)

    @extend_schema(
        operation_id="predictions_upload",
        request={
            "application/x-ndjson": OpenApiRequest(OpenApiTypes.BINARY),
            "application/json": OpenApiRequest(OpenApiTypes.BINARY),
        },
        parameters=[PredictionsQuery],
        responses=PredictionsResultOutput,
    )
    def post(self, request, project_id: int):
        """Store machine step labels on the project's solutions (by their external id): JSON
        Lines (application/x-ndjson, may be gzipped) or a JSON array (application/json).
        All or nothing; the same upload again updates in place."""
        project = project_for(request, project_id, at_least=Role.ADMIN)
        query = PredictionsQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        options = query.validated_data
        media = request.content_type.split(";")[0].strip().lower()
        if media not in (*JSONL_TYPES, "application/json"):
            raise UnsupportedMediaType(
                media or "(none)",
                detail="Send JSON Lines (Content-Type: application/x-ndjson, may be gzipped) "
                "or a JSON array (application/json).",
            )
        kind = "json" if media == "application/json" else "jsonl"
        limit = settings.PREDICTIONS_MAX_BYTES
        length = request.META.get("CONTENT_LENGTH") or ""
        if length.isdigit() and int(length) > limit:
            raise PredictionsTooLarge(
                file=options["filename"],
                line=None,
                field=None,
                message=f"the upload is {length} bytes; the limit is {limit} "
                "(PREDICTIONS_MAX_BYTES)",
            )
        if not length.isdigit() or int(length) == 0:
            raise ValidationFailed(
                "The body is empty (or sent without a Content-Length): send the predictions.",
                field="body",
            )
        result = predictions_upload(
            project=project,
            source=request.stream,
            filename=options["filename"],
            kind=kind,
            name=options["name"],
            version=options["version"],
            max_bytes=limit,
        )
        return Response(PredictionsResultOutput(result.as_dict()).data)
