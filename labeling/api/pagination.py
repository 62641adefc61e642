"""The one pagination of every API list: limit/offset with bounds.

DRF's LimitOffsetPagination honours any `limit` (a client asked for a million rows) and passes
any `offset` to the database (10^30 is a 500 "bigint out of range"). Here both are integers in a
range, else a 400 naming the parameter.
"""

from collections.abc import Callable
from typing import Any

from django.conf import settings
from rest_framework.exceptions import ValidationError
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.response import Response
from rest_framework.utils.urls import replace_query_param

MAX_OFFSET = 1_000_000_000


def bounded_int(raw: str | None, *, name: str, default: int, low: int, high: int) -> int:
    """A query parameter as an int in [low, high], else ValidationError naming it."""
    if raw is None or raw == "":
        return default
    if not (raw.isascii() and raw.lstrip("-").isdigit()) or len(raw) > 20:
        raise ValidationError({name: f"Must be an integer from {low} to {high}."})
    value = int(raw)
    if not low <= value <= high:
        raise ValidationError({name: f"Must be an integer from {low} to {high}."})
    return value


class BoundedLimitOffsetPagination(LimitOffsetPagination):
    @property
    def max_limit(self) -> int:  # type: ignore[override]
        return settings.API_MAX_PAGE_SIZE

    def get_limit(self, request) -> int:
        return bounded_int(
            request.query_params.get(self.limit_query_param),
            name=self.limit_query_param,
            default=min(self.default_limit or settings.API_MAX_PAGE_SIZE, self.max_limit),
            low=1,
            high=self.max_limit,
        )

    def get_offset(self, request) -> int:
        return bounded_int(
            request.query_params.get(self.offset_query_param),
            name=self.offset_query_param,
            default=0,
            low=0,
            high=MAX_OFFSET,
        )


def page_response(
    request, queryset, rows: Callable[[list], Any], paginator: LimitOffsetPagination | None = None
) -> Response:
    """One page of `queryset` (limit/offset, bounded) as `count`/`next`/`previous`/`results`,
    its rows made by `rows` (a serializer's data, or rows computed for the page only)."""
    paginator = paginator or BoundedLimitOffsetPagination()
    page = paginator.paginate_queryset(queryset, request)
    return paginator.get_paginated_response(rows(page))


class CappedLimitOffsetPagination(BoundedLimitOffsetPagination):
    """Limit/offset whose `count` stops at `cap` or at the end of the page asked for, whichever
    is further (`count_capped`: more rows match), so a first page costs the same at a million
    rows as at a thousand: counting every row is what grew (bench/scale_bench.py). The next
    link is there whenever more rows follow the page."""

    cap = 1_000

    def paginate_queryset(self, queryset, request, view=None) -> list:
        self.request = request
        self.limit = self.get_limit(request)
        self.offset = self.get_offset(request)
        bound = self.bound = max(self.cap, self.offset + self.limit)
        # In the page's order: the index walk that serves the page serves the count.
        n = queryset.values("pk")[: bound + 1].count()
        self.count_capped = n > bound
        self.count = min(n, bound)
        if self.count == 0 or self.offset >= self.count:
            return []
        return list(queryset[self.offset : self.offset + self.limit])

    def get_next_link(self) -> str | None:
        if not self.count_capped and self.offset + self.limit >= self.count:
            return None
        url = self.request.build_absolute_uri()
        url = replace_query_param(url, self.limit_query_param, self.limit)
        return replace_query_param(url, self.offset_query_param, self.offset + self.limit)

    def get_paginated_response(self, data) -> Response:
        response = super().get_paginated_response(data)
        response.data["count_capped"] = self.count_capped
        return response
