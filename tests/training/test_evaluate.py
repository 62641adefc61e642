import json
from pathlib import Path

import pytest

from training.evaluate import (
    best_of_n,
    evaluate_processbench,
    group_candidates,
    main,
    processbench_f1,
    threshold_sweep,
)

PROCESSBENCH = Path(__file__).resolve().parents[3] / "shared" / "data" / "processbench_sample.jsonl"

# label = first wrong step (-1: all correct); scores = P(step correct)
FIXTURE = [
    ("gsm8k-1", 1, [0.9, 0.2, 0.8]),
    ("gsm8k-2", -1, [0.9, 0.8]),
    ("math-3", 0, [0.6, 0.1]),
    ("math-4", -1, [0.7, 0.4]),
    ("math-5", 2, [0.9, 0.9, 0.3]),
]


def _fixture():
    rows = [{"id": i, "steps": ["s"] * len(s), "label": label} for i, label, s in FIXTURE]
    return rows, [s for _, _, s in FIXTURE]


def test_first_error_f1_equals_the_hand_computed_value():
    rows, scores = _fixture()
    labels = [r["label"] for r in rows]
    # At 0.5 the predictions are 1, -1, 1, 1, 2: erroneous rows 2 of 3, correct rows 1 of 2.
    at_half = processbench_f1(labels, scores, 0.5)
    assert at_half["acc_error"] == pytest.approx(2 / 3)
    assert at_half["acc_correct"] == pytest.approx(1 / 2)
    assert at_half["f1"] == pytest.approx(4 / 7)  # 2 * (2/3) * (1/2) / (2/3 + 1/2)
    # At 0.65 the third row is caught too: accuracies 1 and 1/2.
    assert processbench_f1(labels, scores, 0.65)["f1"] == pytest.approx(2 / 3)
    # At 0.4 the 0.4 step is not below the threshold: accuracies 2/3 and 1, F1 0.8.
    sweep = threshold_sweep(labels, scores)
    assert sweep["best"]["f1"] == pytest.approx(0.8)
    assert sweep["best"]["threshold"] == 0.4  # ties (0.35, 0.4) go to the one nearer 0.5
    assert len(sweep["sweep"]) == 19

    report = evaluate_processbench(rows, scores, threshold=0.5, sweep=True)
    assert report["subsets"]["gsm8k"]["f1"] == pytest.approx(1.0)
    assert report["subsets"]["math"]["acc_error"] == pytest.approx(1 / 2)
    assert report["subsets"]["math"]["acc_correct"] == 0.0


def test_processbench_cli_on_the_real_sample(tmp_path, capsys):
    rows = [json.loads(line) for line in PROCESSBENCH.read_text().splitlines()]
    scored = tmp_path / "scored.jsonl"
    late = 0
    with scored.open("w") as fh:
        for row in rows:  # low score at the first error, but one step late four times
            scores = [0.9] * len(row["steps"])
            if row["label"] >= 0:
                miss = late < 4 and row["label"] + 1 < len(scores)
                late += miss
                scores[row["label"] + miss] = 0.1
            fh.write(json.dumps({**row, "step_scores": scores}) + "\n")
    assert main(["processbench", str(scored), "--sweep", "--out", str(tmp_path / "r.json")]) == 0
    report = json.loads((tmp_path / "r.json").read_text())
    assert report == json.loads(capsys.readouterr().out)
    acc_error = 48 / 52
    assert report["overall"]["acc_error"] == pytest.approx(acc_error)
    assert report["overall"]["acc_correct"] == 1.0
    assert report["overall"]["f1"] == pytest.approx(2 * acc_error / (acc_error + 1))
    assert report["overall"]["n_error"] == 52 and report["overall"]["n_correct"] == 48
    assert set(report["subsets"]) == {"gsm8k", "math", "olympiadbench", "omnimath"}

    broken = tmp_path / "broken.jsonl"
    broken.write_text(json.dumps({**rows[0], "step_scores": [0.5]}) + "\n")
    assert main(["processbench", str(broken)]) == 2
    assert "row 1: field 'step_scores'" in capsys.readouterr().err


def _candidate(problem, answer, correct, scores):
    return {
        "problem": problem,
        "steps": ["s"] * len(scores),
        "answer": answer,
        "correct": correct,
        "step_scores": scores,
    }


BON = [
    # P1: min and product pick the right one, last picks a wrong one, majority says 5.
    _candidate("P1", "4", True, [0.9, 0.8]),
    _candidate("P1", "5", False, [0.95, 0.3]),
    _candidate("P1", "5", False, [0.6, 0.9]),
    # P2: min picks B, product picks C (both right), last picks wrong A; majority says 8.
    _candidate("P2", "7", False, [0.5, 0.99]),
    _candidate("P2", "8", True, [0.7, 0.7]),
    _candidate("P2", "8", True, [0.9, 0.6]),
    # P3: nothing is right.
    _candidate("P3", "1", False, [0.9]),
    _candidate("P3", "2", False, [0.8]),
]


def test_best_of_n_on_a_hand_made_fixture():
    problems = group_candidates(BON, "bon")
    result = best_of_n(problems)
    assert result == {
        "problems": 3,
        "prm_min": pytest.approx(2 / 3),
        "prm_last": 0.0,
        "prm_product": pytest.approx(2 / 3),
        "majority": pytest.approx(1 / 3),
        "pass@n": pytest.approx(2 / 3),
    }
    first = best_of_n(problems, n=1)  # only the first candidate: right for P1 only
    assert {k: v for k, v in first.items() if k != "problems"} == {
        k: pytest.approx(1 / 3)
        for k in ("prm_min", "prm_last", "prm_product", "majority", "pass@n")
    }


def test_best_of_n_grades_answers_against_gold_and_reads_grouped_rows(tmp_path, capsys):
    row = {
        "problem": "What is 2 + 2?",
        "gold": "4",
        "candidates": [
            {"steps": ["a"], "answer": "\\boxed{ 4 }", "step_scores": [0.2]},
            {"steps": ["b"], "answer": "5", "step_scores": [0.9]},
            {"steps": ["c"], "answer": "$4$", "step_scores": [0.1]},
        ],
    }
    path = tmp_path / "bon.jsonl"
    path.write_text(json.dumps(row) + "\n")
    assert main(["bon", str(path), "--n", "2", "3"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["n=3"]["majority"] == 1.0  # \boxed{ 4 } and $4$ are the same answer
    assert report["n=3"]["prm_min"] == 0.0 and report["n=3"]["pass@n"] == 1.0
    assert report["n=2"]["majority"] == 1.0  # a 1-1 tie goes to the first answer
