"""bench/label_quality.py --predictions: a team's predictions file scored against the labels."""

import json
import sys
from pathlib import Path

import pytest

from autolabel.quality.data import DATA_DIR, read_labeled
from autolabel.quality.harness import evaluate
from autolabel.quality.predictions import read_table

REPO = Path(__file__).resolve().parent.parent.parent
PROCESSBENCH = DATA_DIR / "processbench_sample.jsonl"


@pytest.fixture
def labeled():
    return read_labeled(PROCESSBENCH, limit=30)


def _write(path: Path, lines: list[dict]) -> Path:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def test_an_oracle_scores_one_and_a_yes_man_finds_no_error(db, labeled, tmp_path):
    lines = []
    for s in labeled:
        lines.append({"id": s.ref, "name": "oracle", "version": "1", "labels": list(s.truth)})
        lines.append({"id": s.ref, "name": "yes", "version": "1", "labels": [1] * len(s.steps)})
    lines.append({"id": "not-in-the-data", "name": "yes", "version": "1", "labels": [1]})
    table = read_table([_write(tmp_path / "p.jsonl", lines)])
    report = evaluate([PROCESSBENCH], [], limit=30, predictions=table)
    oracle = report["results"]["prediction:oracle@1"]["all"]
    yes = report["results"]["prediction:yes@1"]["all"]
    assert oracle["f1"] == 1.0 and oracle["neg"]["precision"] == 1.0
    assert yes["erroneous"] > 0 and yes["acc_erroneous"] == 0.0 and yes["acc_correct"] == 1.0
    assert report["predictions_unmatched"] == 1


def test_scores_with_a_threshold_and_consensus_sees_the_source(db, labeled, tmp_path):
    """Score-only lines become labels at the threshold; consensus requires `prediction`."""
    lines = [{"id": s.ref, "scores": [0.9 if t != -1 else 0.1 for t in s.truth]} for s in labeled]
    path = _write(tmp_path / "scores.jsonl", lines)
    table = read_table([path], name="probs", version="2", threshold=0.5)
    params = {"consensus": {"required": ["prediction"]}}
    report = evaluate([PROCESSBENCH], ["consensus"], limit=30, params=params, predictions=table)
    scored = report["results"]["prediction:probs@2"]["all"]
    assert scored["f1"] == 1.0
    assert report["results"]["consensus"]["all"]["f1"] == 1.0
    without = evaluate(
        [PROCESSBENCH], [], limit=30, predictions=read_table([path], name="probs", version="2")
    )
    assert without["results"]["prediction:probs@2"]["all"]["coverage"] == 0.0  # no values


def test_a_step_past_the_solution_is_an_error(db, labeled, tmp_path):
    first = labeled[0]
    path = _write(
        tmp_path / "p.jsonl", [{"id": first.ref, "name": "m", "version": "1", "labels": [1] * 99}]
    )
    with pytest.raises(ValueError, match="predicts step 98"):
        evaluate([PROCESSBENCH], [], limit=30, predictions=read_table([path]))


def test_the_command_line(db, labeled, tmp_path, capsys):
    path = tmp_path / "p.json"
    path.write_text(json.dumps([{"id": s.ref, "labels": list(s.truth)} for s in labeled]))
    sys.path.insert(0, str(REPO / "bench"))
    import label_quality

    report = label_quality.main(
        [
            "--data",
            str(PROCESSBENCH),
            "--limit",
            "30",
            "--sources",
            "answer",
            "--predictions",
            str(path),
            "--predictions-name",
            "cli",
            "--predictions-version",
            "0",
        ]
    )
    assert set(report["results"]) == {"answer", "prediction:cli@0"}
    assert report["results"]["prediction:cli@0"]["all"]["f1"] == 1.0
    assert "prediction:cli@0" in capsys.readouterr().out
