"""Options are validated with a message naming the field, and normalized."""

import pytest

from labeling.errors import ValidationFailed
from labeling.exporters import options_from
from labeling.exporters.options import filters_from, split_policy_from


def test_defaults_are_filled_and_stable():
    options = options_from()
    assert options.filters.as_dict()["label_source"] == "final"
    assert options.filters.as_dict()["machine_labels"] is False
    assert options.filters.as_dict()["include_gold"] is False
    assert options.label_policy.as_dict() == {
        "neutral": "positive",
        "truncate_after_first_error": True,
        "human_written_positive": True,
        "soft_labels": False,
        "label_sources": False,
        "combine": "majority",
        "dependency_policy": "none",
        "placeholder_token": "ки",
        "reward_tokens": ["+", "-"],
        "tokenizer": "",
        "step_separator": "<extra_0>",
        "system_prompt": "",
    }
    assert options.split_policy.as_dict() == {
        "mode": "hash",
        "train": 0.9,
        "validation": 0.05,
        "test": 0.05,
        "seed": "",
    }
    # The stored form parses back to the same options.
    again = options_from(
        filters=options.filters.as_dict(),
        label_policy=options.label_policy.as_dict(),
        split_policy=options.split_policy.as_dict(),
    )
    assert again == options


def test_unknown_label_source_names_the_field():
    assert filters_from({"label_source": "reviewed"}).label_source == "reviewed"
    with pytest.raises(ValidationFailed, match="reviewed") as exc:
        filters_from({"label_source": "gut"})
    assert exc.value.details["field"] == "filters.label_source"


@pytest.mark.parametrize(
    ("filters", "field"),
    [
        ({"label_source": "everything"}, "filters.label_source"),
        ({"min_agreement": 1.5}, "filters.min_agreement"),
        ({"unsure": "maybe"}, "filters.unsure"),
        ({"labeled_after": "yesterday"}, "filters.labeled_after"),
        ({"labeled_after": "2025-02-01", "labeled_before": "2025-01-01"}, "filters.labeled_after"),
        ({"label_source": "auto_any", "annotators": ["ann"]}, "filters.annotators"),
        ({"auto_sources": ["oracle"]}, "filters.auto_sources"),
        ({"colour": "red"}, "filters.colour"),
        ({"label_source": "auto_any", "min_score": 1.2}, "filters.min_score"),
        ({"label_source": "auto_any", "min_score": "high"}, "filters.min_score"),
        ({"label_source": "annotations", "min_score": 0.5}, "filters.min_score"),
        ({"label_source": "reviewed", "min_score": 0.5}, "filters.min_score"),
    ],
)
def test_bad_filters_name_the_field(filters, field):
    with pytest.raises(ValidationFailed) as exc:
        filters_from(filters)
    assert exc.value.details["field"] == field


def test_min_score_is_a_machine_label_filter_stored_with_the_options():
    assert filters_from({}).min_score is None
    assert filters_from({}).as_dict()["min_score"] is None
    filters = filters_from({"label_source": "auto_consensus", "min_score": 0.9})
    assert filters.min_score == 0.9 and filters.as_dict()["min_score"] == 0.9
    assert filters_from(filters.as_dict()) == filters
    assert filters_from({"label_source": "annotations", "min_score": None}).min_score is None


def test_split_fractions_must_add_up_and_missing_ones_share_the_rest():
    with pytest.raises(ValidationFailed, match="add up to 1"):
        split_policy_from({"train": 0.5, "validation": 0.1, "test": 0.1})
    policy = split_policy_from({"train": 0.8})
    assert (policy.train, policy.validation, policy.test) == (
        0.8,
        pytest.approx(0.1),
        pytest.approx(0.1),
    )
    none = split_policy_from({"mode": "none"})
    assert none.mode == "none"


def test_dates_are_parsed_as_utc():
    filters = filters_from({"labeled_after": "2025-01-01", "labeled_before": "2025-02-01T12:00Z"})
    assert filters.labeled_after.isoformat() == "2025-01-01T00:00:00+00:00"
    assert filters.as_dict()["labeled_before"] == "2025-02-01T12:00:00+00:00"
