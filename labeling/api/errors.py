"""One error format for the whole API: {"error": {"code", "message", "details"}}."""

from django.core.exceptions import PermissionDenied
from django.db import InterfaceError, OperationalError
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from labeling.errors import DomainError


def _first_message(detail: object) -> str:
    if isinstance(detail, dict):
        for key, value in detail.items():
            inner = _first_message(value)
            return inner if key == "non_field_errors" else f"{key}: {inner}"
    if isinstance(detail, list) and detail:
        return _first_message(detail[0])
    return str(detail)


def error_response(code: str, message: str, status_code: int, details: object = None) -> Response:
    return Response(
        {"error": {"code": code, "message": message, "details": details or {}}},
        status=status_code,
    )


def exception_handler(exc: Exception, context: dict) -> Response | None:
    if isinstance(exc, DomainError):
        return error_response(exc.code, exc.message, exc.status, exc.details)
    if isinstance(exc, OperationalError | InterfaceError):
        # PostgreSQL is down or restarting: a clear, retryable answer instead of an HTML 500.
        # Nothing was written; the labeling page keeps the draft and retries.
        response = error_response(
            "database_unavailable",
            "The database is unavailable.",
            status.HTTP_503_SERVICE_UNAVAILABLE,
        )
        response["Retry-After"] = "2"
        return response
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    elif isinstance(exc, exceptions.AuthenticationFailed):
        # Credentials were sent and are wrong (a revoked or unknown token): 401, not the 403
        # DRF gives when session auth comes first. Anonymous requests still get 403.
        exc.status_code = status.HTTP_401_UNAUTHORIZED
        exc.auth_header = "Token"
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        code, details = "validation_error", exc.detail
        message = _first_message(exc.detail)
    elif isinstance(exc, exceptions.APIException):
        codes = exc.get_codes()
        code = codes if isinstance(codes, str) else "error"
        details = {}
        message = _first_message(exc.detail)
    else:  # pragma: no cover - DRF only returns responses for APIException
        code, message, details = "error", str(exc), {}
    if response.status_code == status.HTTP_401_UNAUTHORIZED:
        code = "not_authenticated"
    body = error_response(code, message, response.status_code, details)
    for header in ("WWW-Authenticate", "Retry-After", "Allow"):
        if header in response:
            body[header] = response[header]
    return body


def not_found(request, exception=None):
    """Django's 404 for URLs no view matched: the API's error format under /api/, else HTML."""
    from django.http import JsonResponse
    from django.views.defaults import page_not_found

    if request.path.startswith("/api/"):
        body = {"error": {"code": "not_found", "message": "No such URL.", "details": {}}}
        return JsonResponse(body, status=404)
    return page_not_found(request, exception)
