"""A solution's comment threads: reviewers, admins, and annotators on solutions they labeled."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import PermissionDenied
from rest_framework.response import Response
from rest_framework.views import APIView

from labeling.api import bounds
from labeling.models import Annotation, AnnotationStatus, Role, Solution
from labeling.selectors.labeling_page import ROLE_RANK
from labeling.selectors.review import comment_list
from labeling.services.review.comments import comment_create

from .common import CommentOutput, solution_for, validated_input


class StepQuery(serializers.Serializer):
    step = bounds.id_field(required=False, help_text="A step id: only the comments on it.")


class CommentListApi(APIView):
    """A solution's comment thread (and its steps'); `?step=<id>` for one step's thread.

    Reviewers and admins of the project; annotators on solutions they have labeled.
    """

    class Input(serializers.Serializer):
        class Meta:
            ref_name = "CommentCreateInput"

        body = serializers.CharField(max_length=10000)
        step_id = bounds.id_field(required=False, allow_null=True)

    def _solution(self, request, solution_id: int) -> Solution:
        solution = solution_for(request, solution_id, at_least=Role.ANNOTATOR)
        if ROLE_RANK[solution.project.my_role] >= ROLE_RANK[Role.REVIEWER]:
            return solution
        labeled = (
            Annotation.objects.filter(solution=solution, annotator=request.user)
            .exclude(status=AnnotationStatus.DISCARDED)
            .exists()
        )
        if not labeled:
            raise PermissionDenied("Annotators can comment only on solutions they labeled.")
        return solution

    @extend_schema(
        parameters=[StepQuery],
        responses=CommentOutput(many=True),
    )
    def get(self, request, solution_id: int):
        solution = self._solution(request, solution_id)
        query = StepQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        step_id = query.validated_data.get("step")
        reviewing = ROLE_RANK[solution.project.my_role] >= ROLE_RANK[Role.REVIEWER]
        annotator = None if reviewing else request.user
        return Response(comment_list(solution=solution, step_id=step_id, annotator=annotator))

    @extend_schema(request=Input, responses={201: CommentOutput})
    def post(self, request, solution_id: int):
        solution = self._solution(request, solution_id)
        data = validated_input(self.Input, request)
        comment = comment_create(solution=solution, author=request.user, **data)
        body = {
            "id": comment.id,
            "step_id": comment.step_id,
            "author": request.user.username,
            "body": comment.body,
            "review_id": None,
            "created_at": comment.created_at,
        }
        return Response(body, status=status.HTTP_201_CREATED)
