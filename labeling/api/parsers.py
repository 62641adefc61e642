"""The API's JSON parser: DRF's, with a bound on nesting depth.

A body nested about a thousand levels deep makes the stdlib decoder raise RecursionError (a 500
on every JSON endpoint, the unauthenticated ones included); a few hundred levels would pass the
decoder and then recurse through serializers. No request of this API nests more than a handful
of levels, so anything deeper than JSON_MAX_DEPTH is refused as a 400 before any view runs.

JSON may also carry a lone UTF-16 surrogate as an escape ("\\ud800"): a Python string no UTF-8
encoder takes, so echoing it in an error message or storing it in a JSON column was a 500. A
body with one (in any key or string) is refused as a 400 here too.
"""

import re
from typing import Any

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from labeling.jsonwalk import any_string


def json_depth_exceeds(value: Any, limit: int) -> bool:
    """Whether `value` nests containers deeper than `limit` (iterative: no recursion)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return False


_SURROGATE = re.compile("[\ud800-\udfff]")


def json_has_surrogate(value: Any) -> bool:
    """Whether any string or key in `value` holds a lone surrogate."""
    return any_string(value, lambda text: _SURROGATE.search(text) is not None)


class BoundedJSONParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            data = None
        else:
            if not json_depth_exceeds(data, settings.JSON_MAX_DEPTH):
                if json_has_surrogate(data):
                    raise ParseError("JSON strings must not hold lone surrogates (U+D800-U+DFFF).")
                return data
        raise ParseError(f"JSON nested deeper than {settings.JSON_MAX_DEPTH} levels.")
