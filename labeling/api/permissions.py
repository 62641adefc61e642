"""A user signed in with a temporary password may read, but write nothing but a new password.

The flag lives in the session (set at sign-in, cleared by the password change), so the check
costs no query; token sign-in is refused to such users (labeling/api/auth.py), so a token never
carries it.
"""

from rest_framework import exceptions
from rest_framework.permissions import SAFE_METHODS, BasePermission

SESSION_FLAG = "must_change_password"


def session_must_change(request) -> bool:
    session = getattr(getattr(request, "_request", request), "session", None)
    return bool(session is not None and session.get(SESSION_FLAG))


class PasswordChanged(BasePermission):
    def has_permission(self, request, view) -> bool:
        if request.method in SAFE_METHODS:
            return True
        if getattr(view, "allowed_with_temporary_password", False):
            return True
        if session_must_change(request):
            raise exceptions.PermissionDenied(
                "Change your temporary password first.", code="password_change_required"
            )
        return True
