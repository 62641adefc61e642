"""Bounds on what API clients send: every integer, string and list of an input has one.

tests/api/test_input_bounds.py checks the OpenAPI schema: an input field without a bound fails.
"""

import json
from typing import Any

from rest_framework import serializers

MAX_ID = 2**63 - 1  # a bigint primary key
MAX_VERSION = 2**31 - 1  # an integer column
MAX_TIME_SPENT_MS = 24 * 60 * 60 * 1000  # one item's work time: at most a day
MAX_NAME = 150  # usernames (Django's User.username) and short names
MAX_PASSWORD = 4096
MAX_TEXT = 200_000  # descriptions, guidelines
MAX_IDS = 10_000  # ids in one request
MAX_STEP_INDEX = 100_000
# Labels in one draft, submit or review write: a whole solution's, long agent traces included
# (10,000 steps are real data). A plain label is about 100 bytes of JSON, so 20,000 of them
# stay well inside DATA_UPLOAD_MAX_MEMORY_SIZE (10 MiB); text-heavy bodies get the 413 first.
MAX_LABELS = 20_000
# A free-form JSON object a client stores and every later read serves (a model's metrics): a
# 5 MB one was taken and served four times over in one unpaginated list.
MAX_JSON_OBJECT_BYTES = 65_536


def id_field(**kwargs) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=1, max_value=MAX_ID, **kwargs)


def ids_field(**kwargs) -> serializers.ListField:
    kwargs.setdefault("max_length", MAX_IDS)
    return serializers.ListField(child=id_field(), **kwargs)


def name_field(**kwargs) -> serializers.CharField:
    kwargs.setdefault("max_length", MAX_NAME)
    return serializers.CharField(**kwargs)


def time_spent_field(**kwargs) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=0, max_value=MAX_TIME_SPENT_MS, **kwargs)


def _json_bytes_at_most(limit: int):
    def check(value: Any) -> None:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        size = len(text.encode("utf-8", "surrogatepass"))
        if size > limit:
            raise serializers.ValidationError(f"at most {limit} bytes of JSON, got {size}.")

    return check


def json_object_field(max_bytes: int = MAX_JSON_OBJECT_BYTES, **kwargs) -> serializers.DictField:
    """A free-form JSON object of at most `max_bytes` (its compact UTF-8 JSON)."""
    return serializers.DictField(validators=[_json_bytes_at_most(max_bytes)], **kwargs)
