"""Explicit assignment of solutions to annotators (project admins)."""

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from labeling.api import bounds
from labeling.api.access import project_for
from labeling.api.pagination import page_response
from labeling.api.schema import paginated
from labeling.models import Role
from labeling.services.queue.assignments import (
    STRATEGIES,
    assignment_clear,
    assignment_create,
    assignment_plan,
    assignment_summary,
)
from labeling.services.queue.source_counts import source_counts_get


class AssignmentSummaryOutput(serializers.Serializer):
    user_id = serializers.IntegerField()
    username = serializers.CharField()
    assigned = serializers.IntegerField()
    submitted = serializers.IntegerField()


class AssignmentListApi(APIView):
    """GET: assigned and submitted per user. POST: assign solutions (a list, or every one
    matching a problem source, still open and/or unassigned, the first `limit` of them) to
    users by a strategy. DELETE: clear."""

    class CreateInput(serializers.Serializer):
        user_ids = bounds.ids_field(min_length=1, max_length=1000)
        solution_ids = bounds.ids_field(required=False, max_length=100_000)
        source = serializers.CharField(required=False, allow_blank=True, max_length=500)
        only_open = serializers.BooleanField(default=True)
        only_unassigned = serializers.BooleanField(default=False)
        limit = serializers.IntegerField(min_value=1, max_value=10_000_000, required=False)
        strategy = serializers.ChoiceField(choices=STRATEGIES, default="round_robin")
        weights = serializers.ListField(
            child=serializers.FloatField(min_value=0, max_value=1e6),
            required=False,
            max_length=1000,
        )
        per_solution = serializers.IntegerField(min_value=1, max_value=50, required=False)

    class CreateOutput(serializers.Serializer):
        created = serializers.DictField(child=serializers.IntegerField())

    class ClearInput(serializers.Serializer):
        user_ids = bounds.ids_field(required=False, max_length=1000)
        solution_ids = bounds.ids_field(required=False, max_length=100_000)

    @extend_schema(
        operation_id="projects_assignments_list",
        responses=paginated(AssignmentSummaryOutput, "PaginatedAssignmentSummary"),
    )
    def get(self, request, project_id: int):
        """Per assigned user, by username, a page at a time."""
        project = project_for(request, project_id, at_least=Role.ADMIN)
        rows = assignment_summary(project=project)
        return page_response(
            request, rows, lambda page: AssignmentSummaryOutput(page, many=True).data
        )

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
        responses=inline_serializer(
            "AssignmentsCleared",
            {"deleted": serializers.IntegerField(help_text="How many assignments were removed.")},
        ),
    )
    def delete(self, request, project_id: int):
        project = project_for(request, project_id, at_least=Role.ADMIN)
        data = self.ClearInput(data=request.data)
        data.is_valid(raise_exception=True)
        return Response({"deleted": assignment_clear(project=project, **data.validated_data)})


class AssignmentPreviewApi(APIView):
    """What POST .../assignments/ would do with the same body, without doing it: how many
    solutions the filters choose and how many new assignments each user would get."""

    class Output(serializers.Serializer):
        class Meta:
            ref_name = "AssignmentPreview"

        solutions = serializers.IntegerField()
        new = serializers.DictField(child=serializers.IntegerField())

    @extend_schema(request=AssignmentListApi.CreateInput, responses=Output)
    def post(self, request, project_id: int):
        project = project_for(request, project_id, at_least=Role.ADMIN)
        data = AssignmentListApi.CreateInput(data=request.data)
        data.is_valid(raise_exception=True)
        plan = assignment_plan(project=project, **data.validated_data)
        per_user = plan.per_user(list(dict.fromkeys(data.validated_data["user_ids"])))
        return Response(
            {"solutions": plan.solutions, "new": {str(u): n for u, n in per_user.items()}}
        )


class ProblemSourceListApi(APIView):
    """Problem sources of the project's solutions with counts (all, open, unassigned): counted
    now in a small project, else stored (labeling.services.queue.source_counts): `as_of` says
    when they were counted when something changed since (null: exact), `refreshing` that a
    count is under way (a large project counted never yet has no rows until it is done)."""

    class Output(serializers.Serializer):
        class Meta:
            ref_name = "ProblemSource"

        source = serializers.CharField(source="problem__source")
        solutions = serializers.IntegerField()
        open = serializers.IntegerField()
        unassigned = serializers.IntegerField()

    @extend_schema(
        operation_id="projects_problem_sources_list",
        responses=paginated(
            Output,
            "PaginatedProblemSources",
            as_of=serializers.DateTimeField(
                allow_null=True,
                help_text="When the counts were taken, if anything they count changed since; "
                "null: exact.",
            ),
            refreshing=serializers.BooleanField(
                help_text="A count is queued or running; ask again for newer numbers."
            ),
        ),
    )
    def get(self, request, project_id: int):
        project = project_for(request, project_id, at_least=Role.REVIEWER)
        answer = source_counts_get(project=project)
        response = page_response(
            request, answer.rows, lambda page: self.Output(page, many=True).data
        )
        response.data["as_of"] = answer.as_of
        response.data["refreshing"] = answer.refreshing
        return response
