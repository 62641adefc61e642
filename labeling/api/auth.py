from django.contrib.auth import authenticate, login, logout
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.authtoken.models import Token
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from labeling.errors import ValidationFailed


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


class MeApi(APIView):
    @extend_schema(responses=UserOutput)
    def get(self, request):
        return Response(UserOutput(request.user).data)


class LoginApi(APIView):
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


class TokenApi(APIView):
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
