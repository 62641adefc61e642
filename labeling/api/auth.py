from django.contrib.auth import authenticate, login, logout
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import exceptions, serializers, status
from rest_framework.authtoken.models import Token
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from labeling.api.throttles import LoginIpThrottle, LoginUsernameThrottle
from labeling.errors import ValidationFailed
from labeling.services.tokens import token_create, token_get, token_revoke


class UserOutput(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    is_staff = serializers.BooleanField()


class Credentials(serializers.Serializer):
    username = serializers.CharField()
    password = serializers.CharField(style={"input_type": "password"})


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
    @extend_schema(responses=UserOutput)
    def get(self, request):
        return Response(UserOutput(request.user).data)


class LoginApi(_PasswordThrottled, APIView):
    permission_classes = [AllowAny]

    @extend_schema(request=Credentials, responses=UserOutput)
    def post(self, request):
        user = _authenticate(request, request.data)
        login(request, user)
        return Response(UserOutput(user).data)


class LogoutApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(request=None, responses={204: None})
    def post(self, request):
        logout(request)
        return Response(status=status.HTTP_204_NO_CONTENT)


class TokenApi(_PasswordThrottled, APIView):
    """Exchange a username and password for an API token (for scripts)."""

    permission_classes = [AllowAny]
    authentication_classes: list = []

    @extend_schema(
        request=Credentials,
        responses=inline_serializer("TokenOutput", {"token": serializers.CharField()}),
    )
    def post(self, request):
        user = _authenticate(request, request.data)
        token, _ = Token.objects.get_or_create(user=user)
        return Response({"token": token.key})


class ApiTokenOutput(serializers.Serializer):
    prefix = serializers.CharField(help_text="The token's first 8 characters.")
    created = serializers.DateTimeField()


class ApiTokenCreatedOutput(ApiTokenOutput):
    token = serializers.CharField(help_text="The whole token; shown only in this reply.")


def _token_out(token: Token) -> dict:
    return {"prefix": token.key[:8], "created": token.created}


class MyTokenApi(APIView):
    """The signed-in user's API token: see it (prefix only), create a new one, revoke it."""

    @extend_schema(responses=ApiTokenOutput(many=True))
    def get(self, request):
        token = token_get(user=request.user)
        return Response([_token_out(token)] if token else [])

    @extend_schema(request=None, responses={201: ApiTokenCreatedOutput})
    def post(self, request):
        """Create a token; the previous one stops working."""
        token = token_create(user=request.user)
        return Response({**_token_out(token), "token": token.key}, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={204: None})
    def delete(self, request):
        """Revoke the token: requests that send it get 401 from now on."""
        token_revoke(user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
