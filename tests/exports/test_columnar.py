"""Steps as columns (labeling/exporters/columnar.py): the TRL export's records of one
annotation's labels carry the written steps' texts and labels instead of step objects. The
file, its counts and the card are the same as the general way's, for the default export and
the options that take columns; solutions the columns do not cover (two annotations, a
review) still go the general way in the same export."""

from typing import Any

import pytest

from labeling.exporters import chunks, columnar
from labeling.exporters.columnar import ColumnPlan
from labeling.services.exports import writing
from tests.exports.conftest import file_bytes
from tests.exports.test_golden_bytes import data  # noqa: F401 - the fixture

pytestmark = pytest.mark.django_db

HASH = {"mode": "hash", "train": 0.8, "test": 0.2}
# name: (filters, label policy, split policy)
CASES: dict[str, tuple[dict[str, Any], dict[str, Any] | None, dict[str, Any] | None]] = {
    "default": ({}, None, None),
    "final-split": ({}, None, HASH),
    "final-unsure-keep": ({"unsure": "keep"}, {"truncate_after_first_error": False}, None),
    "final-unsure-truncate": ({"unsure": "truncate"}, {"neutral": "positive"}, HASH),
    "imported": ({"label_source": "imported"}, None, HASH),
    "imported-all-steps": (
        {"label_source": "imported", "unsure": "keep"},
        {"truncate_after_first_error": False, "human_written_positive": False},
        None,
    ),
    "annotations-truncate": ({"label_source": "annotations", "unsure": "truncate"}, None, None),
    "annotations-drop": ({"label_source": "annotations"}, {"neutral": "negative"}, HASH),
    "human": ({"label_source": "human", "unsure": "keep"}, None, None),
}


def _export(build, filters, policy, split, file_type="jsonl"):
    export = build(
        "trl",
        file_type=file_type,
        filters=filters,
        label_policy=policy,
        split_policy=split or {"mode": "none"},
        chunk_size=17,
    )
    return file_bytes(export), export.stats, export.row_count


@pytest.mark.parametrize("name", list(CASES))
def test_columns_give_the_general_ways_file_and_counts(data, build, monkeypatch, name):  # noqa: F811
    filters, policy, split = CASES[name]
    resolved, built = [0], [0]
    resolve, base_steps = ColumnPlan.resolve, chunks.base_steps

    def counting_resolve(self, *args):
        resolved[0] += 1
        return resolve(self, *args)

    def counting_base_steps(*args, **kwargs):
        built[0] += 1
        return base_steps(*args, **kwargs)

    monkeypatch.setattr(ColumnPlan, "resolve", counting_resolve)
    monkeypatch.setattr(chunks, "base_steps", counting_base_steps)
    fast = _export(build, filters, policy, split)
    assert resolved[0] > 0  # records of one annotation took columns
    if name != "human":  # the human annotations are on solutions with imported ones too
        assert built[0] < resolved[0]  # and their steps were never built as objects
    monkeypatch.setattr(writing, "column_plan", lambda fmt, options: None)
    general = _export(build, filters, policy, split)
    assert fast[2] > 0
    assert fast == general


def test_gzip_and_parquet_take_columns_too(data, build, monkeypatch):  # noqa: F811
    fast = [_export(build, {}, None, HASH, t) for t in ("jsonl.gz", "parquet")]
    monkeypatch.setattr(writing, "column_plan", lambda fmt, options: None)
    assert fast == [_export(build, {}, None, HASH, t) for t in ("jsonl.gz", "parquet")]


@pytest.mark.parametrize(
    "filters, policy",
    [
        ({"label_source": "imported"}, {"soft_labels": True}),
        ({"label_source": "imported"}, {"label_sources": True}),
        ({"label_source": "imported"}, {"dependency_policy": "keep"}),
        ({"label_source": "annotations"}, {"combine": "per_annotation"}),
        ({"machine_labels": True}, None),
        ({"label_source": "auto_any"}, None),
    ],
)
def test_options_that_need_steps_get_no_columns(data, build, monkeypatch, filters, policy):  # noqa: F811
    def refuse(self, *args):
        raise AssertionError("columns taken")

    monkeypatch.setattr(ColumnPlan, "resolve", refuse)
    assert _export(build, filters, policy, None)[2] > 0


def test_only_trl_takes_columns():
    from labeling.exporters import FORMATS, Stats
    from labeling.exporters.options import options_from

    options = options_from(filters={}, label_policy=None, split_policy=None)
    formats = [n for n in FORMATS if n != "chat_template"]  # needs a tokenizer to be made
    takes = sorted(
        n for n in formats if columnar.column_plan(FORMATS[n](options, Stats()), options)
    )
    assert takes == ["trl"]


@pytest.mark.parametrize("seed", range(6))
def test_columns_are_the_step_rules_on_random_steps(seed):
    """ColumnPlan.resolve against the general rules (from_annotations / from_final on
    BaseSteps, then policy.labeled_steps) on random steps: ratings -1, 0, 1, unrated or
    unmarked, unsure marks, steps the labeler wrote; every policy the columns take."""
    import random
    from types import SimpleNamespace

    from labeling.exporters.final import FinalTally, from_final
    from labeling.exporters.labels import AnnotationLabels, from_annotations
    from labeling.exporters.options import options_from
    from labeling.exporters.policy import labeled_steps

    rng = random.Random(seed)
    for _ in range(300):
        n = rng.randrange(0, 9)
        rows = [
            (1, 100 + i, i, f"s{i}", rng.choice([None, None, "human"]), None, None, False)
            for i in range(n)
        ]
        marks = {}
        for i in range(n):
            if rng.random() < 0.85:
                marks[100 + i] = (rng.choice([1, 1, 1, 0, -1, None]), rng.random() < 0.1)
        single = AnnotationLabels(
            id=1,
            name=rng.choice(["a", ""]),
            imported=rng.random() < 0.5,
            finish_reason="solution",
            time_spent_ms=3,
            submitted_at=None,
            labels=marks,
        )
        filters = {
            "label_source": rng.choice(["imported", "final"]),
            "unsure": rng.choice(["drop", "truncate", "keep"]),
        }
        policy = {
            "neutral": rng.choice(["positive", "negative"]),
            "truncate_after_first_error": rng.random() < 0.7,
            "human_written_positive": rng.random() < 0.5,
        }
        options = options_from(filters=filters, label_policy=policy, split_policy=None)
        plan = ColumnPlan(options)
        tally, expected_tally = FinalTally(), FinalTally()
        resolved, columns = plan.resolve(rows, single, tally)

        def positive(rating, options=options):
            from labeling.exporters.policy import positive_rating

            return positive_rating(rating, options.label_policy)

        steps = chunks.base_steps(rows, project_id=1, step_meta=False)
        if plan.final:
            expected = from_final(
                steps, None, [single], positive=positive, tally=expected_tally, reuse=True
            )
        else:
            expected = from_annotations(steps, [single], positive=positive, reuse=True)
        written, labels = labeled_steps(
            SimpleNamespace(steps=expected.steps), options.label_policy, options.filters
        )
        assert columns.texts == [s.text for s in written]
        assert columns.labels == labels
        kinds = [(s.rating, s.source) for s in written]
        assert [(r, columns.source if r is not None else "") for r in columns.ratings] == kinds
        assert columns.unsure == any(s.unsure for s in expected.steps)
        for name in (
            "agreement",
            "labeler",
            "labeled_at",
            "time_spent_ms",
            "from_import",
            "annotations",
        ):
            assert getattr(resolved, name) == getattr(expected, name), name
        assert tally.as_dict() == expected_tally.as_dict()
