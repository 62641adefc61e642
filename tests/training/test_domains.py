"""training.domains: per-domain metrics (worked by hand), the `domain` column, a math-only
PRM trained from the same file (TrainConfig.domains), the CLI and bench/multidomain_prm.py."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from training.config import TrainConfig
from training.data import DataError, StepwiseRow, parse_row, read_rows
from training.domains import (
    domain_metrics,
    evaluate_by_domain,
    held_out,
    main,
    markdown_table,
    only_domains,
)
from training.model import load_tokenizer
from training.prepare import prepare_data
from training.train import train

from .tiny import toy_rows, write_jsonl

REPO = Path(__file__).resolve().parents[2]


def _row(labels, domain, split="validation", prompt="p"):
    return StepwiseRow(
        prompt=prompt,
        completions=[f"s{k}" for k in range(len(labels))],
        labels=labels,
        split=split,
        domain=domain,
    )


def test_metrics_per_domain_by_hand():
    rows = [
        _row([True, False], "math", prompt="m1"),  # first error at 1
        _row([True, True], "math", prompt="m2"),  # no error
        _row([False], "text", prompt="t1"),  # first error at 0
    ]
    scores = {"m1": [0.9, 0.2], "m2": [0.8, 0.3], "t1": [0.7]}
    report = evaluate_by_domain(lambda items: [scores[p] for p, _ in items], rows)
    math, text, every = report["math"], report["text"], report["all"]
    # math: steps (T,.9 ok) (F,.2 flagged: tp) (T,.8 ok) (T,.3 flagged: fp) → 3/4 right;
    # wrong-step precision 1/2, recall 1/1 → F1 2/3; first errors: m1 predicted 1 (hit), m2
    # predicted 1 (miss) → acc_error 1, acc_correct 0 → F1 0.
    assert (math["rows"], math["steps"], math["wrong_steps"]) == (2, 4, 1)
    assert math["step_accuracy"] == 0.75
    assert math["wrong_step_f1"] == pytest.approx(2 / 3)
    assert math["first_error_f1"] == 0.0
    # text: the one wrong step scored 0.7 is missed.
    assert (text["step_accuracy"], text["wrong_step_f1"]) == (0.0, 0.0)
    assert every["rows"] == 3 and every["steps"] == 5 and every["step_accuracy"] == 0.6
    assert set(report) == {"math", "text", "all"}
    table = markdown_table({"prm": report})
    assert table.splitlines()[2].startswith("| math | prm | 2 | 1 | 0.750 | 0.667 | 0.000 |")
    assert table.splitlines()[-1].startswith("| all | prm | 3 |")


def test_a_perfect_scorer_scores_one_everywhere():
    rows = [_row([True, False], "math"), _row([True], "text")]
    perfect = domain_metrics(rows, [[0.9, 0.1], [0.9]], 0.5)
    assert (perfect["step_accuracy"], perfect["wrong_step_f1"]) == (1.0, 1.0)


def test_the_domain_column_is_read_and_checked(tmp_path):
    row = {"prompt": "p", "completions": ["a"], "labels": [True]}
    assert parse_row({**row, "domain": "code"}, "f:1").domain == "code"
    assert parse_row(row, "f:1").domain is None
    with pytest.raises(DataError, match="f:3: field 'domain': expected a string"):
        parse_row({**row, "domain": 3}, "f:3")
    rows = [_row([True], "math"), _row([True], None), _row([True], "text", split="train")]
    assert [r.domain for r in only_domains(rows, ["math", "(none)"])] == ["math", None]
    assert len(held_out(rows, "validation")) == 2
    with pytest.raises(DataError, match="no split column"):
        held_out([_row([True], "math", split=None)], "validation")


def _mixed_export(path: Path) -> Path:
    rows = []
    for k, row in enumerate(toy_rows(48, seed=3)):
        split = "validation" if (k // 2) % 4 == 3 else "train"
        rows.append({**row, "domain": ("math", "text")[k % 2], "split": split})
    return write_jsonl(path, rows)


def test_a_math_only_prm_trains_on_the_math_rows_of_the_same_file(tiny_lm, tmp_path):
    export = _mixed_export(tmp_path / "mixed.jsonl")
    tokenizer = load_tokenizer(tiny_lm)
    base = dict(data=[str(export)], model=str(tiny_lm), out=str(tmp_path / "o"), progress=False)
    every = prepare_data(TrainConfig(**base), tokenizer)
    math = prepare_data(TrainConfig(**base, domains=["math"]), tokenizer)
    assert (len(every.train), len(every.eval)) == (36, 12)
    assert (len(math.train), len(math.eval)) == (18, 6)
    with pytest.raises(ValueError, match="no rows of domains code"):
        prepare_data(TrainConfig(**base, domains=["code"]), tokenizer)

    prm = tmp_path / "math-prm"
    train(TrainConfig(**{**base, "out": str(prm)}, domains=["math"], max_steps=4, lr=3e-3))
    report = tmp_path / "report.json"
    code = main(["--data", str(export), "--model", f"math={prm}", "--out", str(report)])
    assert code == 0
    got = json.loads(report.read_text())
    assert set(got["math"]) == {"math", "text", "all"}
    assert (got["math"]["math"]["rows"], got["math"]["text"]["rows"]) == (6, 6)
    written = {r.domain for r in read_rows(export)}
    assert written == {"math", "text"}


def test_the_bench_trains_both_prms_and_prints_the_table(tmp_path):
    done = subprocess.run(
        [sys.executable, str(REPO / "bench/multidomain_prm.py"), "--problems", "20", "--steps", "4",
         "--out", str(tmp_path)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    lines = [line for line in done.stdout.splitlines() if line.startswith("| ")]
    cells = {tuple(c.strip() for c in line.split("|")[1:3]) for line in lines[1:]}
    domains = ("code", "math", "text", "all")
    assert cells == {(d, p) for d in domains for p in ("multi-domain", "math-only")}
    report = json.loads((tmp_path / "report.json").read_text())
    assert report["math-only"]["text"]["rows"] == report["multi-domain"]["text"]["rows"] > 0
