"""An upload that is not JSON Lines (the import tab once offered "JSON, CSV or Parquet") says
what it is, with the file and line 1, instead of "invalid JSON: Expecting value at column 1"."""

import json

import pytest

from labeling.importers import ImportFileError, open_rows

ROW = {"problem": "p", "steps": ["a"], "label": -1}


def _fails(path) -> ImportFileError:
    with pytest.raises(ImportFileError) as exc, open_rows(path, filename=path.name) as rows:
        list(rows)
    return exc.value


@pytest.mark.parametrize(
    ("name", "content", "kind"),
    [
        ("rows.parquet", b"PAR1\x15\x04\x15\x00garbage\n", "a Parquet file"),
        ("rows.bin", b"PAR1\x15\x04\x15\x00garbage\n", "a Parquet file"),
        ("rows.zip", b"PK\x03\x04\x14\x00\x00\x00\n", "a ZIP archive"),
        ("rows.json", json.dumps([ROW, ROW]).encode(), "a JSON array"),
        ("rows.json", json.dumps([ROW, ROW], indent=2).encode(), "a JSON array"),
        ("row.json", json.dumps(ROW, indent=2).encode(), "one JSON document over several lines"),
        ("rows.csv", b"problem,steps\n1+1,2\n", "a CSV file"),
    ],
)
def test_an_upload_that_is_not_json_lines_says_what_it_is(tmp_path, name, content, kind):
    path = tmp_path / name
    path.write_bytes(content)
    error = _fails(path)
    assert (error.file, error.line) == (name, 1)
    assert error.message.startswith(f"this is {kind}"), error.message
    assert "not JSON Lines" in error.message


def test_bad_json_on_a_later_line_keeps_its_own_message(tmp_path):
    path = tmp_path / "rows.jsonl"
    path.write_text(json.dumps(ROW) + "\n[1, 2]\n", encoding="utf-8")
    error = _fails(path)
    assert error.line == 2
    assert error.message == "expected a JSON object, got a list"


def test_bad_json_on_line_one_of_a_jsonl_file_keeps_its_own_message(tmp_path):
    path = tmp_path / "rows.jsonl"
    path.write_text('{"problem": "p", "steps": [}\n', encoding="utf-8")
    assert _fails(path).message.startswith("invalid JSON")


def test_an_unterminated_string_reads_at_once(tmp_path):
    path = tmp_path / "rows.jsonl"
    path.write_text(json.dumps(ROW) + '\n{"problem": "p, "steps": ["a"]}\n', encoding="utf-8")
    error = _fails(path)
    assert error.line == 2
    assert error.message == "invalid JSON: Expecting ',' delimiter at column 18"
    path.write_text('{"problem": "p', encoding="utf-8")  # the last line, with no newline
    assert _fails(path).message == "invalid JSON: Unterminated string starting at column 13"
