"""CSRF for the writes an anonymous browser makes: sign-in, invite acceptance, password reset.

DRF checks CSRF only for a request its SessionAuthentication authenticated, so an endpoint open
to anonymous users took a cross-site form post: a page elsewhere could sign its visitor in to
the attacker's account (login CSRF) and collect what they labeled there. These endpoints require
the token every other session write does (the SPA sends `X-CSRFToken` from the cookie its page
sets). Scripts use the token exchange (`/api/auth/token/`), which starts no session.
"""

from rest_framework.authentication import CSRFCheck
from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import BasePermission


def _no_view(request):  # pragma: no cover - CsrfViewMiddleware needs a get_response
    return None


class CsrfRequired(BasePermission):
    """Allows anyone whose unsafe request carries a valid CSRF token (safe methods pass)."""

    def has_permission(self, request, view) -> bool:
        if request.method in ("GET", "HEAD", "OPTIONS", "TRACE"):
            return True
        check = CSRFCheck(_no_view)  # DRF's: the reason instead of a response
        check.process_request(request._request)  # reads the cookie into request.META
        reason = check.process_view(request._request, None, (), {})
        if reason:
            raise PermissionDenied(f"CSRF Failed: {reason}")
        return True
