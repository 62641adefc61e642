"""The JSON Lines writer's row encoder (labeling.exporters.writers._line_encoder) writes the
text of the stdlib encoder it replaces, and refuses what it refuses."""

import json

import pytest

from labeling.exporters import writers

PLAIN = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode

ROWS = [
    {
        "prompt": 'Find x: "x² = 4" \\ ünïcode — 数学\n\ttab',
        "completions": ["Step 1", "", "\u2028 line separator", "\x00\x1f control"],
        "labels": [True, False, None],
        "soft_labels": [1.0, 0.0, 0.5, 1e-7, 1e20, -0.0],
        "nested": {"a": [], "b": {}, "c": [[1, 2], {"d": None}], "n": -12345678901234567890},
        "split": "train",
    },
    {1: "int key", False: "bool key", None: "null key", 2.5: "float key"},
    [],
    "a bare string",
]


@pytest.mark.parametrize("row", ROWS)
def test_the_row_encoder_writes_the_stdlib_encoders_text(row):
    assert writers._line_encoder()(row) == PLAIN(row)


@pytest.mark.parametrize(
    ("row", "error"),
    [({"x": float("nan")}, ValueError), ({"x": float("inf")}, ValueError), ({"x": {1}}, TypeError)],
)
def test_the_row_encoder_refuses_what_the_stdlib_encoder_refuses(row, error):
    for encode in (PLAIN, writers._line_encoder()):
        with pytest.raises(error):
            encode(row)


def test_without_the_c_encoder_it_is_the_plain_one(monkeypatch):
    monkeypatch.setattr(json.encoder, "c_make_encoder", None)
    encode = writers._line_encoder()
    assert encode(ROWS[0]) == PLAIN(ROWS[0])
