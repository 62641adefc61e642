"""The labels of a draft save or submit: plain labels take a short path past DRF's fields
(labeling/api/labeling.py::LabelListSerializer); it must give exactly what the fields give,
and anything it does not take must still get the fields' errors."""

import pytest
from rest_framework import serializers

from labeling.api.bounds import MAX_LABELS
from labeling.api.labeling import LabelInputSerializer, SubmitInput


class _Fields(serializers.Serializer):
    """The same fields validated one by one (no short path)."""

    labels = serializers.ListSerializer(child=LabelInputSerializer(), max_length=MAX_LABELS)


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
    labels = [{"step_id": i, "rating": 1} for i in range(MAX_LABELS + 1)]
    fast_result, slow_result, _, _ = _both(labels)
    assert fast_result == slow_result and fast_result[0] is False


# The whole body of a draft save or submit (labeling/api/labeling.py::_plain_write): where the
# short path takes a body, it gives exactly what the serializer's validated_data would.
RID = "0b0e6d9e-5f4a-4c1e-9d7e-7f0a1c2b3d4e"
BODIES = [
    {"version": 1, "labels": []},
    {"version": 3, "labels": [{"step_id": 1, "rating": 1}], "time_spent_ms": 0},
    {"version": 2, "labels": [{"step_id": 1, "rating": -1}], "request_id": RID},
    {"version": 2, "labels": [], "request_id": RID.replace("-", "")},  # plain hex: a UUID too
    {"version": 2, "labels": [], "request_id": RID.upper(), "next": True},
    {"version": 2, "labels": [], "finish_reason": "found_error", "finish_reason_text": ""},
    {"version": 2, "labels": [], "finish_reason": "give_up", "next": False},
]
ODD_BODIES = [
    {"version": 0, "labels": []},
    {"version": True, "labels": []},
    {"version": "2", "labels": []},
    {"labels": []},
    {"version": 1},
    {"version": 1, "labels": [{"step_id": "1", "rating": 1}]},
    {"version": 1, "labels": [], "time_spent_ms": -1},
    {"version": 1, "labels": [], "time_spent_ms": 1.5},
    {"version": 1, "labels": [], "request_id": "not-a-uuid"},
    {"version": 1, "labels": [], "request_id": 5},
    {"version": 1, "labels": [], "finish_reason": "nope"},
    {"version": 1, "labels": [], "finish_reason_text": "  why  "},
    {"version": 1, "labels": [], "next": "true"},
    {"version": 1, "labels": [], "next": 1},
    {"version": 1, "labels": [], "unknown": 1},
    ["not", "a", "body"],
]


@pytest.mark.parametrize("submit", [True, False], ids=["submit", "draft"])
@pytest.mark.parametrize(
    ("body", "loop"), [(b, True) for b in BODIES] + [(b, False) for b in ODD_BODIES]
)
def test_the_short_path_takes_a_body_as_the_serializer_does(body, loop, submit):
    from labeling.api.labeling import DraftInput, _plain_write, _validated_write

    serializer_class = SubmitInput if submit else DraftInput
    serializer = serializer_class(data=body)
    valid = serializer.is_valid()
    plain = _plain_write(body, submit=submit)
    if plain is not None:  # taken: only where the serializer takes it too, with the same data
        assert valid
        expected = dict(serializer.validated_data)
        expected["labels"] = [dict(label) for label in expected["labels"]]
        assert plain == expected
    if valid:
        assert _validated_write(serializer_class, body, submit=submit) == {
            **serializer.validated_data,
            "labels": list(serializer.validated_data["labels"]),
        }
    else:
        from rest_framework.exceptions import ValidationError

        with pytest.raises(ValidationError) as raised:
            _validated_write(serializer_class, body, submit=submit)
        assert raised.value.detail == serializer.errors
    draft_keys = {"version", "labels", "time_spent_ms", "request_id"}
    if loop and (submit or body.keys() <= draft_keys):
        assert plain is not None  # the loop's bodies take the short path
