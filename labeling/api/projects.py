from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.exceptions import PermissionDenied
from rest_framework.response import Response
from rest_framework.views import APIView

from labeling.api import bounds
from labeling.api.access import project_for
from labeling.api.pagination import BoundedLimitOffsetPagination, page_response
from labeling.api.schema import paginated
from labeling.models import (
    STEP_TAG_MAX,
    Domain,
    LabelScale,
    Project,
    ProjectMembership,
    Role,
    StepSplit,
)
from labeling.selectors.admin import member_list
from labeling.selectors.labeling_page import project_list_for_user, solution_list
from labeling.services.people.accounts import member_add, member_role_set
from labeling.services.projects.delete import project_delete
from labeling.services.projects.edit import membership_remove, project_create, project_update
from labeling.services.projects.metrics import StatsAnswer, project_stats_get


class ProjectOutput(serializers.ModelSerializer):
    rating_values = serializers.ListField(child=serializers.IntegerField(), read_only=True)
    domain_sources = serializers.ListField(child=serializers.CharField(), read_only=True)
    role = serializers.SerializerMethodField()
    stats = serializers.SerializerMethodField()
    stats_computed_at = serializers.SerializerMethodField(
        help_text="When `stats` were counted: null when current (counted now, or a snapshot "
        "at the project's metrics version), else the time of the metrics snapshot they come "
        "from (a large project, or one served from its snapshot while people label)."
    )

    queue_refresh_since = serializers.DateTimeField(
        read_only=True,
        allow_null=True,
        help_text="Set while a changed overlap is being applied to the claim pool by a "
        "background job (since then); null once applied. Meanwhile solutions a raised overlap "
        "reopens may not be served yet.",
    )

    class Meta:
        model = Project
        fields = [
            "id",
            "name",
            "description",
            "domain",
            "domain_sources",
            "guidelines",
            "label_scale",
            "rating_values",
            "first_error_mode",
            "overlap",
            "queue_refresh_since",
            "lock_ttl_seconds",
            "show_suggestions",
            "allow_resegment",
            "auto_resolve",
            "gold_rate",
            "screening_size",
            "screening_pass_rate",
            "step_split",
            "step_split_regex",
            "step_split_tag",
            "role",
            "stats",
            "stats_computed_at",
            "created_at",
        ]

    def get_role(self, project: Project) -> str | None:
        request = self.context["request"]
        if request.user.is_staff:
            return Role.ADMIN
        return getattr(project, "my_role", None)

    def get_stats(self, project: Project) -> dict[str, int]:
        return self._stats(project).stats

    @extend_schema_field(serializers.DateTimeField(allow_null=True))
    def get_stats_computed_at(self, project: Project):
        return self._stats(project).computed_at

    def _stats(self, project: Project) -> StatsAnswer:
        """One look-up per project for both fields."""
        cache = self.context.setdefault("stats", {})
        if project.pk not in cache:
            cache[project.pk] = project_stats_get(project=project)
        return cache[project.pk]


class ProjectInput(serializers.Serializer):
    name = serializers.CharField(max_length=200)
    description = serializers.CharField(
        required=False, allow_blank=True, max_length=bounds.MAX_TEXT
    )
    domain = serializers.ChoiceField(choices=Domain.choices, required=False)
    guidelines = serializers.CharField(required=False, allow_blank=True, max_length=bounds.MAX_TEXT)
    label_scale = serializers.ChoiceField(choices=LabelScale.choices, required=False)
    first_error_mode = serializers.BooleanField(required=False)
    overlap = serializers.IntegerField(min_value=1, max_value=50, required=False)
    lock_ttl_seconds = serializers.IntegerField(min_value=60, max_value=7 * 86400, required=False)
    show_suggestions = serializers.BooleanField(required=False)
    allow_resegment = serializers.BooleanField(required=False)
    auto_resolve = serializers.BooleanField(required=False)
    gold_rate = serializers.FloatField(min_value=0, max_value=1, required=False)
    screening_size = serializers.IntegerField(min_value=0, max_value=1000, required=False)
    screening_pass_rate = serializers.FloatField(min_value=0, max_value=1, required=False)
    step_split = serializers.ChoiceField(choices=StepSplit.choices, required=False)
    step_split_regex = serializers.CharField(max_length=500, required=False, allow_blank=True)
    step_split_tag = serializers.CharField(
        max_length=STEP_TAG_MAX,
        required=False,
        allow_blank=True,
        help_text="The step_tags rule's tag: <extra_0> (Qwen PRM), ки (Math-Shepherd), <step>, "
        "or any literal.",
    )


class ProjectDeleteOutput(serializers.Serializer):
    id = serializers.IntegerField()
    deleted_at = serializers.DateTimeField(help_text="When it was marked deleted.")


class ProjectListApi(APIView):
    @extend_schema(
        operation_id="projects_list", responses=paginated(ProjectOutput, "PaginatedProjects")
    )
    def get(self, request):
        paginator = BoundedLimitOffsetPagination()
        page = paginator.paginate_queryset(project_list_for_user(user=request.user), request)
        data = ProjectOutput(page, many=True, context={"request": request}).data
        return paginator.get_paginated_response(data)

    @extend_schema(request=ProjectInput, responses={201: ProjectOutput})
    def post(self, request):
        if not request.user.is_staff:
            raise PermissionDenied("Only staff can create projects.")
        data = ProjectInput(data=request.data)
        data.is_valid(raise_exception=True)
        project = project_create(created_by=request.user, **data.validated_data)
        body = ProjectOutput(project, context={"request": request}).data
        return Response(body, status=status.HTTP_201_CREATED)


class ProjectDetailApi(APIView):
    @extend_schema(responses=ProjectOutput)
    def get(self, request, project_id: int):
        project = project_for(request, project_id)
        return Response(ProjectOutput(project, context={"request": request}).data)

    @extend_schema(request=ProjectInput(partial=True), responses=ProjectOutput)
    def patch(self, request, project_id: int):
        project = project_for(request, project_id, at_least=Role.ADMIN)
        data = ProjectInput(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        project = project_update(project=project, **data.validated_data)
        return Response(ProjectOutput(project, context={"request": request}).data)

    @extend_schema(responses={202: ProjectDeleteOutput})
    def delete(self, request, project_id: int):
        """Delete the project (its admins, staff). Answers 202 at once: from now on the project
        answers 410 `project_deleted` and is in no list; its rows are deleted in the background
        in batches (labeling.services.projects.delete)."""
        project = project_for(request, project_id, at_least=Role.ADMIN)
        project = project_delete(project=project)
        return Response(ProjectDeleteOutput(project).data, status=status.HTTP_202_ACCEPTED)


class MemberOutput(serializers.Serializer):
    user = serializers.SerializerMethodField()
    role = serializers.CharField()
    screening = serializers.CharField(help_text='"", "passed" or "failed"')
    screening_answered = serializers.IntegerField(
        default=0, help_text="Gold answers that count for the screening (since a reset)."
    )
    temporary_password = serializers.BooleanField(
        default=False,
        help_text="They still have the temporary password an admin made (not signed in yet).",
    )
    temporary_password_reissue = serializers.BooleanField(
        default=False,
        help_text="You may issue them a new temporary password "
        "(POST members/{user_id}/temporary-password/).",
    )

    def get_user(self, membership: ProjectMembership) -> dict:
        return {"id": membership.user_id, "username": membership.user.username}


class MemberInput(serializers.Serializer):
    username = serializers.CharField(max_length=150, help_text="Any case; spaces are trimmed.")
    role = serializers.ChoiceField(choices=Role.choices)


class MemberRoleInput(serializers.Serializer):
    role = serializers.ChoiceField(choices=Role.choices)


class MemberListApi(APIView):
    @extend_schema(
        operation_id="projects_members_list",
        responses=paginated(MemberOutput, "PaginatedMembers"),
    )
    def get(self, request, project_id: int):
        """The project's members by username, a page at a time (`limit` ≤ API_MAX_PAGE_SIZE)."""
        project = project_for(request, project_id, at_least=Role.ADMIN)
        members = member_list(project=project, viewer=request.user)
        return page_response(request, members, lambda page: MemberOutput(page, many=True).data)

    @extend_schema(request=MemberInput, responses={201: MemberOutput})
    def post(self, request, project_id: int):
        """Add an existing user. Someone already a member answers 409 (their role is changed
        with PATCH on the member, never by adding them again)."""
        project = project_for(request, project_id, at_least=Role.ADMIN)
        data = MemberInput(data=request.data)
        data.is_valid(raise_exception=True)
        membership = member_add(project=project, **data.validated_data)
        return Response(_member_output(project, request.user, membership), status=201)


def _member_output(project: Project, viewer, membership: ProjectMembership) -> dict:
    """The member as the members list shows it (its temporary-password fields read, not
    defaulted: an existing account added here may still hold its temporary password)."""
    return MemberOutput(member_list(project=project, viewer=viewer).get(pk=membership.pk)).data


class MemberDetailApi(APIView):
    @extend_schema(request=MemberRoleInput, responses=MemberOutput)
    def patch(self, request, project_id: int, user_id: int):
        project = project_for(request, project_id, at_least=Role.ADMIN)
        membership = get_object_or_404(ProjectMembership, project=project, user_id=user_id)
        data = MemberRoleInput(data=request.data)
        data.is_valid(raise_exception=True)
        membership = member_role_set(membership=membership, role=data.validated_data["role"])
        return Response(_member_output(project, request.user, membership))

    @extend_schema(responses={204: None})
    def delete(self, request, project_id: int, user_id: int):
        project = project_for(request, project_id, at_least=Role.ADMIN)
        membership_remove(project=project, user_id=user_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class SolutionRowOutput(serializers.Serializer):
    id = serializers.IntegerField()
    problem_text = serializers.CharField(source="problem.text")
    generator = serializers.CharField()
    steps_count = serializers.IntegerField()
    submitted_count = serializers.IntegerField()
    answer_correct = serializers.BooleanField(allow_null=True)


class SolutionListApi(APIView):
    """Solutions of a project, for its admins and reviewers."""

    @extend_schema(
        operation_id="solutions_list",
        responses=paginated(SolutionRowOutput, "PaginatedSolutionRows"),
    )
    def get(self, request, project_id: int):
        project = project_for(request, project_id, at_least=Role.REVIEWER)
        paginator = BoundedLimitOffsetPagination()
        page = paginator.paginate_queryset(solution_list(project=project), request)
        return paginator.get_paginated_response(SolutionRowOutput(page, many=True).data)
