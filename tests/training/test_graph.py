"""Step dependencies in training/ (no Django): the `uses` column read and checked, the
"[uses 1,3]" input format, first-error F1 linear vs along the dependency closure."""

import json

import pytest

from training.data import DataError, Tokenization, parse_row, read_rows, tokenize_rows
from training.evaluate import evaluate_stepwise, main
from training.graph import answer_path, closure, uses_error, uses_prefix, with_uses

from .tiny import write_jsonl


def test_uses_format_and_closure():
    assert uses_prefix([]) == ""
    assert uses_prefix([2, 0, 2]) == "[uses 1,3] "  # 1-based, as a reader counts
    assert with_uses(["a", "b", "c"], [[], [0], [0, 1]]) == ["a", "[uses 1] b", "[uses 1,2] c"]
    assert with_uses(["a"], None) == ["a"]
    uses = [[], [0], [], [2], [1, 3]]
    assert closure(uses, 3) == [2, 3]
    assert closure(uses, 4) == [0, 1, 2, 3, 4]
    assert answer_path([[], [], [0], [2]], 4) == [0, 2, 3]
    assert answer_path(None, 3) == [0, 1, 2]  # no uses: a chain, the linear reading
    assert uses_error([[], [1]], 2) == "uses[1]: 1 is not an earlier step (0..0)"
    assert "one list" in uses_error([[]], 2)
    assert uses_error([[], [0]], 2) is None


def test_rows_with_bad_uses_name_file_line_and_field(tmp_path):
    good = {"prompt": "p", "completions": ["a", "b"], "labels": [True, False], "uses": [[], [0]]}
    path = write_jsonl(tmp_path / "x.jsonl", [good, {**good, "uses": [[1], []]}])
    with pytest.raises(DataError) as err:
        list(read_rows(path))
    assert str(err.value).startswith(f"{path}:2: field 'uses': uses[0]: 1 is not an earlier")
    assert parse_row(good, "w").uses == [[], [0]]


def test_prefix_tokenization_shows_the_uses(tiny_lm):
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(tiny_lm)
    rows = [
        parse_row(
            {"prompt": "p", "completions": ["a", "b"], "labels": [1, 0], "uses": [[], [0]]}, "w"
        )
    ]
    plain, _ = tokenize_rows(rows, tokenizer, Tokenization(), log=False)
    shown, _ = tokenize_rows(rows, tokenizer, Tokenization(dependencies="prefix"), log=False)
    assert "[uses 1] b" in tokenizer.decode(shown[0].input_ids.tolist())
    assert "[uses" not in tokenizer.decode(plain[0].input_ids.tolist())
    assert len(shown[0]) > len(plain[0])
    assert list(shown[0].labels[shown[0].step_positions]) == [1, 0]  # labels stay on the steps
    bare = [parse_row({"prompt": "p", "completions": ["a"], "labels": [1]}, "f:3")]
    with pytest.raises(DataError, match="f:3: field 'uses': missing"):
        tokenize_rows(bare, tokenizer, Tokenization(dependencies="prefix"), log=False)


def _rows():
    # A: step 1 is wrong but the answer (3) rests on 0 and 2 only: an off-path error.
    # B: no uses, first error at 2. C: all correct, chain. D: wrong step 1 on the path (3 uses 1).
    raw = [
        ([True, False, True, True], [[], [], [0], [2]], [0.9, 0.2, 0.9, 0.9]),
        ([True, True, False], None, [0.9, 0.9, 0.3]),
        ([True, True], [[], [0]], [0.9, 0.4]),
        ([True, False, True, True], [[], [0], [0], [1]], [0.9, 0.8, 0.9, 0.3]),
    ]
    rows = [
        parse_row(
            {"prompt": "p", "completions": ["s"] * len(labels), "labels": labels, "uses": uses}
            if uses is not None
            else {"prompt": "p", "completions": ["s"] * len(labels), "labels": labels},
            f"r{k}",
        )
        for k, (labels, uses, _) in enumerate(raw)
    ]
    return rows, [scores for *_, scores in raw]


def test_first_error_f1_linear_and_along_dependencies_hand_computed():
    rows, scores = _rows()
    report = evaluate_stepwise(rows, scores, threshold=0.5)
    assert report["rows"] == 4 and report["rows_with_uses"] == 3
    assert report["first_error_off_path"] == 1  # row A
    # Linear: erroneous rows A (1), B (2), D (1); predicted 1, 2, 3: 2 of 3. Correct row C:
    # predicted 1 (0.4 < 0.5): 0 of 1. F1 = 0.
    linear = report["linear"]
    assert (linear["n_error"], linear["n_correct"]) == (3, 1)
    assert linear["acc_error"] == pytest.approx(2 / 3) and linear["acc_correct"] == 0
    assert linear["f1"] == 0
    # Along dependencies: A has no error on its path [0, 2, 3] and none is predicted there:
    # a correct row, right. B: 2 of chain, right. D: path [0, 1, 3], first error 1, predicted
    # 3 (0.8 >= 0.5 at step 1): wrong. C: predicted 1: wrong. acc_error 1/2, acc_correct 1/2.
    dependency = report["dependency"]
    assert (dependency["n_error"], dependency["n_correct"]) == (2, 2)
    assert dependency["acc_error"] == pytest.approx(1 / 2)
    assert dependency["acc_correct"] == pytest.approx(1 / 2)
    assert dependency["f1"] == pytest.approx(1 / 2)


def test_cli_stepwise_with_a_scores_field(tmp_path, capsys):
    rows, scores = _rows()
    lines = []
    for row, row_scores in zip(rows, scores, strict=True):
        line = {"prompt": row.prompt, "completions": row.completions, "labels": row.labels}
        if row.uses is not None:
            line["uses"] = row.uses
        lines.append({**line, "step_scores": row_scores})
    path = write_jsonl(tmp_path / "scored.jsonl", lines)
    out = tmp_path / "report.json"
    assert main(["stepwise", str(path), "--sweep", "--out", str(out)]) == 0
    report = json.loads(out.read_text())
    assert report["dependency"]["f1"] == pytest.approx(1 / 2)
    assert report["sweep"]["linear"]["f1"] >= report["linear"]["f1"]
    assert main(["stepwise", str(path), "--scores-field", "nope"]) == 2
    assert "field 'nope'" in capsys.readouterr().err


def test_cli_processbench_scores_steps_with_their_uses(tmp_path, monkeypatch, capsys):
    """`evaluate processbench --model M --dependencies prefix` hands the PRM each step as a
    PRM trained with dependencies reads it (steplab's ProcessBench export carries `uses`)."""
    import training.evaluate as evaluate

    seen: list = []

    def score(model, items, batch_size):
        seen.extend(items)
        return [[0.9] * len(steps) for _, steps in items]

    monkeypatch.setattr(evaluate, "_score_with_model", score)
    row = {"id": "gsm8k-1", "problem": "p", "steps": ["a", "b", "c"], "label": -1}
    path = write_jsonl(tmp_path / "pb.jsonl", [{**row, "uses": [[], [0], [0, 1]]}])
    assert main(["processbench", str(path), "--model", "m", "--dependencies", "prefix"]) == 0
    assert seen == [("p", ["a", "[uses 1] b", "[uses 1,2] c"])]
    seen.clear()
    assert main(["processbench", str(path), "--model", "m"]) == 0
    assert seen == [("p", ["a", "b", "c"])]
    bare = write_jsonl(tmp_path / "bare.jsonl", [row])
    assert main(["processbench", str(bare), "--model", "m", "--dependencies", "prefix"]) == 2
    assert "field 'uses': needed by --dependencies prefix" in capsys.readouterr().err
    forward = write_jsonl(tmp_path / "fwd.jsonl", [{**row, "uses": [[], [2], []]}])
    assert main(["processbench", str(forward), "--model", "m"]) == 2
    assert "row 1: field 'uses'" in capsys.readouterr().err
