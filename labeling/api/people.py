"""People: accounts made by project admins, invite links, the staff's list of all users."""

from django.contrib.auth import login
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import exceptions, serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from labeling.api.access import project_for
from labeling.api.auth import PASSWORD_MAX, user_output
from labeling.api.csrf import CsrfRequired
from labeling.api.links import absolute_link
from labeling.api.projects import MemberOutput
from labeling.api.throttles import LoginIpThrottle, LoginUsernameThrottle, PasswordIssueThrottle
from labeling.errors import NotAllowed
from labeling.models import Invite, Role
from labeling.selectors.admin import member_list
from labeling.selectors.people import invite_list_pending, user_search
from labeling.services.people.accounts import (
    INVITE_DAYS_DEFAULT,
    INVITE_DAYS_MAX,
    invite_accept,
    invite_create,
    invite_revoke,
    invite_usable,
    project_user_create,
)
from labeling.services.people.temporary_passwords import temporary_password_reissue

TOKEN_MAX = 128


class _Throttled:
    """Endpoints anyone may call (an invite link): throttled per IP (and per username)."""

    throttle_classes = [LoginIpThrottle, LoginUsernameThrottle]

    def throttled(self, request, wait):
        seconds = max(1, round(wait or 1))
        raise exceptions.Throttled(
            wait=seconds, detail=f"Too many attempts. Try again in {seconds} seconds."
        )


class ProjectUserCreateApi(APIView):
    """Make an account and add it to the project. The server makes a temporary password, shown
    in this reply only; its owner must change it at first sign-in."""

    response_reflects_secret = True  # never gzipped (BREACH): annotate/compression.py

    class ProjectUserCreateInput(serializers.Serializer):
        username = serializers.CharField(max_length=150)
        email = serializers.EmailField(max_length=254, required=False, allow_blank=True, default="")
        role = serializers.ChoiceField(choices=Role.choices)

    @extend_schema(
        request=ProjectUserCreateInput,
        responses={
            201: inline_serializer(
                "CreatedUserOutput",
                {
                    "member": MemberOutput(),
                    "temporary_password": serializers.CharField(
                        help_text="Shown only in this reply."
                    ),
                },
            )
        },
    )
    def post(self, request, project_id: int):
        project = project_for(request, project_id, at_least=Role.ADMIN)
        data = self.ProjectUserCreateInput(data=request.data)
        data.is_valid(raise_exception=True)
        created = project_user_create(
            project=project, created_by=request.user, **data.validated_data
        )
        created.membership.temporary_password = True  # as member_list reads it
        # A new account of this project only, made by one of its admins: they may issue it a
        # new temporary password (the rules of temporary_password_reissue all hold).
        created.membership.temporary_password_reissue = True
        body = {
            "member": MemberOutput(created.membership).data,
            "temporary_password": created.password,
        }
        return Response(body, status=status.HTTP_201_CREATED)


class MemberTemporaryPasswordApi(APIView):
    """Issue a new temporary password to a member who never chose their own (the first one was
    lost), shown in this reply only. The old one, their sessions and their API tokens stop
    working. Refused for accounts that chose a password ("Forgot password?" is theirs), staff,
    superusers, deactivated accounts and yourself, and unless you are an admin of every project
    they are in (staff may always). Throttled per admin."""

    response_reflects_secret = True  # never gzipped (BREACH): annotate/compression.py
    throttle_classes = [PasswordIssueThrottle]

    def throttled(self, request, wait):
        seconds = max(1, round(wait or 1))
        raise exceptions.Throttled(
            wait=seconds,
            detail=f"Too many new passwords issued. Try again in {seconds} seconds.",
        )

    @extend_schema(
        request=None,
        responses=inline_serializer(
            "IssuedPasswordOutput",
            {
                "member": MemberOutput(),
                "temporary_password": serializers.CharField(help_text="Shown only in this reply."),
            },
        ),
    )
    def post(self, request, project_id: int, user_id: int):
        project = project_for(request, project_id, at_least=Role.ADMIN)
        issued = temporary_password_reissue(
            project=project, user_id=user_id, issued_by=request.user
        )
        member = member_list(project=project, viewer=request.user).get(pk=issued.membership.pk)
        body = {"member": MemberOutput(member).data, "temporary_password": issued.password}
        return Response(body)


class InviteOutput(serializers.Serializer):
    id = serializers.IntegerField()
    role = serializers.CharField()
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField()
    created_by = serializers.CharField(source="created_by.username", default=None)


class InviteListApi(APIView):
    """A project's pending invite links (not used, not withdrawn, not expired); make one."""

    response_reflects_secret = True  # never gzipped (BREACH): annotate/compression.py

    class InviteListInput(serializers.Serializer):
        role = serializers.ChoiceField(choices=Role.choices)
        days = serializers.IntegerField(
            min_value=1,
            max_value=INVITE_DAYS_MAX,
            required=False,
            default=INVITE_DAYS_DEFAULT,
            help_text="Days until the link expires.",
        )

    @extend_schema(responses=InviteOutput(many=True))
    def get(self, request, project_id: int):
        project = project_for(request, project_id, at_least=Role.ADMIN)
        return Response(InviteOutput(invite_list_pending(project=project), many=True).data)

    @extend_schema(
        request=InviteListInput,
        responses={
            201: inline_serializer(
                "CreatedInviteOutput",
                {
                    "invite": InviteOutput(),
                    "url": serializers.CharField(help_text="The link; shown only in this reply."),
                },
            )
        },
    )
    def post(self, request, project_id: int):
        project = project_for(request, project_id, at_least=Role.ADMIN)
        data = self.InviteListInput(data=request.data)
        data.is_valid(raise_exception=True)
        created = invite_create(project=project, created_by=request.user, **data.validated_data)
        url = absolute_link(request, f"/invite/{created.token}")
        body = {"invite": InviteOutput(created.invite).data, "url": url}
        return Response(body, status=status.HTTP_201_CREATED)


class InviteDetailApi(APIView):
    @extend_schema(responses={204: None})
    def delete(self, request, project_id: int, invite_id: int):
        """Withdraw a pending invite: its link stops working."""
        project = project_for(request, project_id, at_least=Role.ADMIN)
        invite_revoke(invite=get_object_or_404(Invite, project=project, pk=invite_id))
        return Response(status=status.HTTP_204_NO_CONTENT)


class InvitePublicOutput(serializers.Serializer):
    project = serializers.CharField(source="project.name")
    role = serializers.CharField()
    expires_at = serializers.DateTimeField()


class InviteOpenApi(_Throttled, APIView):
    """What an invite link is for (project and role), for the page it opens; 404 for a link
    that never existed, 410 for one used, withdrawn or expired."""

    response_reflects_secret = True  # never gzipped (BREACH): annotate/compression.py

    permission_classes = [AllowAny]

    @extend_schema(responses=InvitePublicOutput)
    def get(self, request, token: str):
        return Response(InvitePublicOutput(invite_usable(token[:TOKEN_MAX])).data)


class InviteAcceptApi(_Throttled, APIView):
    """Make the invitee's account (username and password of their choice), add it to the
    project with the invite's role, and sign them in."""

    response_reflects_secret = True  # never gzipped (BREACH): annotate/compression.py

    permission_classes = [CsrfRequired]  # anonymous, yet a session write

    class InviteAcceptInput(serializers.Serializer):
        username = serializers.CharField(max_length=150)
        password = serializers.CharField(max_length=PASSWORD_MAX)

    @extend_schema(
        request=InviteAcceptInput,
        responses=inline_serializer(
            "InviteAcceptOutput",
            {"user": serializers.DictField(), "project_id": serializers.IntegerField()},
        ),
    )
    def post(self, request, token: str):
        if request.user.is_authenticated:
            raise NotAllowed("Sign out first: an invite makes a new account.")
        data = self.InviteAcceptInput(data=request.data)
        data.is_valid(raise_exception=True)
        user, invite = invite_accept(token=token[:TOKEN_MAX], **data.validated_data)
        login(request, user, backend="labeling.accounts.auth_backend.CaseInsensitiveModelBackend")
        return Response({"user": user_output(user), "project_id": invite.project_id})


class UserListOutput(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    email = serializers.CharField()


class UserListApi(APIView):
    """Every account, for staff (to add existing users to a project): at most 50, `q` filters
    by a part of the username or e-mail."""

    @extend_schema(responses=UserListOutput(many=True))
    def get(self, request):
        if not request.user.is_staff:
            raise NotAllowed("Only staff see the list of all users.")
        q = request.query_params.get("q", "")[:150]
        return Response(UserListOutput(user_search(q=q), many=True).data)
