"""The review queue: solutions most in need of review first, with their reasons, filters
and per-reason counts."""

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.views import APIView

from labeling.api import bounds
from labeling.api.access import project_for
from labeling.api.pagination import CappedLimitOffsetPagination
from labeling.models import PROBLEM_DOMAINS, Role, Solution, problem_domain
from labeling.selectors.review import (
    QUEUE_STATES,
    REASONS,
    item_reasons,
    review_annotator_list,
    review_queue,
    review_queue_counts_bounded,
)


class QueueItemOutput(serializers.Serializer):
    id = serializers.IntegerField()
    problem_id = serializers.IntegerField()
    problem_text = serializers.CharField(source="problem.text")
    problem_source = serializers.CharField(source="problem.source")
    problem_domain = serializers.SerializerMethodField()
    generator = serializers.CharField()
    is_gold = serializers.BooleanField()
    reasons = serializers.SerializerMethodField()
    reason = serializers.SerializerMethodField()
    annotations_submitted = serializers.IntegerField()
    last_submitted_at = serializers.DateTimeField(allow_null=True)
    resolution_id = serializers.IntegerField(allow_null=True)
    resolution_provenance = serializers.CharField(allow_null=True)

    def get_problem_domain(self, solution: Solution) -> str:
        return problem_domain(solution.problem.domain, self.context["project"])

    def get_reasons(self, solution: Solution) -> list[str]:
        return item_reasons(solution)

    def get_reason(self, solution: Solution) -> str:
        reasons = item_reasons(solution)
        return reasons[0] if reasons else "rest"


class QueueCountsOutput(serializers.Serializer):
    """Queued solutions per reason, each counted up to 1,000 (`counts_capped` names those)."""

    total = serializers.IntegerField()
    disagreement = serializers.IntegerField()
    unsure = serializers.IntegerField()
    gold_failure = serializers.IntegerField()
    auto_conflict = serializers.IntegerField()
    single_annotator = serializers.IntegerField(
        help_text="One submitted annotation: nobody agreed or disagreed with it."
    )
    rest = serializers.IntegerField(
        help_text="Two or more annotators who agree, no flag (counted to the cap like the others)."
    )


_FILTERS = ("annotator", "source", "submitted_from", "submitted_to", "reason", "domain")


class ReviewQueueApi(APIView):
    """Solutions with submitted labels, most in need of review first, with the reasons."""

    class FilterInput(serializers.Serializer):
        annotator = bounds.id_field(required=False, help_text="User id of a submitter.")
        source = serializers.CharField(
            required=False, max_length=500, help_text="The problem's source."
        )
        domain = serializers.ChoiceField(
            choices=PROBLEM_DOMAINS, required=False, help_text="The problem's domain."
        )
        submitted_from = serializers.DateTimeField(required=False)
        submitted_to = serializers.DateTimeField(required=False)
        state = serializers.ChoiceField(choices=QUEUE_STATES, default="unresolved")
        reason = serializers.ChoiceField(choices=[*REASONS, "rest"], required=False)

    @extend_schema(
        parameters=[FilterInput],
        responses=inline_serializer(
            "ReviewQueuePage",
            {
                "count": serializers.IntegerField(
                    help_text="Matching solutions, counted up to 1,000 or to the end of the "
                    "page asked for (see count_capped)."
                ),
                "count_capped": serializers.BooleanField(help_text="More than `count` match."),
                "next": serializers.URLField(allow_null=True),
                "previous": serializers.URLField(allow_null=True),
                "results": QueueItemOutput(many=True),
                "counts": QueueCountsOutput(),
                "counts_capped": serializers.ListField(
                    child=serializers.CharField(),
                    help_text="The names in `counts` that were counted to the cap (1,000): "
                    "that many or more.",
                ),
                "annotators": inline_serializer(
                    "QueueAnnotator",
                    {"id": serializers.IntegerField(), "username": serializers.CharField()},
                    many=True,
                    help_text="Everyone the `annotator` filter can name (submitters).",
                ),
            },
        ),
    )
    def get(self, request, project_id: int):
        project = project_for(request, project_id, at_least=Role.REVIEWER)
        filters = self.FilterInput(data=request.query_params)
        filters.is_valid(raise_exception=True)
        f = filters.validated_data
        qs = review_queue(
            project=project,
            annotator_id=f.get("annotator"),
            source=f.get("source"),
            submitted_from=f.get("submitted_from"),
            submitted_to=f.get("submitted_to"),
            state=f["state"],
            reason=f.get("reason"),
            domain=f.get("domain"),
        )
        paginator = CappedLimitOffsetPagination()
        page = paginator.paginate_queryset(qs, request)
        response = paginator.get_paginated_response(
            QueueItemOutput(page, many=True, context={"project": project}).data
        )
        filtered = any(f.get(name) is not None for name in _FILTERS)
        # The page's own count is the unfiltered queue's total when it stopped at the cap too.
        total = None
        if not filtered and paginator.bound == paginator.cap:
            total = (paginator.count, paginator.count_capped)
        counts, capped = review_queue_counts_bounded(
            project=project, state=f["state"], cap=paginator.cap, total=total
        )
        response.data["counts"] = counts
        response.data["counts_capped"] = capped
        response.data["annotators"] = review_annotator_list(project=project)
        return response
