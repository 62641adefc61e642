"""The openrlhf format: what OpenRLHF's ProcessRewardDataset reads, hard and soft labels."""

import pytest

from bench.bpe_tokenizer import train_byte_level_bpe
from labeling.errors import ValidationFailed
from labeling.exporters.options import label_policy_from
from labeling.models import Suggestion
from tests.exports.conftest import annotate, read_rows
from tests.factories import SolutionFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def labeled(project):
    """Two solutions of one problem labeled by one annotator; the second wrong at step 2."""
    user = UserFactory(username="alice")
    good = SolutionFactory(
        problem__project=project, problem__text="What is 2+2?", steps=["2+2 = 4.", "So 4."]
    )
    bad = SolutionFactory(problem=good.problem, steps=["2+2 = 5.", "So 5.", "Done."])
    annotate(good, user, [1, 1])
    annotate(bad, user, [1, -1, None])
    return good, bad


def openrlhf_steps(row: dict, placeholder: str) -> list[tuple[str, object]]:
    """OpenRLHF's reading with nothing of steplab: the text before each placeholder, zipped
    with the label list (one label per placeholder, in order)."""
    pieces = row["input"].split(placeholder)
    assert pieces[-1] == "", "every step ends with the placeholder"
    assert len(pieces) - 1 == len(row["label"])
    return list(zip((p.strip() for p in pieces[:-1]), row["label"], strict=True))


def test_hard_labels_round_trip_to_the_steps_labels(labeled, build):
    export = build("openrlhf", split_policy={"mode": "none"})
    rows = read_rows(export)
    assert all(set(r) == {"input", "label"} for r in rows)
    got = sorted(openrlhf_steps(r, "ки") for r in rows)
    assert got == [
        [("What is 2+2?\n2+2 = 4.", "+"), ("So 4.", "+")],
        [("What is 2+2?\n2+2 = 5.", "+"), ("So 5.", "-")],  # cut after the first error
    ]
    assert export.stats["labels"] == {"negative": 1, "positive": 3}
    parquet = build("openrlhf", file_type="parquet", split_policy={"mode": "none"})
    assert read_rows(parquet) == rows


def test_soft_labels_are_floats_from_the_monte_carlo_estimate(project, build):
    solution = SolutionFactory(problem__project=project, steps=["a", "b"])
    first, second = solution.steps.order_by("index")
    Suggestion.objects.create(
        step=first, source="rollout", agent="mc", value=1, evidence={"correct": 6, "total": 8}
    )
    Suggestion.objects.create(
        step=second, source="rollout", agent="mc", value=-1, evidence={"correct": 1, "total": 8}
    )
    for file_type in ("jsonl", "parquet"):
        export = build(
            "openrlhf",
            file_type=file_type,
            filters={"label_source": "auto_any", "auto_sources": ["rollout"]},
            label_policy={"soft_labels": True},
            split_policy={"mode": "none"},
        )
        (row,) = read_rows(export)
        assert row["label"] == [0.75, 0.125]
        assert [text.split("\n")[-1] for text, _ in openrlhf_steps(row, "ки")] == ["a", "b"]


def test_custom_tokens_and_a_placeholder_inside_a_step_is_left_out(labeled, build, project):
    user = UserFactory(username="bob")
    clash = SolutionFactory(problem__project=project, steps=["uses <s> inside", "x"])
    annotate(clash, user, [1, 1])
    export = build(
        "openrlhf",
        label_policy={"placeholder_token": "<s>", "reward_tokens": ["good", "bad"]},
        split_policy={"mode": "none"},
    )
    rows = read_rows(export)
    assert sorted(label for r in rows for _, label in openrlhf_steps(r, "<s>")) == [
        "bad",
        "good",
        "good",
        "good",
    ]
    assert export.stats["skipped"] == {"placeholder_in_text": 1}


@pytest.mark.parametrize(
    "policy",
    [
        {"placeholder_token": ""},
        {"placeholder_token": "x" * 33},
        {"placeholder_token": "a\nb"},
        {"reward_tokens": ["+"]},
        {"reward_tokens": ["+", "+"]},
        {"reward_tokens": ["+", 3]},
        {"placeholder_token": "+"},
    ],
)
def test_bad_tokens_are_refused_naming_the_field(policy):
    with pytest.raises(ValidationFailed) as err:
        label_policy_from(policy)
    assert err.value.details["field"].startswith("label_policy.")


def test_the_tokenized_rows_put_each_label_on_its_placeholder_token(labeled, build):
    """As ProcessRewardDataset.__getitem__ does: tokenize `input` without special tokens,
    the positions whose id is the placeholder's take the labels (as reward-token ids)."""
    rows = read_rows(build("openrlhf", split_policy={"mode": "none"}))
    tokenizer = train_byte_level_bpe(
        [r["input"] for r in rows] * 4,
        vocab_size=300,
        special_tokens=["<pad>", "ки", "+", "-"],
        pad_token="<pad>",
    )
    placeholder = tokenizer.convert_tokens_to_ids("ки")
    for row in rows:
        ids = tokenizer(row["input"], add_special_tokens=False)["input_ids"]
        at = [k for k, i in enumerate(ids) if i == placeholder]
        assert len(at) == len(row["label"])
        labels = [-100] * len(ids)
        for k, token in zip(at, row["label"], strict=True):
            labels[k] = tokenizer.convert_tokens_to_ids(token)
        assert [labels[k] for k in at] == tokenizer.convert_tokens_to_ids(row["label"])
        # Each placeholder closes a step: the text decoded up to it ends with that step.
        steps = [s for s, _ in openrlhf_steps(row, "ки")]
        for k, step in zip(at, steps, strict=True):
            assert tokenizer.decode(ids[:k]).strip().endswith(step.split("\n")[-1])
