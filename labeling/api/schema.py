"""OpenAPI postprocessing: every operation documents the one error format
(labeling/api/errors.py) for the error statuses the API uses, and every paginated list its
`limit` and `offset` (labeling/api/pagination.py)."""

from typing import Any

from drf_spectacular.extensions import OpenApiSerializerFieldExtension

ERROR_STATUSES = {
    "400": "Invalid input (validation_error, import_error).",
    "401": "A token was sent and is unknown or revoked.",
    "403": "Not signed in, no CSRF token on a session write, or the role is too low.",
    "404": "No such object, or not a member of its project.",
    "409": "Conflict with the current state (versions, locks, status).",
    "410": "Gone: a used, revoked or expired invite or password-reset link.",
    "413": "The request body is too large.",
    "429": "Too many requests (sign-in attempts); see Retry-After.",
}

ERROR_SCHEMA = {
    "type": "object",
    "properties": {
        "error": {
            "type": "object",
            "properties": {
                "code": {"type": "string"},
                "message": {"type": "string"},
                "details": {},
            },
            "required": ["code", "message", "details"],
        }
    },
    "required": ["error"],
}


def _page_parameters() -> list[dict[str, Any]]:
    from django.conf import settings

    from labeling.api.pagination import MAX_OFFSET

    high = settings.API_MAX_PAGE_SIZE
    return [
        {
            "in": "query",
            "name": "limit",
            "schema": {"type": "integer", "minimum": 1, "maximum": high},
            "description": f"Rows in the page (at most {high}).",
        },
        {
            "in": "query",
            "name": "offset",
            "schema": {"type": "integer", "minimum": 0, "maximum": MAX_OFFSET},
            "description": "Rows skipped before the page.",
        },
    ]


def _is_page(result: dict[str, Any], operation: dict[str, Any]) -> bool:
    content = operation.get("responses", {}).get("200", {}).get("content", {})
    for body in content.values():
        node = body.get("schema", {})
        if "$ref" in node:
            node = result["components"]["schemas"].get(node["$ref"].rsplit("/", 1)[-1], {})
        if {"count", "next", "results"} <= set(node.get("properties", {})):
            return True
    return False


def add_page_parameters(result: dict[str, Any]) -> None:
    """A paginated GET whose view does not declare limit/offset (a view that paginates by
    hand, labeling.api.pagination.page_response) gets them, so clients can page."""
    for operations in result.get("paths", {}).values():
        get = operations.get("get")
        if not get or not _is_page(result, get):
            continue
        parameters = get.setdefault("parameters", [])
        named = {(p.get("in"), p.get("name")) for p in parameters}
        parameters.extend(p for p in _page_parameters() if ("query", p["name"]) not in named)


def add_error_responses(result: dict[str, Any], generator, request, public) -> dict[str, Any]:
    result.setdefault("components", {}).setdefault("schemas", {})["Error"] = ERROR_SCHEMA
    ref = {"$ref": "#/components/schemas/Error"}
    for path, operations in result.get("paths", {}).items():
        if not path.startswith("/api/") or path.startswith("/api/schema"):
            continue
        for operation in operations.values():
            responses = operation.setdefault("responses", {})
            for code, description in ERROR_STATUSES.items():
                responses.setdefault(
                    code,
                    {"description": description, "content": {"application/json": {"schema": ref}}},
                )
    add_page_parameters(result)
    return result


def paginated(serializer_class, name: str, **extra):
    """The schema of a LimitOffsetPagination page of `serializer_class` items (`extra`: more
    fields of the page beside them)."""
    from drf_spectacular.utils import inline_serializer
    from rest_framework import serializers

    return inline_serializer(
        name,
        {
            "count": serializers.IntegerField(),
            "next": serializers.CharField(allow_null=True),
            "previous": serializers.CharField(allow_null=True),
            "results": serializer_class(many=True),
            **extra,
        },
    )


class BoundedListSerializerExtension(OpenApiSerializerFieldExtension):
    """A nested `Serializer(many=True, max_length=N)` documents its bound as maxItems
    (drf-spectacular maps max_length of ListField, not of ListSerializer)."""

    target_class = "rest_framework.serializers.ListSerializer"
    match_subclasses = True

    def map_serializer_field(self, auto_schema, direction):
        schema = auto_schema._map_serializer_field(self.target, direction, bypass_extensions=True)
        if self.target.max_length is not None:
            schema["maxItems"] = self.target.max_length
        if self.target.min_length is not None:
            schema["minItems"] = self.target.min_length
        return schema
