"""The API's JSON parser: DRF's, with a bound on nesting depth.

A body nested about a thousand levels deep makes the stdlib decoder raise RecursionError (a 500
on every JSON endpoint, the unauthenticated ones included); a few hundred levels would pass the
decoder and then recurse through serializers. No request of this API nests more than a handful
of levels, so anything deeper than JSON_MAX_DEPTH is refused as a 400 before any view runs.

JSON may also carry a lone UTF-16 surrogate as an escape ("\\ud800"): a Python string no UTF-8
encoder takes, so echoing it in an error message or storing it in a JSON column was a 500. A
body with one (in any key or string) is refused as a 400 here too. Only an escape can make one:
the UTF-8 bytes of a surrogate do not decode. So a UTF-8 body whose raw bytes hold no escape
`\\ud8`..`\\udf` (either case) skips the walk over every parsed string; one that does (or a body
in another charset) is walked.
"""

import codecs
import io
import re
from typing import Any

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from labeling.importers.jsonwalk import any_string


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
# A JSON escape of a UTF-16 surrogate: \uD800..\uDFFF, hex digits in either case.
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")
_NO_RAW_SURROGATE = frozenset({"utf-8", "ascii"})


def json_has_surrogate(value: Any) -> bool:
    """Whether any string or key in `value` holds a lone surrogate."""
    return any_string(value, lambda text: _SURROGATE.search(text) is not None)


def raw_may_hold_surrogate(raw: bytes, encoding: str) -> bool:
    """Whether JSON text `raw` in `encoding` could parse to a string with a lone surrogate.

    False only for UTF-8 (or ASCII) with no surrogate escape in it: a cheap scan of the bytes
    that spares the walk over every parsed string. An escaped backslash before "ud800" is a
    false alarm the walk then clears."""
    try:
        name = codecs.lookup(encoding).name
    except LookupError:
        return True  # JSONParser refuses the charset itself
    return name not in _NO_RAW_SURROGATE or _SURROGATE_ESCAPE.search(raw) is not None


class BoundedJSONParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        raw = stream.read()
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            data = super().parse(io.BytesIO(raw), media_type, parser_context)
        except RecursionError:
            data = None
        else:
            if not json_depth_exceeds(data, settings.JSON_MAX_DEPTH):
                if raw_may_hold_surrogate(raw, encoding) and json_has_surrogate(data):
                    raise ParseError("JSON strings must not hold lone surrogates (U+D800-U+DFFF).")
                return data
        raise ParseError(f"JSON nested deeper than {settings.JSON_MAX_DEPTH} levels.")
