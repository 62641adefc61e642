"""The label-quality harness (autolabel/quality, bench/label_quality.py): the sources run as
the workers run them, on unsaved solutions, and the metrics on a hand-checkable file."""

import json
import sys
from pathlib import Path

import pytest

from autolabel.quality.data import DATA_DIR, read_labeled
from autolabel.quality.harness import evaluate
from autolabel.symbolic import CHECKER_VERSION

REPO = Path(__file__).resolve().parent.parent.parent
PROCESSBENCH = DATA_DIR / "processbench_sample.jsonl"

# Three ProcessBench rows. The symbolic engine verifies "2 + 3 = 5", "5 * 4 = 20",
# "6 * 2 = 12", "21 + 1 = 22" and refutes "5 * 4 = 21", "7 - 2 = 6"; it says nothing on
# "The answer is ...". Truth: A all correct; B, C first error at step 1 (step 2 unknown).
HAND = [
    {
        "id": "t-a",
        "label": -1,
        "steps": ["First, 2 + 3 = 5.", "Then 5 * 4 = 20.", "The answer is 20."],
    },
    {
        "id": "t-b",
        "label": 1,
        "steps": ["First, 2 + 3 = 5.", "Then 5 * 4 = 21.", "So 21 + 1 = 22."],
    },
    {
        "id": "t-c",
        "label": 1,
        "steps": ["First, 7 - 2 = 6.", "Then 6 * 2 = 12.", "The answer is 12."],
    },
]
# One MR-MATH row with a gold answer, so the answer source judges it (wrong: 21 is not 20).
MRMATH = {
    "id": 7,
    "question": "What is (2 + 3) * 4?",
    "ground_truth_answer": "20",
    "model_output_step_format": [["2 + 3 = 5."], ["So the answer is \\boxed{21}."]],
    "rating": [1, -1],
}


@pytest.fixture
def hand_files(tmp_path):
    processbench = tmp_path / "hand_processbench.jsonl"
    processbench.write_text(
        "".join(json.dumps({"problem": "Compute.", "generator": "t", **row}) + "\n" for row in HAND)
    )
    mrmath = tmp_path / "hand_mrmath.jsonl"
    mrmath.write_text(json.dumps(MRMATH) + "\n")
    return processbench, mrmath


def test_truth_from_the_importers(hand_files):
    processbench, mrmath = hand_files
    a, b, c = read_labeled(processbench)
    assert (a.dataset, a.ref) == ("processbench", "processbench:t-a")
    assert a.truth == (1, 1, 1) and a.first_error == -1
    assert b.truth == (1, -1, None) and b.first_error == 1
    (m,) = read_labeled(mrmath)
    assert (m.gold_answer, m.truth, m.first_error) == ("20", (1, -1), 1)
    assert len(read_labeled(PROCESSBENCH, limit=4)) == 4


def prmbench_row(idx: str, process: list[str], errors: list[int]) -> dict:
    return {
        "idx": idx,
        "classification": "missing_condition" if errors else "multi_solutions",
        "original_question": "What is 98 * 102?",
        "modified_question": "What is 98 * 102?",
        "original_process": process,
        "modified_process": process,
        "modified_steps": errors,
        "error_steps": errors,
        "reason": "",
        "question": "What is 98 * 102?",
    }


def test_prmbench_steps_after_the_first_error_are_unknown_unless_marked(tmp_path):
    """PRMBench marks the steps its modification made wrong; a later step that carries the
    wrong value on is +1 there (prm_train_p1_388: "So $98 * 102 = 9596$"). The harness knows
    steps up to the first error, and later steps only where they are marked wrong."""
    process = [
        "Think of it as $(100-2)(100+2)$.",  # 1
        "FOILing gives $100^2 - 400 - 2^2$.",  # 2: marked
        "So we have $10000-400-4$.",  # 3: carries it on, +1 in PRMBench
        "Which is $9596$.",  # 4: marked
        "Right. So $98 * 102 = 9596$.",  # 5: +1 in PRMBench, false
    ]
    path = tmp_path / "hand_prmbench.jsonl"
    rows = [prmbench_row("p1", process, [2, 4]), prmbench_row("p2", process[:1], [])]
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    wrong, clean = read_labeled(path)
    assert wrong.dataset == "prmbench"
    assert wrong.truth == (1, -1, None, -1, None) and wrong.first_error == 1
    assert clean.truth == (1,) and clean.first_error == -1

    sym = evaluate([path], ["symbolic"])["results"]["symbolic"]["all"]
    # Symbolic refutes "98 * 102 = 9596" (9996): not a wrong refutation, the step is unknown.
    assert sym["known_steps"] == 4
    assert sym["coverage"] == pytest.approx(1 / 6)  # that refutation, on the unknown step
    assert sym["neg"]["rated"] == 0


def test_metrics_by_hand(hand_files):
    processbench, mrmath = hand_files
    report = evaluate([processbench, mrmath], ["answer", "symbolic", "consensus"])
    assert report["params"]["consensus"] == {"required": ["symbolic"]}
    sym = report["results"]["symbolic"]["by_data"]["hand_processbench.jsonl"]
    # Known steps: A 3 correct; B, C one correct and one wrong: 7 known, 5 correct.
    assert (sym["solutions"], sym["steps"], sym["known_steps"]) == (3, 9, 7)
    assert sym["base_rate"] == pytest.approx(5 / 7)
    # −1: B step 1 (right), C step 0 (wrong). Verified steps are evidence, not +1: "checks
    # out" on known steps A 0, A 1, B 0 (correct) and C 1 (wrong); B step 2 has no truth.
    assert sym["neg"] == {"rated": 2, "precision": 0.5, "recall": 0.5}
    assert sym["pos"] == {"rated": 0, "precision": None, "recall": 0.0}
    assert sym["pos_margin"] is None
    assert sym["verdicts"] == {
        "checks out": {"n": 4, "right": 0.75, "margin": pytest.approx(0.75 - 5 / 7)},
        "-1": {"n": 2, "right": 0.5},
    }
    assert sym["agents"] == [f"sympy/{CHECKER_VERSION}"]
    assert sym["coverage"] == pytest.approx(2 / 9)
    # First errors: B found, C predicted at 0 (truth 1), A no error predicted.
    assert (sym["acc_erroneous"], sym["acc_correct"]) == (0.5, 1.0)
    assert sym["f1"] == pytest.approx(2 / 3)
    (cell,) = sym["calibration"]
    assert cell["verdicts"] == 2 and cell["verdict_right"] == 0.5

    # Consensus on symbolic alone: A has no refutation (no first error: nothing); B gets −1
    # on step 1 and C on step 0, and no +1 before them (symbolic vouches for no step).
    cons = report["results"]["consensus"]["by_data"]["hand_processbench.jsonl"]
    assert cons["neg"] == {"rated": 2, "precision": 0.5, "recall": 0.5}
    assert cons["pos"] == {"rated": 0, "precision": None, "recall": 0.0}
    assert cons["coverage"] == pytest.approx(2 / 9)

    # The answer source rates no step; it judged the MR-MATH answer wrong, rightly.
    answer = report["results"]["answer"]
    assert answer["all"]["coverage"] == 0
    assert answer["by_data"]["hand_mrmath.jsonl"]["answer"] == {
        "judged_wrong": 1,
        "wrong_is_erroneous": 1.0,
        "judged_right": 0,
        "right_is_correct": None,
    }
    assert report["results"]["symbolic"]["all"]["solutions"] == 4


def test_small_slice_of_processbench():
    report = evaluate([PROCESSBENCH], ["answer", "symbolic", "consensus"], limit=10)
    for source in ("answer", "symbolic", "consensus"):
        result = report["results"][source]
        assert set(result["by_data"]) == {"processbench_sample.jsonl"}
        m = result["all"]
        assert m["solutions"] == 10 and m["erroneous"] + m["correct"] == 10
        assert m["errors"] == {}
        assert 0 <= m["coverage"] <= 1 and m["seconds_per_solution"] >= 0
        for key in ("f1", "acc_erroneous", "acc_correct", "base_rate"):
            assert m[key] is None or 0 <= m[key] <= 1
    # ProcessBench has no gold answers: the answer source judges nothing there.
    assert report["results"]["answer"]["all"]["answer"]["judged_wrong"] == 0
    assert report["results"]["symbolic"]["all"]["coverage"] > 0


def test_unwired_model_sources_say_so():
    with pytest.raises(ValueError, match="need a model"):
        evaluate([PROCESSBENCH], ["judge"], limit=1)


def test_cli_markdown(hand_files, capsys):
    sys.path.insert(0, str(REPO / "bench"))
    import label_quality

    processbench, _ = hand_files
    label_quality.main(["--data", str(processbench), "--sources", "symbolic", "--markdown"])
    out = capsys.readouterr().out
    assert "| symbolic | hand_processbench | 3 | 66.7 (50.0 / 100.0) | 50.0 / 50.0 " in out
    assert "| symbolic | checks out | 4 | 75.0 | 71.4 | +3.6 |" in out


def test_rollouts_through_a_backend(tmp_path):
    """A model source runs through its backend: a scripted completer whose continuations
    never reach the gold answer once the prefix holds the wrong step. No django_db mark: the
    harness must not touch the database (the rollout cache is in memory)."""
    rows = [
        ("t1", ["2 + 3 = 5.", "Then 5 * 4 = 20.", "# Answer\n\n20"], [1, 1, 1]),
        ("t2", ["2 + 3 = 5.", "Then 5 * 4 = 21.", "# Answer\n\n21"], [1, -1, -1]),
    ]
    path = tmp_path / "hand_rollouts.jsonl"
    path.write_text(
        "".join(
            json.dumps(
                {
                    "id": ref,
                    "question": "What is (2 + 3) * 4?",
                    "ground_truth_answer": "20",
                    "model_output_step_format": [[s] for s in steps],
                    "rating": ratings,
                }
            )
            + "\n"
            for ref, steps, ratings in rows
        )
    )
    backend = {"kind": "scripted", "rules": [["5 * 4 = 21", 0.0]], "default": 1.0}
    report = evaluate(
        [path], ["rollout", "consensus"], params={"rollout": {"backend": backend, "n": 2}}
    )
    assert report["params"]["consensus"] == {"required": ["rollout"]}
    rollout = report["results"]["rollout"]["all"]
    assert rollout["errors"] == {}
    assert rollout["neg"] == {"rated": 2, "precision": 1.0, "recall": 1.0}
    assert rollout["pos"] == {"rated": 4, "precision": 1.0, "recall": 1.0}
    assert (rollout["f1"], rollout["coverage"]) == (1.0, 1.0)
    assert rollout["answer"]["judged_wrong"] == 1 and rollout["answer"]["judged_right"] == 1
    consensus = report["results"]["consensus"]["all"]
    assert consensus["neg"] == {"rated": 1, "precision": 1.0, "recall": 0.5}
    assert consensus["coverage"] == pytest.approx(5 / 6)
