"""The one pagination of every API list: limit/offset with bounds.

DRF's LimitOffsetPagination honours any `limit` (a client asked for a million rows) and passes
any `offset` to the database (10^30 is a 500 "bigint out of range"). Here both are integers in a
range, else a 400 naming the parameter.
"""

from django.conf import settings
from rest_framework.exceptions import ValidationError
from rest_framework.pagination import LimitOffsetPagination

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
