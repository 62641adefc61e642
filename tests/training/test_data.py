import gzip
import json
import logging

import pytest

from training.data import (
    IGNORE,
    DataError,
    Tokenization,
    parse_row,
    read_files,
    read_rows,
    split_rows,
    tokenize_rows,
)
from training.model import load_tokenizer

ROW = {
    "prompt": "What is 2 + 3?",
    "completions": ["add the two numbers", "so we get 5", "oops check result 6"],
    "labels": [True, True, False],
}


def test_labels_sit_on_the_last_token_of_each_step(tiny_lm):
    tokenizer = load_tokenizer(tiny_lm)
    (example,), _ = tokenize_rows([parse_row(ROW, "x")], tokenizer, Tokenization())
    prompt = tokenizer(ROW["prompt"], add_special_tokens=False).input_ids
    ends, start = [], len(prompt)
    for step in ROW["completions"]:
        piece = tokenizer(step, add_special_tokens=False).input_ids
        piece += tokenizer("\n", add_special_tokens=False).input_ids
        assert example.input_ids[start : start + len(piece)].tolist() == piece
        start += len(piece)
        ends.append(start - 1)
    assert len(example.input_ids) == start
    assert example.step_positions == ends
    assert [example.labels[i] for i in ends] == [1, 1, 0]
    assert all(v == IGNORE for i, v in enumerate(example.labels) if i not in ends)
    # The labeled token is the separator that closes each step.
    assert (
        tokenizer.decode(example.input_ids[ends[0] + 1 : ends[1] + 1].tolist()) == "so we get 5\n"
    )


def test_bos_comes_first_when_the_tokenizer_has_one(tiny_llama):
    tokenizer = load_tokenizer(tiny_llama)
    assert tokenizer.bos_token_id is not None
    (example,), _ = tokenize_rows([parse_row(ROW, "x")], tokenizer, Tokenization())
    assert example.input_ids[0] == tokenizer.bos_token_id
    assert sum(v != IGNORE for v in example.labels) == 3


def test_truncation_counts_and_reports_dropped_steps(tiny_lm, caplog):
    tokenizer = load_tokenizer(tiny_lm)
    (full,), _ = tokenize_rows([parse_row(ROW, "x")], tokenizer, Tokenization(max_length=None))
    first_step_end = full.step_positions[0] + 1
    short = parse_row({**ROW, "prompt": "Hi"}, "y")
    settings = Tokenization(max_length=first_step_end, max_prompt_length=None)
    with caplog.at_level(logging.WARNING, logger="training.data"):
        examples, stats = tokenize_rows([parse_row(ROW, "x"), short], tokenizer, settings)
    (kept,) = [e for e in examples if len(e.step_positions) == 1]
    assert len(kept) <= first_step_end
    assert [kept.labels[p] for p in kept.step_positions] == [1]
    assert stats.examples == 2 and stats.steps == 6
    assert stats.examples_truncated >= 1
    dropped = stats.steps - sum(len(e.step_positions) for e in examples)
    assert stats.steps_dropped == dropped >= 2
    assert stats.dropped_negative >= 1  # the wrong last step is among the dropped
    assert stats.dropped_positive + stats.dropped_negative == stats.steps_dropped
    assert f"dropped {stats.steps_dropped} of 6 labeled steps" in caplog.text

    tiny = Tokenization(max_length=3, max_prompt_length=None)
    examples, stats = tokenize_rows([parse_row(ROW, "x")], tokenizer, tiny, log=False)
    assert examples == [] and stats.examples_skipped == 1 and stats.steps_dropped == 3


def test_prompt_is_truncated_from_the_left(tiny_lm):
    tokenizer = load_tokenizer(tiny_lm)
    settings = Tokenization(max_prompt_length=2)
    (example,), stats = tokenize_rows([parse_row(ROW, "x")], tokenizer, settings, log=False)
    prompt = tokenizer(ROW["prompt"], add_special_tokens=False).input_ids
    assert example.input_ids[:2].tolist() == prompt[-2:]
    assert stats.prompts_truncated == 1 and stats.steps_dropped == 0


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{not json", "not valid JSON"),
        ('{"prompt": "p", "labels": [true]}', "field 'completions': missing"),
        ('{"prompt": "p", "completions": ["a", "b"], "labels": [true]}', "1 labels for 2"),
        ('{"prompt": "p", "completions": ["a"], "labels": ["yes"]}', "field 'labels'"),
        ('{"prompt": 3, "completions": ["a"], "labels": [true]}', "field 'prompt'"),
        (
            '{"prompt": "p", "completions": ["a"], "labels": [true], "soft_labels": [1.5]}',
            "field 'soft_labels'",
        ),
    ],
)
def test_bad_rows_name_file_line_and_field(tmp_path, line, message):
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(ROW) + "\n" + line + "\n")
    with pytest.raises(DataError) as err:
        list(read_rows(path))
    assert f"{path}:2" in str(err.value)
    assert message in str(err.value)


def test_gzip_and_parquet_read_like_jsonl(tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    rows = [ROW, {**ROW, "prompt": "other", "soft_labels": [1.0, 0.5, 0.0]}]
    plain = tmp_path / "e.jsonl"
    plain.write_text("".join(json.dumps(r) + "\n" for r in rows))
    zipped = tmp_path / "e.jsonl.gz"
    with gzip.open(zipped, "wt") as fh:
        fh.write(plain.read_text())
    parquet = tmp_path / "e.parquet"
    pq.write_table(pa.Table.from_pylist([{**ROW, "soft_labels": None}, rows[1]]), parquet)
    expected = [(r.prompt, r.completions, r.labels, r.soft_labels) for r in read_rows(plain)]
    for path in (zipped, parquet):
        got = [(r.prompt, r.completions, r.labels, r.soft_labels) for r in read_rows(path)]
        assert got == expected
    assert expected[1][3] == [1.0, 0.5, 0.0]


def test_parquet_errors_name_the_row(tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = tmp_path / "e.parquet"
    pq.write_table(pa.Table.from_pylist([ROW, {**ROW, "labels": [True]}]), path)
    with pytest.raises(DataError, match=r"row 2: field 'labels'"):
        read_files([path])


def test_split_column_and_hash_split():
    rows = [
        parse_row({**ROW, "prompt": f"p{i}", "split": s}, "x")
        for i, s in enumerate(["train", "validation", "test", "train"])
    ]
    train, held = split_rows(rows, eval_split="validation", eval_fraction=0.5)
    assert [r.prompt for r in train] == ["p0", "p3"] and [r.prompt for r in held] == ["p1"]

    plain = [parse_row({**ROW, "prompt": f"q{i}"}, "x") for i in range(200)]
    train, held = split_rows(plain, eval_split="validation", eval_fraction=0.25)
    assert 25 < len(held) < 75 and len(train) + len(held) == 200
    again, _ = split_rows(plain, eval_split="validation", eval_fraction=0.25)
    assert [r.prompt for r in again] == [r.prompt for r in train]
    assert split_rows(plain, eval_split="validation", eval_fraction=0.0)[1] == []


def test_soft_labels_become_targets(tiny_lm):
    tokenizer = load_tokenizer(tiny_lm)
    row = parse_row({**ROW, "soft_labels": [0.9, 0.6, 0.2]}, "x")
    (example,), _ = tokenize_rows([row], tokenizer, Tokenization(), soft=True)
    assert example.soft_labels[example.step_positions].tolist() == pytest.approx([0.9, 0.6, 0.2])
    with pytest.raises(DataError, match="soft_labels"):
        tokenize_rows([parse_row(ROW, "f:1")], tokenizer, Tokenization(), soft=True)
