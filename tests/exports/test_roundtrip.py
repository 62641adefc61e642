"""Import a shared sample, export it in its own format, compare every field of every line."""

import pytest

from tests.exports.conftest import raw_rows, read_rows

pytestmark = pytest.mark.django_db

NO_SPLIT = {"mode": "none"}


def _by(rows: list[dict], key) -> dict:
    out = {key(r): r for r in rows}
    assert len(out) == len(rows), "keys must be unique"
    return out


def assert_same_rows(source: list[dict], exported: list[dict], key) -> None:
    want, got = _by(source, key), _by(exported, key)
    assert sorted(got) == sorted(want)
    for k, row in want.items():
        assert set(got[k]) == set(row), k
        for field in row:
            assert got[k][field] == row[field], (k, field)


@pytest.mark.parametrize("labels_as", ["annotations", "suggestions"])
@pytest.mark.parametrize("file_type", ["jsonl", "jsonl.gz"])
def test_prm800k_round_trip_keeps_every_rating(load, build, labels_as, file_type):
    load("prm800k_sample.jsonl", labels_as=labels_as, fmt="prm800k")
    source = "imported" if labels_as == "annotations" else "auto_any"
    export = build(
        "prm800k",
        file_type=file_type,
        filters={"label_source": source},
        split_policy=NO_SPLIT,
    )
    rows = read_rows(export)
    assert_same_rows(
        raw_rows("prm800k_sample.jsonl"), rows, key=lambda r: (r["labeler"], r["timestamp"])
    )
    assert export.row_count == 9


def test_processbench_round_trip(load, build):
    load("processbench_sample.jsonl", fmt="processbench")
    export = build("processbench", filters={"label_source": "imported"}, split_policy=NO_SPLIT)
    assert_same_rows(
        raw_rows("processbench_sample.jsonl"), read_rows(export), key=lambda r: r["id"]
    )


def test_math_shepherd_round_trip(load, build):
    load("math_shepherd_sample.jsonl", fmt="math_shepherd")
    export = build(
        "math_shepherd",
        filters={"label_source": "imported"},
        # Math-Shepherd labels every step, also after the first "-".
        label_policy={"truncate_after_first_error": False},
        split_policy=NO_SPLIT,
    )
    assert_same_rows(
        raw_rows("math_shepherd_sample.jsonl"), read_rows(export), key=lambda r: r["input"]
    )
