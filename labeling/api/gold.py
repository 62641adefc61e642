"""Gold management for project admins: the gold questions, and screening resets."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from labeling.api.access import project_for
from labeling.api.pagination import page_response
from labeling.api.projects import MemberOutput
from labeling.api.schema import paginated
from labeling.models import Role
from labeling.selectors.admin import member_list
from labeling.selectors.gold import gold_list, gold_solution_list
from labeling.services.gold.questions import screening_reset


class GoldAnnotatorOutput(serializers.Serializer):
    annotator = serializers.CharField()
    steps = serializers.IntegerField(help_text="Rated steps with a gold rating.")
    step_accuracy = serializers.FloatField(allow_null=True)
    first_error = serializers.IntegerField(allow_null=True)
    first_error_correct = serializers.BooleanField()


class GoldListApi(APIView):
    """The project's gold solutions with their gold ratings and each annotator's accuracy."""

    class Output(serializers.Serializer):
        class Meta:
            ref_name = "GoldRow"

        solution_id = serializers.IntegerField()
        problem_text = serializers.CharField()
        problem_source = serializers.CharField(allow_blank=True)
        generator = serializers.CharField(allow_blank=True)
        ratings = serializers.ListField(child=serializers.IntegerField(allow_null=True))
        first_error = serializers.IntegerField(allow_null=True)
        answers = serializers.IntegerField()
        step_accuracy = serializers.FloatField(allow_null=True)
        first_error_accuracy = serializers.FloatField(allow_null=True)
        annotators = GoldAnnotatorOutput(many=True)

    @extend_schema(
        operation_id="projects_gold_list", responses=paginated(Output, "PaginatedGoldRows")
    )
    def get(self, request, project_id: int):
        """A page of gold solutions, oldest first; the accuracies are computed for the page."""
        project = project_for(request, project_id, at_least=Role.ADMIN)
        return page_response(
            request,
            gold_solution_list(project=project),
            lambda page: self.Output(gold_list(project=project, solutions=page), many=True).data,
        )


class MemberScreeningResetApi(APIView):
    """Let a member who failed the screening retake it on gold questions they have not seen."""

    @extend_schema(request=None, responses=MemberOutput)
    def post(self, request, project_id: int, user_id: int):
        project = project_for(request, project_id, at_least=Role.ADMIN)
        membership = screening_reset(project=project, user_id=user_id)
        return Response(
            MemberOutput(
                member_list(project=project, viewer=request.user).get(pk=membership.pk)
            ).data
        )
