from django.contrib.auth import authenticate, login, logout, update_session_auth_hash
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import exceptions, serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from labeling.api.csrf import CsrfRequired
from labeling.api.links import absolute_link
from labeling.api.pagination import page_response
from labeling.api.permissions import SESSION_FLAG, session_must_change
from labeling.api.schema import paginated
from labeling.api.throttles import LoginIpThrottle, LoginUsernameThrottle
from labeling.errors import NotAllowed, ValidationFailed
from labeling.models import ApiToken
from labeling.selectors.tokens import token_get_for_user, token_list_for_user
from labeling.services.people.accounts import (
    must_change_password,
    password_change,
    password_reset_confirm,
    password_reset_send,
)
from labeling.services.people.tokens import (
    EXPIRY_MAX_DAYS,
    PASSWORD_LOGIN_EXPIRY_DAYS,
    PASSWORD_LOGIN_NAME,
    token_create,
    token_revoke,
)

PASSWORD_MAX = 256  # characters; Django's validators and hashers get nothing longer


class UserOutput(serializers.Serializer):
    authenticated = serializers.BooleanField(
        help_text="false: nobody is signed in (the other fields are empty)."
    )
    id = serializers.IntegerField(allow_null=True)
    username = serializers.CharField()
    is_staff = serializers.BooleanField()
    must_change_password = serializers.BooleanField(
        help_text="Signed in with a temporary password: only a password change may be written."
    )


def user_output(user, *, must_change: bool = False) -> dict:
    if not user.is_authenticated:
        return {
            "authenticated": False,
            "id": None,
            "username": "",
            "is_staff": False,
            "must_change_password": False,
        }
    return {
        "authenticated": True,
        "id": user.pk,
        "username": user.username,
        "is_staff": user.is_staff,
        "must_change_password": must_change,
    }


class Credentials(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=PASSWORD_MAX, style={"input_type": "password"})


def _authenticate(request, data: dict):
    creds = Credentials(data=data)
    creds.is_valid(raise_exception=True)
    user = authenticate(request, **creds.validated_data)
    if user is None:
        raise ValidationFailed("Wrong username or password.", field="password")
    return user


class _PasswordThrottled:
    """Sign-in endpoints: throttled per IP and per username, with a message a person can read."""

    throttle_classes = [LoginIpThrottle, LoginUsernameThrottle]

    def throttled(self, request, wait):
        seconds = max(1, round(wait or 1))
        raise exceptions.Throttled(
            wait=seconds,
            detail=f"Too many sign-in attempts. Try again in {seconds} seconds.",
        )


class MeApi(APIView):
    """Who is signed in. Answers 200 to everyone (`authenticated: false` when nobody is), so the
    app's first request of a signed-out visit is not an error in the browser's console."""

    permission_classes = [AllowAny]

    @extend_schema(responses=UserOutput)
    def get(self, request):
        return Response(user_output(request.user, must_change=session_must_change(request)))


class LoginApi(_PasswordThrottled, APIView):
    response_reflects_secret = True  # never gzipped (BREACH): annotate/compression.py
    permission_classes = [CsrfRequired]  # anonymous, yet a session write

    @extend_schema(request=Credentials, responses=UserOutput)
    def post(self, request):
        user = _authenticate(request, request.data)
        login(request, user)
        must_change = must_change_password(user=user)
        if must_change:
            request.session[SESSION_FLAG] = True
        return Response(user_output(user, must_change=must_change))


class PasswordChangeApi(APIView):
    """Change the signed-in user's password (Django's password validators apply). The session
    stays signed in; a temporary password's restriction ends."""

    response_reflects_secret = True  # never gzipped (BREACH): annotate/compression.py

    allowed_with_temporary_password = True

    class PasswordChangeInput(serializers.Serializer):
        old_password = serializers.CharField(max_length=PASSWORD_MAX)
        new_password = serializers.CharField(max_length=PASSWORD_MAX)

    @extend_schema(request=PasswordChangeInput, responses=UserOutput)
    def post(self, request):
        data = self.PasswordChangeInput(data=request.data)
        data.is_valid(raise_exception=True)
        user = password_change(user=request.user, **data.validated_data)
        if request.auth is None:  # a session: keep it signed in with the new password
            update_session_auth_hash(request, user)
            request.session.pop(SESSION_FLAG, None)
        return Response(user_output(user))


class PasswordResetApi(_PasswordThrottled, APIView):
    """E-mail a password reset link to the accounts with this address. The answer is 204
    whether or not any has it (it does not tell which addresses exist)."""

    permission_classes = [CsrfRequired]  # anonymous, yet a session write

    class PasswordResetInput(serializers.Serializer):
        email = serializers.EmailField(max_length=254)

    @extend_schema(request=PasswordResetInput, responses={204: None})
    def post(self, request):
        data = self.PasswordResetInput(data=request.data)
        data.is_valid(raise_exception=True)
        password_reset_send(
            email=data.validated_data["email"], base_url=absolute_link(request, "/")
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


class PasswordResetConfirmApi(_PasswordThrottled, APIView):
    """Set a new password with the uid and token of an e-mailed link (410 when the link is no
    longer valid: used, or older than PASSWORD_RESET_TIMEOUT)."""

    response_reflects_secret = True  # never gzipped (BREACH): annotate/compression.py

    permission_classes = [CsrfRequired]  # anonymous, yet a session write

    class PasswordResetConfirmInput(serializers.Serializer):
        uid = serializers.CharField(max_length=64)
        token = serializers.CharField(max_length=128)
        new_password = serializers.CharField(max_length=PASSWORD_MAX)

    @extend_schema(request=PasswordResetConfirmInput, responses={204: None})
    def post(self, request):
        data = self.PasswordResetConfirmInput(data=request.data)
        data.is_valid(raise_exception=True)
        password_reset_confirm(**data.validated_data)
        return Response(status=status.HTTP_204_NO_CONTENT)


class LogoutApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(request=None, responses={204: None})
    def post(self, request):
        logout(request)
        return Response(status=status.HTTP_204_NO_CONTENT)


class PasswordTokenInput(Credentials):
    name = serializers.CharField(
        max_length=100, required=False, default=PASSWORD_LOGIN_NAME, help_text="The token's name."
    )
    expires_in_days = serializers.IntegerField(
        min_value=1,
        max_value=EXPIRY_MAX_DAYS,
        allow_null=True,
        required=False,
        default=PASSWORD_LOGIN_EXPIRY_DAYS,
        help_text=f"Days until it expires (default {PASSWORD_LOGIN_EXPIRY_DAYS}); null: never.",
    )


class TokenApi(_PasswordThrottled, APIView):
    """Exchange a username and password for a new API token (for scripts).

    Every call creates another token (named "API token (password login)" unless `name` says
    otherwise, expiring in 30 days unless `expires_in_days` says otherwise): only hashes are
    stored, so an existing token cannot be handed out again.
    """

    response_reflects_secret = True  # never gzipped (BREACH): annotate/compression.py

    permission_classes = [AllowAny]
    authentication_classes: list = []

    @extend_schema(
        request=PasswordTokenInput,
        responses=inline_serializer("TokenOutput", {"token": serializers.CharField()}),
    )
    def post(self, request):
        user = _authenticate(request, request.data)
        if must_change_password(user=user):
            raise NotAllowed("Sign in to steplab and change your temporary password first.")
        data = PasswordTokenInput(data=request.data)
        data.is_valid(raise_exception=True)
        new = token_create(
            user=user,
            name=data.validated_data["name"],
            expires_in_days=data.validated_data["expires_in_days"],
        )
        return Response({"token": new.key})


class ApiTokenOutput(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    prefix = serializers.CharField(help_text="The secret's first 8 characters, to tell it apart.")
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField(allow_null=True, help_text="null: never expires.")
    last_used_at = serializers.DateTimeField(
        allow_null=True, help_text="Accurate to a minute; null: never used."
    )
    expired = serializers.SerializerMethodField()

    def get_expired(self, token: ApiToken) -> bool:
        return token.is_expired()


class ApiTokenCreatedOutput(ApiTokenOutput):
    token = serializers.CharField(help_text="The secret; shown only in this reply.")


class MyTokenListApi(APIView):
    """The signed-in user's API tokens: list them (never the secret), create one."""

    response_reflects_secret = True  # never gzipped (BREACH): annotate/compression.py

    class Input(serializers.Serializer):
        name = serializers.CharField(max_length=100, help_text="What the token is for.")
        expires_in_days = serializers.IntegerField(
            min_value=1,
            max_value=EXPIRY_MAX_DAYS,
            allow_null=True,
            required=False,
            default=None,
            help_text="Days until it expires; null or absent: never. A token made with a "
            "token expires no later than that token, and is revoked with it.",
        )

    @extend_schema(
        operation_id="auth_tokens_list", responses=paginated(ApiTokenOutput, "PaginatedApiTokens")
    )
    def get(self, request):
        tokens = token_list_for_user(user=request.user)
        return page_response(request, tokens, lambda page: ApiTokenOutput(page, many=True).data)

    @extend_schema(request=Input, responses={201: ApiTokenCreatedOutput})
    def post(self, request):
        """Create a token; the secret is in this reply only. Other tokens keep working."""
        data = self.Input(data=request.data)
        data.is_valid(raise_exception=True)
        parent = request.auth if isinstance(request.auth, ApiToken) else None
        new = token_create(user=request.user, minted_by=parent, **data.validated_data)
        return Response(
            {**ApiTokenOutput(new.token).data, "token": new.key}, status=status.HTTP_201_CREATED
        )


class MyTokenDetailApi(APIView):
    @extend_schema(request=None, responses={204: None})
    def delete(self, request, token_id: int):
        """Revoke one token: requests that send it get 401 from now on."""
        token = token_get_for_user(user=request.user, token_id=token_id)
        if token is None:
            raise exceptions.NotFound("No such token.")
        token_revoke(token=token)
        return Response(status=status.HTTP_204_NO_CONTENT)
