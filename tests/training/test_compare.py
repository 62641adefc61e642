"""The generative PRM (the judge's critic) and the trained kinds in one ProcessBench table.

training imports no autolabel: the critic comes in as a callable, and the command lines that
build it are autolabel.judge.processbench and autolabel.judge.compare."""

import json

import pytest
import torch

from autolabel.judge.compare import main as judge_compare_main
from autolabel.judge.processbench import main as generative_main
from tests.autolabel_rollouts.servers import StubServer
from training.compare import compare_prms
from training.compare import main as compare_main
from training.data import Tokenization
from training.evaluate import evaluate_processbench
from training.generative import judge_predictions, predictions_f1
from training.implicit import load_causal_lm, save_implicit
from training.model import load_model, load_tokenizer, save_prm
from training.scorers import load_scorer

from .tiny import write_jsonl

ROWS = [
    {"id": "gsm8k-0", "problem": "case A: 1 + 1?", "steps": ["1 + 1 = 2.", "So 2."], "label": -1},
    {"id": "gsm8k-1", "problem": "case B: 2 + 2?", "steps": ["2 + 2 = 4.", "So 5."], "label": 1},
    {"id": "math-0", "problem": "case C: 3 + 3?", "steps": ["3 + 3 = 7.", "So 7."], "label": 0},
    {"id": "math-1", "problem": "case D: 4 + 4?", "steps": ["4 + 4 = 8.", "So 8."], "label": -1},
]
# Right on A and B, wrong on C (says 1, the error is 0), unreadable on D.
REPLIES = {
    "case A": "All paragraphs are correct.\n\n\\boxed{-1}",
    "case B": "Paragraph 1 is wrong: 4, not 5.\n\n\\boxed{1}",
    "case C": "\\boxed{1}",
    "case D": "I am not sure what to say.",
}


def critic(path, body):
    if path != "/v1/chat/completions":
        return 404, {"detail": "Not Found"}
    text = " ".join(m["content"] for m in body["messages"])
    (reply,) = [r for case, r in REPLIES.items() if case in text]
    message = {"role": "assistant", "content": reply}
    return 200, {"choices": [{"index": 0, "message": message}]}


def test_predictions_f1_counts_unreadable_replies_as_wrong():
    report = predictions_f1([-1, 1, 0, -1], [-1, 1, 1, None])
    assert report["acc_error"] == 0.5 and report["acc_correct"] == 0.5
    assert report["f1"] == pytest.approx(0.5) and report["unparsed"] == 1
    # The same predictions as step scores give the same numbers in training.evaluate.
    scores = [[1.0, 1.0], [1.0, 0.0], [1.0, 0.0], [0.0, 0.0]]
    overall = evaluate_processbench(ROWS, scores)["overall"]
    assert overall["f1"] == pytest.approx(0.5)


def test_generative_cli_on_a_scripted_critic(tmp_path, capsys):
    bench = write_jsonl(tmp_path / "pb.jsonl", ROWS)
    saved = tmp_path / "pred.jsonl"
    with StubServer(critic) as stub:
        args = [str(bench), "--base-url", stub.url, "--model", "critic", "--workers", "2"]
        code = generative_main([*args, "--save-predictions", str(saved)])
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    assert report["overall"]["f1"] == pytest.approx(0.5)
    assert report["subsets"]["gsm8k"]["f1"] == pytest.approx(1.0)
    assert report["subsets"]["math"]["f1"] == 0.0
    predicted = [json.loads(line)["predicted"] for line in saved.read_text().splitlines()]
    assert predicted == [-1, 1, 1, None]
    assert len(stub.requests) == 4


@pytest.fixture
def three_kinds(tiny_lm, tmp_path):
    """A pointwise, a pairwise and an implicit PRM directory on the tiny model."""
    tokenizer = load_tokenizer(tiny_lm)
    torch.manual_seed(4)
    pointwise = load_model(tiny_lm)
    save_prm(pointwise, tokenizer, tmp_path / "pw", settings=Tokenization())
    pairwise = load_model(tiny_lm)
    pairwise.config.prm_kind = "pairwise"
    save_prm(pairwise, tokenizer, tmp_path / "bt", settings=Tokenization())
    policy = load_causal_lm(tiny_lm)
    with torch.no_grad():
        for p in policy.parameters():
            p.add_(0.05 * torch.randn_like(p))
    save_implicit(
        policy,
        load_causal_lm(tiny_lm),
        tokenizer,
        tmp_path / "imp",
        beta=1.0,
        settings=Tokenization(),
    )
    return tmp_path / "pw", tmp_path / "bt", tmp_path / "imp"


def test_compare_prints_one_table_for_all_kinds(three_kinds, tmp_path, capsys):
    pw, bt, imp = three_kinds
    bench = write_jsonl(tmp_path / "pb.jsonl", ROWS)
    out = tmp_path / "report.json"
    with StubServer(critic) as stub:
        code = judge_compare_main(
            [
                str(bench),
                "--prm",
                f"point={pw}",
                "--prm",
                f"bt={bt}",
                "--prm",
                f"imp={imp}",
                "--judge-base-url",
                stub.url,
                "--judge-model",
                "critic",
                "--out",
                str(out),
            ]
        )
    assert code == 0
    text = capsys.readouterr().out
    lines = [line for line in text.splitlines() if line.startswith("| ")]
    assert [line.split(" | ")[1] for line in lines[1:]] == [
        "pointwise",
        "pairwise",
        "implicit",
        "generative",
    ]
    assert lines[-1].startswith("| judge | generative | - | 0.500 | 0.500 | 0.500 |")
    entries = json.loads(out.read_text())
    items = [(r["problem"], r["steps"]) for r in ROWS]
    for entry, path in zip(entries, (pw, bt, imp), strict=False):
        scores = load_scorer(path, device="cpu").score_many(items)
        expected = evaluate_processbench(ROWS, scores, sweep=True)
        assert entry["f1"] == pytest.approx(expected["overall"]["f1"])
        assert entry["best_f1"] == pytest.approx(expected["sweep"]["best"]["f1"])
        assert f"| {entry['name']} | {entry['kind']} | 0.500 |" in text
    assert entries[-1]["unparsed"] == 1


def test_compare_needs_something_to_compare(tmp_path, capsys):
    bench = write_jsonl(tmp_path / "pb.jsonl", ROWS)
    assert compare_main([str(bench)]) == 2
    assert compare_main([str(bench), "--judge-model", "x"]) == 2
    assert "together" in capsys.readouterr().err
    # Without a judge factory (training alone), the generative row points to autolabel's CLI.
    assert compare_main([str(bench), "--judge-base-url", "u", "--judge-model", "m"]) == 2
    assert "python -m autolabel.judge.compare" in capsys.readouterr().err


def test_any_callable_is_a_judge():
    """The pure side: a judge is (problem, steps) -> index; rows are judged on threads."""
    answers = {"case A": -1, "case B": 1, "case C": 1, "case D": None}
    seen = []

    def judge(problem, steps):
        seen.append((problem, steps))
        return next(v for case, v in answers.items() if case in problem)

    assert judge_predictions(ROWS, judge, workers=3) == [-1, 1, 1, None]
    assert sorted(seen) == sorted((r["problem"], r["steps"]) for r in ROWS)
    (entry,) = compare_prms(ROWS, [], judge=judge, judge_name="oracle")
    assert (entry["name"], entry["kind"], entry["unparsed"]) == ("oracle", "generative", 1)
    assert entry["f1"] == pytest.approx(0.5)
