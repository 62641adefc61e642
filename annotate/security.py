"""The Content-Security-Policy header, on every response of every settings module.

Scripts only from this origin (the Vite bundle; Swagger UI through drf-spectacular's split
view, whose init script is a separate URL), no plugins, no framing. Styles allow
'unsafe-inline' because KaTeX writes its layout into style attributes (heights, vertical
alignment, struts) of the HTML it renders; without it every formula collapses. Images from
this origin and data: URIs (small inlined assets). A response that set its own policy
(stored media: `default-src 'none'`) keeps it.
"""

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

POLICY = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self' 'unsafe-inline'",
    "img-src": "'self' data:",
    "font-src": "'self' data:",
    "connect-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'self'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}
HEADER_VALUE = "; ".join(f"{name} {value}" for name, value in POLICY.items())


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if "Content-Security-Policy" not in response:
            response["Content-Security-Policy"] = HEADER_VALUE
        return response
