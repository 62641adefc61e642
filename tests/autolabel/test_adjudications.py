"""The open adjudications file: a bad line is refused with its line and field named; the
checked-in file parses and points at steps that exist in the dev set; the dev-set command
runs on a slice and writes its per-kind table and Markdown."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from autolabel.calibration import ENV, kinds
from autolabel.quality.adjudications import PATH, AdjudicationError, read_adjudications
from autolabel.quality.data import DATA_DIR
from autolabel.symbolic import CHECKER_VERSION

REPO = Path(__file__).resolve().parents[2]
GOOD = {"row": "processbench:x-1", "step": 2, "label": "correct", "reason": "3 * 4 is 12, not 13"}


def _file(tmp_path: Path, *rows: object) -> Path:
    path = tmp_path / "adjudications.jsonl"
    lines = [r if isinstance(r, str) else json.dumps(r) for r in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_a_good_file_reads_with_comments_and_blank_lines(tmp_path) -> None:
    path = _file(tmp_path, "# why these", "", GOOD, {**GOOD, "step": 0, "label": "wrong"})
    found = read_adjudications(path)
    assert set(found) == {("processbench:x-1", 2), ("processbench:x-1", 0)}
    assert found[("processbench:x-1", 2)].truth == -1  # labeled correct, judged wrong
    assert found[("processbench:x-1", 0)].truth == 1


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ({k: v for k, v in GOOD.items() if k != "reason"}, r":3: field 'reason': missing"),
        ({**GOOD, "label": "-1"}, r":3: field 'label': must be one of"),
        ({**GOOD, "step": -1}, r":3: field 'step': must be a 0-based step index"),
        ({**GOOD, "step": "2"}, r":3: field 'step'"),
        ({**GOOD, "row": ""}, r":3: field 'row'"),
        ({**GOOD, "reason": "wrong"}, r":3: field 'reason': must say why"),
        ({**GOOD, "score": 1}, r":3: field 'score': unknown"),
        ("{not json", r":3: not JSON"),
        ("[1, 2]", r":3: expected a JSON object"),
        (GOOD, r":3: field 'step': processbench:x-1 step 2 is repeated"),
    ],
)
def test_a_bad_line_names_its_line_and_field(tmp_path, bad, message) -> None:
    path = _file(tmp_path, "# header", GOOD, bad)
    with pytest.raises(AdjudicationError, match=message) as caught:
        read_adjudications(path)
    assert str(path) in str(caught.value)


def test_a_missing_file_is_an_error(tmp_path) -> None:
    with pytest.raises(AdjudicationError, match="no such file"):
        read_adjudications(tmp_path / "none.jsonl")


def test_the_checked_in_adjudications_point_at_dev_set_steps() -> None:
    found = read_adjudications(PATH)
    assert found, "the file holds the hand-checked cases"
    rows = {}
    with open(DATA_DIR / "processbench_dev.jsonl", encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            rows[f"processbench:{row['id']}"] = row
    for (row, step), item in found.items():
        assert row in rows, row
        assert step < len(rows[row]["steps"]), (row, step)
        label = rows[row]["label"]
        # "correct": the step lies before the labeled first error (or there is none)
        assert (step < label or label == -1) if item.label == "correct" else step == label


@pytest.mark.django_db
def test_the_dev_command_runs_on_a_slice(tmp_path, monkeypatch, capsys) -> None:
    sys.path.insert(0, str(REPO / "bench"))
    import symbolic_refutations

    monkeypatch.setenv(ENV, str(tmp_path))  # restored after; the command points there too
    markdown, readme = tmp_path / "kinds.md", tmp_path / "readme.md"
    result = symbolic_refutations.main(
        ["--dev", "--limit", "8", "--workers", "2", "--calibrate"]
        + ["--calibration-dir", str(tmp_path), "--markdown", str(markdown)]
        + ["--readme-markdown", str(readme)]
    )
    kinds.clear_cache()
    develop = result["scored"]["before"]["raw"]["develop"]
    measure = result["scored"]["before"]["raw"]["measure"]
    assert develop["solutions"] + measure["solutions"] == 8
    assert result["scored"]["after"]["adjudicated"]["all"]["solutions"] == 8
    stored = json.loads((tmp_path / "symbolic_kinds.json").read_text())
    entry = stored["versions"][CHECKER_VERSION]
    assert entry["rule"]["min_wilson_lower"] == kinds.MIN_WILSON_LOWER
    assert "first 8 solutions" in entry["on"]
    text = markdown.read_text()
    assert "| gating | part |" in text and "| claim kind |" in text
    assert readme.read_text().startswith("| claim kind |")
    assert "precision" in capsys.readouterr().out
