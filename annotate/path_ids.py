"""Ids in a URL's path are bounded like ids in a body (labeling.api.bounds.MAX_ID).

`<int:...>` matches any run of digits. PostgreSQL's backend answers a lookup past the bigint
range with no row (Django checks the column's range), but SQLite's, the embedded default of
`make run`, sends the number to the driver, which raises OverflowError: a 500 for
`/api/annotations/9223372036854775808/` (tests/api/test_hostile_sweep.py). Here a path id past
the range is a 404 before any view runs, on every route and either database: under /api/ the
API's JSON error (labeling.api.errors.not_found), elsewhere the plain 404.
"""

from collections.abc import Callable
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse

from labeling.api.bounds import MAX_ID


class PathIdBoundsMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self, request: HttpRequest, view: Callable, args: tuple, kwargs: dict[str, Any]
    ) -> None:
        for value in (*args, *kwargs.values()):
            if isinstance(value, int) and not isinstance(value, bool) and value > MAX_ID:
                raise Http404("Not found.")
