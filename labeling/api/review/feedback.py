"""The annotator's side of review: the reviews of their own annotation and their rejections."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from labeling.api.access import not_found_unless_purging, project_for
from labeling.api.pagination import page_response
from labeling.api.schema import paginated
from labeling.selectors.labeling_page import annotation_get_for_user
from labeling.selectors.review import annotation_feedback, rejection_list_for_user
from labeling.selectors.review.feedback import REWORK_DRAFT

from .common import CommentOutput, ReviewActionOutput


class FeedbackOutput(serializers.Serializer):
    annotation_id = serializers.IntegerField()
    status = serializers.CharField()
    revises_id = serializers.IntegerField(allow_null=True)
    rework_id = serializers.IntegerField(allow_null=True)
    rework_status = serializers.CharField(allow_null=True)
    reviews = ReviewActionOutput(many=True)
    comments = CommentOutput(many=True)


class AnnotationFeedbackApi(APIView):
    """The annotator's own annotation: reviews of it (rejections with the reviewer's
    comment), reviews of the one it reworks, and the solution's comments."""

    @extend_schema(responses=FeedbackOutput)
    def get(self, request, annotation_id: int):
        annotation = annotation_get_for_user(annotation_id=annotation_id, user=request.user)
        if annotation is None:
            not_found_unless_purging(request, "annotation")
        project_for(request, annotation.solution.project_id)
        return Response(annotation_feedback(annotation=annotation))


class RejectionOutput(serializers.Serializer):
    id = serializers.IntegerField()
    solution_id = serializers.IntegerField()
    comment = serializers.CharField(allow_null=True)
    reviewer = serializers.CharField(allow_null=True)
    rejected_at = serializers.DateTimeField(allow_null=True)
    rework_id = serializers.IntegerField(allow_null=True)
    rework_status = serializers.CharField(allow_null=True)


class MyRejectionsApi(APIView):
    """The requesting user's rejected annotations in the project, with the comments."""

    class FilterInput(serializers.Serializer):
        rework = serializers.ChoiceField(
            choices=[REWORK_DRAFT],
            required=False,
            help_text="`draft`: only the rejections the caller still has to rework (their "
            "rework is a draft), what the labeling page lists.",
        )

    @extend_schema(
        operation_id="projects_rejections_list",
        parameters=[FilterInput],
        responses=paginated(RejectionOutput, "PaginatedRejections"),
    )
    def get(self, request, project_id: int):
        """Newest first, a page at a time."""
        project = project_for(request, project_id)
        filters = self.FilterInput(data=request.query_params)
        filters.is_valid(raise_exception=True)
        rows = rejection_list_for_user(
            project=project, user=request.user, rework=filters.validated_data.get("rework")
        )
        return page_response(request, rows, lambda page: RejectionOutput(page, many=True).data)
