"""The project's review metrics: agreement, gold accuracy, machine sources, throughput."""

from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from labeling.api.access import project_for
from labeling.models import Role
from labeling.services.projects.metrics import metrics_get


class MetricsApi(APIView):
    """Agreement, gold accuracy, agreement with machine sources and throughput.

    Served from the snapshot computed at the project's current metrics version (exact) when
    there is one; otherwise a small project whose computation is cheap is computed on request,
    and any other comes from its last snapshot (`cached: true`) with its age: `computed_at`
    and `changes_since`, refreshed by a Celery task at a bounded rate (`refreshing`) or when
    `?refresh=1`. 202 while the first snapshot of a large project is being computed.
    """

    @extend_schema(
        parameters=[OpenApiParameter("refresh", bool, required=False)],
        responses={
            200: inline_serializer(
                "ProjectMetrics",
                {
                    "step_ratings": serializers.JSONField(),
                    "pairs": serializers.JSONField(),
                    "first_error": serializers.JSONField(),
                    "gold": serializers.JSONField(),
                    "auto_sources": serializers.JSONField(),
                    "throughput": serializers.JSONField(),
                    "label_distribution": serializers.JSONField(),
                    "domains": serializers.JSONField(
                        help_text="Per problem domain of a many-domains project: progress "
                        "and agreement (empty otherwise)."
                    ),
                    "coverage": inline_serializer(
                        "MetricsCoverage",
                        {
                            "solutions": serializers.IntegerField(),
                            "none": serializers.IntegerField(),
                            "one": serializers.IntegerField(),
                            "two_plus": serializers.IntegerField(),
                        },
                        help_text="Solutions with 0 / 1 / 2+ submitted annotations; agreement "
                        "is measured on the 2+ only (absent from snapshots made before it).",
                    ),
                    "review": inline_serializer(
                        "MetricsReview",
                        {
                            "unresolved": serializers.DictField(
                                child=serializers.IntegerField(),
                                help_text="The review queue's exact counts per reason "
                                "(as the queue's `counts`).",
                            ),
                            "resolved": serializers.IntegerField(),
                        },
                        help_text="Review progress, exact as of `computed_at` (absent from "
                        "snapshots made before it).",
                    ),
                    "annotators": inline_serializer(
                        "MetricsAnnotator",
                        {
                            "annotator": serializers.CharField(),
                            "submitted": serializers.IntegerField(),
                            "skipped": serializers.IntegerField(),
                            "hours": serializers.FloatField(),
                            "shared_steps": serializers.IntegerField(),
                            "agreement": serializers.FloatField(allow_null=True),
                        },
                        many=True,
                        help_text="Each annotator's own totals; agreement with the others on "
                        "the steps they both rated.",
                    ),
                    "computed_at": serializers.DateTimeField(),
                    "cached": serializers.BooleanField(),
                    "refreshing": serializers.BooleanField(
                        help_text="A refresh is queued: ask again in a few seconds."
                    ),
                    "changes_since": serializers.IntegerField(
                        allow_null=True,
                        help_text="Writes that change these numbers committed since "
                        "`computed_at` (0: exact now; null: unknown, an older snapshot).",
                    ),
                },
            ),
            202: inline_serializer("MetricsComputing", {"status": serializers.CharField()}),
        },
    )
    def get(self, request, project_id: int):
        project = project_for(request, project_id, at_least=Role.REVIEWER)
        refresh = request.query_params.get("refresh") in ("1", "true")
        answer = metrics_get(project=project, refresh=refresh)
        if answer.data is None:
            return Response({"status": "computing"}, status=status.HTTP_202_ACCEPTED)
        meta = {
            "computed_at": answer.computed_at,
            "cached": answer.cached,
            "refreshing": answer.refreshing,
            "changes_since": answer.changes_since,
        }
        return Response({**answer.data, **meta})
