"""Explicit assignment of solutions to annotators (project admins)."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from labeling.api.access import project_for
from labeling.models import Role
from labeling.services.assignments import (
    STRATEGIES,
    assignment_clear,
    assignment_create,
    assignment_summary,
)


class AssignmentSummaryOutput(serializers.Serializer):
    user_id = serializers.IntegerField()
    username = serializers.CharField()
    assigned = serializers.IntegerField()
    submitted = serializers.IntegerField()


class AssignmentListApi(APIView):
    """GET: assigned and submitted per user. POST: assign solutions (a list, or every one
    matching a problem source and/or still open) to users by a strategy. DELETE: clear."""

    class CreateInput(serializers.Serializer):
        user_ids = serializers.ListField(child=serializers.IntegerField(), min_length=1)
        solution_ids = serializers.ListField(
            child=serializers.IntegerField(), required=False, max_length=100_000
        )
        source = serializers.CharField(required=False, allow_blank=True)
        only_open = serializers.BooleanField(default=True)
        strategy = serializers.ChoiceField(choices=STRATEGIES, default="round_robin")
        weights = serializers.ListField(child=serializers.FloatField(min_value=0), required=False)
        per_solution = serializers.IntegerField(min_value=1, max_value=50, required=False)

    class CreateOutput(serializers.Serializer):
        created = serializers.DictField(child=serializers.IntegerField())

    class ClearInput(serializers.Serializer):
        user_ids = serializers.ListField(child=serializers.IntegerField(), required=False)
        solution_ids = serializers.ListField(child=serializers.IntegerField(), required=False)

    @extend_schema(responses=AssignmentSummaryOutput(many=True))
    def get(self, request, project_id: int):
        project = project_for(request, project_id, at_least=Role.ADMIN)
        return Response(assignment_summary(project=project))

    @extend_schema(request=CreateInput, responses={201: CreateOutput})
    def post(self, request, project_id: int):
        project = project_for(request, project_id, at_least=Role.ADMIN)
        data = self.CreateInput(data=request.data)
        data.is_valid(raise_exception=True)
        created = assignment_create(project=project, created_by=request.user, **data.validated_data)
        body = {"created": {str(user): n for user, n in created.items()}}
        return Response(body, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=ClearInput,
        responses=serializers.DictField(child=serializers.IntegerField()),
    )
    def delete(self, request, project_id: int):
        project = project_for(request, project_id, at_least=Role.ADMIN)
        data = self.ClearInput(data=request.data)
        data.is_valid(raise_exception=True)
        return Response({"deleted": assignment_clear(project=project, **data.validated_data)})
