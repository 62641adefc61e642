"""Authentication by API token (labeling.models.ApiToken).

`Authorization: Token <secret>` or `Authorization: Bearer <secret>`. The secret is looked up by
its sha256; an unknown, revoked or expired token, or an inactive user, is refused with 401 and a
message that says which (labeling/api/errors.py turns AuthenticationFailed into 401).
"""

from django.utils import timezone
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.plumbing import build_bearer_security_scheme_object
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication, get_authorization_header

from labeling.models import ApiToken
from labeling.selectors.tokens import token_for_key
from labeling.services.people.tokens import token_mark_used

KEYWORDS = (b"token", b"bearer")


class ApiTokenAuthentication(BaseAuthentication):
    def authenticate(self, request):
        parts = get_authorization_header(request).split()
        if not parts or parts[0].lower() not in KEYWORDS:
            return None  # not ours: session auth or anonymous
        if len(parts) == 1:
            raise exceptions.AuthenticationFailed(
                "Invalid token header: no token after the keyword."
            )
        if len(parts) > 2:
            raise exceptions.AuthenticationFailed("Invalid token header: the token has spaces.")
        try:
            key = parts[1].decode("ascii")
        except UnicodeError:
            raise exceptions.AuthenticationFailed(
                "Invalid token header: the token has characters a token never has."
            ) from None
        return self.authenticate_credentials(key)

    def authenticate_credentials(self, key: str) -> tuple[object, ApiToken]:
        token = token_for_key(key=key)
        if token is None:
            raise exceptions.AuthenticationFailed("Invalid token.")
        if token.revoked_at is not None:
            raise exceptions.AuthenticationFailed("This token was revoked.")
        now = timezone.now()
        if token.is_expired(now):
            day = timezone.localtime(token.expires_at).date().isoformat()
            raise exceptions.AuthenticationFailed(f"This token expired on {day}.")
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed("This token's user is inactive.")
        token_mark_used(token=token, now=now)
        return token.user, token

    def authenticate_header(self, request) -> str:
        return "Token"


class ApiTokenScheme(OpenApiAuthenticationExtension):
    """How the schema describes it: the same `tokenAuth` scheme DRF's TokenAuthentication had."""

    target_class = "labeling.api.tokens_auth.ApiTokenAuthentication"
    name = "tokenAuth"

    def get_security_definition(self, auto_schema):
        scheme = build_bearer_security_scheme_object(
            header_name="Authorization", token_prefix="Token"
        )
        scheme["description"] = (
            'API token: "Token <secret>" or "Bearer <secret>" (create one in the user menu or '
            "with POST /api/auth/tokens/)."
        )
        return scheme
