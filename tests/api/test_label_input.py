"""The labels of a draft save or submit: plain labels take a short path past DRF's fields
(labeling/api/labeling.py::LabelListSerializer); it must give exactly what the fields give,
and anything it does not take must still get the fields' errors."""

import pytest
from rest_framework import serializers

from labeling.api.labeling import LabelInputSerializer, SubmitInput


class _Fields(serializers.Serializer):
    """The same fields validated one by one (no short path)."""

    labels = serializers.ListSerializer(child=LabelInputSerializer(), max_length=2000)


def _both(labels):
    fast, slow = (
        SubmitInput(data={"version": 1, "labels": labels}),
        _Fields(data={"labels": labels}),
    )
    return (
        (fast.is_valid(), fast.errors.get("labels")),
        (slow.is_valid(), slow.errors.get("labels")),
        fast,
        slow,
    )


PLAIN = [
    [],
    [{"step_id": 1, "rating": 1}],
    [{"step_id": 1, "rating": None, "unsure": True}, {"step_id": 2, "rating": -1, "comment": ""}],
    [{"step_id": 7, "rating": 0, "unsure": False, "comment": "", "alternative_text": ""}],
    [{"step_id": 2, "rating": 1, "uses": [0, 1]}, {"step_id": 3, "rating": 1, "uses": None}],
    [{"step_id": 2, "rating": 1, "uses": []}],
]
OTHER = [
    [{"step_id": "3", "rating": "1"}],  # strings for numbers: the fields convert them
    [{"step_id": 1, "rating": 1, "comment": "  trimmed  "}],
    [{"step_id": 1, "rating": 1, "unsure": "true"}],
    [{"step_id": 1, "rating": 2}],  # out of range
    [{"step_id": 1}],  # rating missing
    [{"step_id": True, "rating": 1}],
    [{"step_id": 1, "rating": 1.0}],
    [{"step_id": 1, "rating": 1, "extra": 5}],
    ["not a label"],
    "not a list",
    [{"step_id": 1, "rating": 1, "alternative_text": "x" * 20001}],
    [{"step_id": 2, "rating": 1, "uses": [-1]}],  # a negative index
    [{"step_id": 2, "rating": 1, "uses": ["0"]}],  # a string: the fields convert it
    [{"step_id": 2, "rating": 1, "uses": [True]}],
    [{"step_id": 2, "rating": 1, "uses": 0}],  # not a list
    [{"step_id": 2, "rating": 1, "uses": list(range(201))}],  # over max_length
]


@pytest.mark.parametrize("labels", PLAIN + OTHER)
def test_the_short_path_validates_as_the_fields_do(labels):
    fast_result, slow_result, fast, slow = _both(labels)
    assert fast_result == slow_result
    if fast_result[0]:
        got = [dict(label) for label in fast.validated_data["labels"]]
        assert got == [dict(label) for label in slow.validated_data["labels"]]


def test_over_the_limit_is_refused():
    labels = [{"step_id": i, "rating": 1} for i in range(2001)]
    fast_result, slow_result, _, _ = _both(labels)
    assert fast_result == slow_result and fast_result[0] is False
