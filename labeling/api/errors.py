"""One error format for the whole API: {"error": {"code", "message", "details"}}."""

import json
import logging

from django.core.exceptions import (
    ObjectDoesNotExist,
    PermissionDenied,
    RequestDataTooBig,
    SuspiciousOperation,
    TooManyFieldsSent,
    TooManyFilesSent,
)
from django.db import IntegrityError, InterfaceError, OperationalError
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from labeling.errors import DomainError
from labeling.pg.db_retry import is_conflict, sqlstate

log = logging.getLogger(__name__)
# A unique, foreign-key or exclusion violation: a row made or deleted by another request between
# a service's check and its write (two admins adding one member at once).
_COLLISIONS = {"23505", "23503", "23P01"}

NOT_FOUND = "Not found."
# An error answer repeats what the client sent (unknown keys, a bad value, one message per
# bad item of a list): it is cut to these, so that a request cannot make its own answer as large
# as itself (20,000 unknown keys made a 190 kB message).
MESSAGE_MAX = 2000
DETAILS_MAX_BYTES = 16_384
DETAILS_MAX_KEYS = 50


def _first_message(detail: object) -> str:
    if isinstance(detail, dict):
        for key, value in detail.items():
            inner = _first_message(value)
            return inner if key == "non_field_errors" else f"{key}: {inner}"
    if isinstance(detail, list) and detail:
        return _first_message(detail[0])
    return str(detail)


def _cut(text: str) -> str:
    return text if len(text) <= MESSAGE_MAX else text[:MESSAGE_MAX] + "…"


def bounded_details(details: object) -> object:
    """`details` as they are when small; else each of the first DETAILS_MAX_KEYS keys with
    its first message (cut), and `truncated`."""
    if not details:
        return {}
    try:
        size = len(json.dumps(details, default=str))
    except (TypeError, ValueError):
        size = DETAILS_MAX_BYTES + 1
    if size <= DETAILS_MAX_BYTES:
        return details
    if not isinstance(details, dict):
        return {"truncated": True}
    keys = list(details)[:DETAILS_MAX_KEYS]
    return {
        **{_cut(str(k)): _cut(_first_message(details[k])) for k in keys},
        "truncated": True,
    }


def error_response(code: str, message: str, status_code: int, details: object = None) -> Response:
    return Response(
        {
            "error": {
                "code": code,
                "message": _cut(str(message)),
                "details": bounded_details(details),
            }
        },
        status=status_code,
    )


def exception_handler(exc: Exception, context: dict) -> Response | None:
    if isinstance(exc, DomainError):
        response = error_response(exc.code, exc.message, exc.status, exc.details)
        if exc.status == status.HTTP_401_UNAUTHORIZED:
            response["WWW-Authenticate"] = "Token"
        return response
    if isinstance(exc, RequestDataTooBig | TooManyFieldsSent | TooManyFilesSent):
        return error_response("too_large", _TOO_LARGE, status.HTTP_413_REQUEST_ENTITY_TOO_LARGE)
    if isinstance(exc, SuspiciousOperation):
        return error_response("bad_request", "The request is malformed.", 400)
    if is_conflict(exc):
        # A deadlock or serialization failure that retry_on_conflict retried until its
        # attempts were spent (labeling.pg.db_retry): nothing was written, the database is up.
        response = error_response(
            "conflict_retry",
            "Your change collided with others made at the same moment and was not saved. "
            "Try again.",
            status.HTTP_503_SERVICE_UNAVAILABLE,
        )
        response["Retry-After"] = "1"
        return response
    if isinstance(exc, IntegrityError):
        # The services check before they write; what slips between the check and the write is
        # another request's change at the same moment: a 409, not a 500. Logged: a service
        # that could say which (as member_add does) should.
        log.warning("integrity error answered as a 4xx: %s", exc)
        if sqlstate(exc) in _COLLISIONS:
            return error_response(
                "conflict",
                "Your change collided with another one made at the same moment; reload and "
                "try again.",
                status.HTTP_409_CONFLICT,
            )
        return error_response("bad_request", "The request breaks a rule of the data.", 400)
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
    if isinstance(exc, Http404 | exceptions.NotFound | ObjectDoesNotExist):
        # One answer for a missing object and for one in a project the caller is not in: a
        # message that named the object in one case only told ids of other teams' objects
        # apart (an existence oracle). tests/api/test_not_found_oracle.py. A row that vanished
        # between two reads of one request (another request deleted it, a purge) is the same
        # 404, not a 500.
        return error_response("not_found", NOT_FOUND, status.HTTP_404_NOT_FOUND)
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


_TOO_LARGE = "The request body is too large."


def _api_error(code: str, message: str, status_code: int):
    from django.http import JsonResponse

    body = {"error": {"code": code, "message": message, "details": {}}}
    return JsonResponse(body, status=status_code)


def bad_request(request, exception=None):
    """Django's 400 (a SuspiciousOperation outside DRF's handler): JSON under /api/."""
    from django.views.defaults import bad_request as html_bad_request

    if request.path.startswith("/api/"):
        if isinstance(exception, RequestDataTooBig | TooManyFieldsSent | TooManyFilesSent):
            return _api_error("too_large", _TOO_LARGE, 413)
        return _api_error("bad_request", "The request is malformed.", 400)
    return html_bad_request(request, exception)


def permission_denied(request, exception=None):
    from django.views.defaults import permission_denied as html_permission_denied

    if request.path.startswith("/api/"):
        return _api_error("permission_denied", "You do not have permission.", 403)
    return html_permission_denied(request, exception)


def server_error(request):
    """The last resort: an unhandled exception under /api/ is still the JSON error shape."""
    from django.views.defaults import server_error as html_server_error

    if request.path.startswith("/api/"):
        return _api_error("internal_error", "Internal server error.", 500)
    return html_server_error(request)


def not_found(request, exception=None):
    """Django's 404 for URLs no view matched: the API's error format under /api/, else HTML."""
    from django.http import JsonResponse
    from django.views.defaults import page_not_found

    if request.path.startswith("/api/"):
        body = {"error": {"code": "not_found", "message": "No such URL.", "details": {}}}
        return JsonResponse(body, status=404)
    return page_not_found(request, exception)
