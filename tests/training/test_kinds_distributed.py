"""The pairwise and implicit trainers on 2 CPU processes (torchrun, gloo data parallelism),
against one process on the same data with the same global batch: the same loss at every
step, the same metrics and the same model, saved once and loadable by load_scorer.

`accelerate launch --cpu --num_processes 2` starts only one process without MPI (its
multi-CPU path is mpirun), so the processes come from torchrun, as for training.train."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import torch
from safetensors.torch import load_file

from training.implicit import ImplicitConfig, ImplicitPRMScorer, train_implicit
from training.loop import SettingError
from training.pairwise import PairwiseConfig, main, train_pairwise
from training.score import PRMScorer
from training.scorers import load_scorer

from .test_implicit import _outcome_rows
from .test_pairwise import toy_pairs
from .tiny import write_jsonl

REPO = Path(__file__).resolve().parents[2]
PROBLEM = "Problem 3: what is 3 + 3?"
SOLUTIONS = [["add the two numbers 3.", "so we get 6."], ["add oops the two 3."]]


def run_two(module: str, *args: str) -> subprocess.CompletedProcess:
    """`python -m module args` on 2 CPU processes."""
    command = [
        sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc_per_node", "2",
        "-m", module, *args,
    ]  # fmt: skip
    env = {**os.environ, "ACCELERATE_USE_CPU": "true", "OMP_NUM_THREADS": "1"}
    return subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=300, env=env)


def launch_two(module: str, *args: str) -> tuple[dict, str]:
    """`python -m module args` on 2 CPU processes; the report the main process prints."""
    done = run_two(module, *args)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.count('"out":') == 1  # one report, from the main process
    return json.loads(done.stdout[done.stdout.index("{") :]), done.stderr


def metrics_close(got: dict, expected: dict) -> None:
    assert got.keys() == expected.keys()
    for key, value in expected.items():
        assert got[key] == pytest.approx(value, abs=1e-5), key


def weights(out: Path) -> dict[str, torch.Tensor]:
    return load_file(str(out / "model.safetensors"))


@pytest.fixture
def lm_without_dropout(tiny_lm: Path, tmp_path: Path) -> Path:
    """The tiny LM whose token-classification head has no dropout: dropout masks depend on
    how a batch is split, the gradient of a global batch does not."""
    copy = shutil.copytree(tiny_lm, tmp_path / "lm")
    config = json.loads((copy / "config.json").read_text())
    (copy / "config.json").write_text(json.dumps({**config, "classifier_dropout": 0.0}))
    return copy


def test_pairwise_on_two_processes_equals_one_process(lm_without_dropout, tmp_path):
    data = write_jsonl(
        tmp_path / "pairs.jsonl", toy_pairs(16) + toy_pairs(8, seed=9, split="validation")
    )
    common = {"model": str(lm_without_dropout), "data": [str(data)], "learning_rate": 3e-3}
    single = PairwiseConfig(output_dir=str(tmp_path / "one"), batch_size=8, device="cpu", **common)
    expected = train_pairwise(single)

    out = tmp_path / "two"
    args = ["--data", str(data), "--model", str(lm_without_dropout), "--out", str(out)]
    report, stderr = launch_two(
        "training.pairwise", *args, "--batch-size", "4", "--learning-rate", "3e-3"
    )
    assert "on 2 process(es): 2 steps of 4 x 1 x 2 pairs" in stderr
    assert report["steps"] == expected.steps == 2
    metrics_close(report["train_before"], expected.before)
    metrics_close(report["train"], expected.after)
    metrics_close(report["eval"], expected.eval)
    # Every step's loss is the mean over the whole global batch of 8 (4 from each process).
    log = [json.loads(x) for x in (out / "metrics.jsonl").read_text().splitlines()]
    assert [(r["step"], r["pairs"]) for r in log] == [(1, 8), (2, 8)]
    assert [r["loss"] for r in log] == pytest.approx([h["loss"] for h in single.history], abs=1e-6)
    assert report["train"]["loss"] < report["train_before"]["loss"]  # it trained

    got, want = weights(out), weights(tmp_path / "one")
    assert got.keys() == want.keys()
    # score.bias shifts chosen and rejected alike: Bradley-Terry gives it no gradient, only
    # rounding noise that Adam scales up, so it is the one weight that may differ.
    for name in sorted(set(want) - {"score.bias"}):
        assert torch.allclose(got[name], want[name], atol=1e-4), name
    scorer = load_scorer(out, device="cpu")
    assert isinstance(scorer, PRMScorer) and scorer.model.config.prm_kind == "pairwise"
    (good, bad), (good1, bad1) = (
        load_scorer(d, device="cpu").score(PROBLEM, SOLUTIONS) for d in (out, tmp_path / "one")
    )
    assert len(good) == 2 and len(bad) == 1
    logit = torch.logit(torch.tensor([good[-1], bad[0]], dtype=torch.float64))
    logit1 = torch.logit(torch.tensor([good1[-1], bad1[0]], dtype=torch.float64))
    assert float(logit[0] - logit[1]) == pytest.approx(float(logit1[0] - logit1[1]), abs=1e-3)


def test_implicit_on_two_processes_with_accumulation_equals_one_process(tiny_lm, tmp_path):
    """2 processes x 2 micro-batches of 2 = one process's batch of 8; 5 held-out solutions
    leave one process a round with nothing to evaluate."""
    rows = _outcome_rows(16) + _outcome_rows(5, seed=4, split="validation")
    data = write_jsonl(tmp_path / "outcomes.jsonl", rows)
    common = {"model": str(tiny_lm), "data": [str(data)], "learning_rate": 3e-3, "beta": 0.5}
    single = ImplicitConfig(output_dir=str(tmp_path / "one"), batch_size=8, device="cpu", **common)
    expected = train_implicit(single)

    out = tmp_path / "two"
    args = ["--data", str(data), "--model", str(tiny_lm), "--out", str(out), "--beta", "0.5"]
    args += ["--batch-size", "2", "--grad-accum", "2", "--learning-rate", "3e-3"]
    report, stderr = launch_two("training.implicit", *args)
    assert "on 2 process(es): 2 steps of 2 x 2 x 2 solutions" in stderr
    assert report["steps"] == expected.steps == 2
    metrics_close(report["train_before"], expected.before)
    metrics_close(report["train"], expected.after)
    metrics_close(report["eval"], expected.eval)
    assert report["eval"]["solutions"] == 5
    log = [json.loads(x) for x in (out / "metrics.jsonl").read_text().splitlines()]
    assert [(r["step"], r["solutions"]) for r in log] == [(1, 8), (2, 8)]
    assert [r["loss"] for r in log] == pytest.approx([h["loss"] for h in single.history], abs=1e-6)

    got, want = weights(out), weights(tmp_path / "one")
    assert got.keys() == want.keys()
    # Adam divides by the root of the squared gradients, so where those are tiny the order
    # of the all-reduce's sums shows (1.1e-5 measured on transformers 5.25); a wrong step
    # moves weights by about the learning rate (3e-3). As the pairwise test above: 1e-4.
    for name, value in want.items():
        assert torch.allclose(got[name], value, atol=1e-4), name
    assert weights(out / "reference").keys() == want.keys()  # the untrained copy, saved once
    scorer = load_scorer(out, device="cpu", output="reward")
    assert isinstance(scorer, ImplicitPRMScorer)
    rewards = scorer.score(PROBLEM, SOLUTIONS)
    expected_rewards = ImplicitPRMScorer(tmp_path / "one", device="cpu", output="reward")
    for row, want_row in zip(rewards, expected_rewards.score(PROBLEM, SOLUTIONS), strict=True):
        assert row == pytest.approx(want_row, abs=1e-5)
    assert any(abs(r) > 1e-3 for row in rewards for r in row)  # the policy moved


def test_grad_accumulation_on_one_process_equals_the_whole_batch(lm_without_dropout, tmp_path):
    data = write_jsonl(tmp_path / "pairs.jsonl", toy_pairs(16))
    common = {"model": str(lm_without_dropout), "data": [str(data)], "learning_rate": 3e-3}
    whole = PairwiseConfig(output_dir=str(tmp_path / "a"), batch_size=8, device="cpu", **common)
    parts = PairwiseConfig(
        output_dir=str(tmp_path / "b"), batch_size=4, grad_accum=2, device="cpu", **common
    )
    assert train_pairwise(whole).after == pytest.approx(train_pairwise(parts).after, abs=1e-5)
    assert [h["loss"] for h in parts.history] == pytest.approx(
        [h["loss"] for h in whole.history], abs=1e-6
    )
    assert [h["pairs"] for h in parts.history] == [8, 8]


def test_bad_batch_settings_are_refused_by_name(tiny_lm, tmp_path, capsys):
    data = write_jsonl(tmp_path / "pairs.jsonl", toy_pairs(4))
    config = PairwiseConfig(
        model=str(tiny_lm), data=[str(data)], output_dir=str(tmp_path / "o"), grad_accum=0
    )
    with pytest.raises(SettingError, match="grad_accum: at least 1"):
        train_pairwise(config)
    with pytest.raises(SystemExit) as exit_:
        main(
            [
                "--data",
                str(data),
                "--model",
                str(tiny_lm),
                "--out",
                str(tmp_path / "o"),
                "--batch-size",
                "0",
            ]
        )
    assert exit_.value.code == 2
    assert "--batch-size: at least 1" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()


def test_device_is_refused_under_several_processes(tiny_lm, tmp_path):
    data = write_jsonl(tmp_path / "pairs.jsonl", toy_pairs(4))
    out = tmp_path / "o"
    args = ["--data", str(data), "--model", str(tiny_lm), "--out", str(out), "--device", "cpu"]
    done = run_two("training.pairwise", *args)
    assert done.returncode != 0
    assert "error: device: 2 processes were launched" in done.stderr
    assert not out.exists()
