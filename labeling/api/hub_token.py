"""The signed-in user's own Hugging Face token (labeling.services.people.hub_tokens): read whether
one is set (never the token: its last four characters at most), save or replace it, remove it."""

from django.conf import settings
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from labeling.api.throttles import HubTokenThrottle
from labeling.hub.connection import NONE, SERVER, USER
from labeling.models import HubToken
from labeling.services.people.hub_tokens import (
    SERVER_LISTED,
    TOKEN_MAX,
    TOKEN_MIN,
    hub_token_delete,
    hub_token_set,
    hub_token_uses,
    server_token_repos,
)


class HubTokenOutput(serializers.Serializer):
    set = serializers.BooleanField(help_text="Whether you saved a token.")
    last4 = serializers.CharField(help_text="Its last four characters; empty when none is set.")
    hub_user = serializers.CharField(
        help_text="The Hub account the token belongs to, when it was checked (whoami)."
    )
    checked_at = serializers.DateTimeField(allow_null=True)
    updated_at = serializers.DateTimeField(allow_null=True)
    server_token = serializers.BooleanField(
        help_text="Whether the server has a token of its own (HF_TOKEN)."
    )
    uses = serializers.ChoiceField(
        choices=[USER, SERVER, SERVER_LISTED, NONE],
        help_text="Whose token your pushes and Hub imports use now: user (yours), server (the "
        "server's, for any repo: staff), server_listed (the server's, only for repos under "
        "server_repos; none elsewhere), or none (public datasets only; no pushes).",
    )
    server_repos = serializers.ListField(
        child=serializers.CharField(),
        help_text="The repo prefixes (owner/ or owner/name-prefix, lower case) the server's "
        "token covers for users who saved no token (HUB_SERVER_TOKEN_REPOS); staff: any repo.",
    )


def hub_token_output(user) -> dict:
    saved = HubToken.objects.filter(user=user).first()
    server = bool(getattr(settings, "HF_TOKEN", ""))
    return {
        "set": saved is not None,
        "last4": saved.last4 if saved else "",
        "hub_user": saved.hub_user if saved else "",
        "checked_at": saved.checked_at if saved else None,
        "updated_at": saved.updated_at if saved else None,
        "server_token": server,
        "uses": hub_token_uses(user=user),
        "server_repos": list(server_token_repos()) if server else [],
    }


class HubTokenApi(APIView):
    """Your Hugging Face token: pushes to the Hub and Hub imports you start use it, else the
    server's HF_TOKEN (staff: any repo; others: the repos under HUB_SERVER_TOKEN_REPOS only),
    else none. Stored encrypted; no answer ever holds it."""

    response_reflects_secret = True  # never gzipped (BREACH): annotate/compression.py

    class HubTokenInput(serializers.Serializer):
        token = serializers.CharField(
            min_length=TOKEN_MIN,
            max_length=TOKEN_MAX,
            trim_whitespace=True,
            write_only=True,
            help_text="A Hugging Face access token (hf_…): write access for pushes.",
        )
        check = serializers.BooleanField(
            default=True,
            help_text="Ask the Hub's whoami first (refused: 400, nothing saved); false saves "
            "it unchecked (a Hub that cannot be reached from the server).",
        )

    def get_throttles(self):
        return [HubTokenThrottle()] if self.request.method == "PUT" else []

    @extend_schema(operation_id="auth_hub_token_retrieve", responses=HubTokenOutput)
    def get(self, request):
        return Response(HubTokenOutput(hub_token_output(request.user)).data)

    @extend_schema(
        operation_id="auth_hub_token_update", request=HubTokenInput, responses=HubTokenOutput
    )
    def put(self, request):
        """Save your token, replacing the one saved before."""
        data = self.HubTokenInput(data=request.data)
        data.is_valid(raise_exception=True)
        hub_token_set(user=request.user, **data.validated_data)
        return Response(HubTokenOutput(hub_token_output(request.user)).data)

    @extend_schema(operation_id="auth_hub_token_destroy", request=None, responses={204: None})
    def delete(self, request):
        """Remove your token (nothing to remove is fine): from now on `uses` says which."""
        hub_token_delete(user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
