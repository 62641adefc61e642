import json
import os
import subprocess
import sys
from pathlib import Path

from training.evaluate import main as evaluate_main
from training.score import PRMScorer

REPO = Path(__file__).resolve().parents[2]
PROCESSBENCH = REPO.parent / "shared" / "data" / "processbench_sample.jsonl"


def test_train_cli_end_to_end_on_two_processes_then_evaluate(tiny_lm, toy_export, tmp_path, capsys):
    """The CLI under torchrun with 2 CPU processes (gloo data parallelism): one summary, one
    metrics log with metrics summed over ranks, truncation reported, a loadable PRM."""
    out = tmp_path / "prm"
    config = tmp_path / "cfg.yaml"
    config.write_text(f"data: [{toy_export}]\nmodel: {tiny_lm}\nlr: 0.003\nbatch_size: 4\n")
    command = [
        sys.executable, "-m", "torch.distributed.run", "--nproc_per_node", "2",
        "-m", "training.train", "--config", str(config), "--out", str(out),
        "--max-steps", "4", "--log-every", "2", "--packing", "--no-progress",
        "--max-length", "48", "--eval-fraction", "0.2",
    ]  # fmt: skip
    env = {**os.environ, "ACCELERATE_USE_CPU": "true", "OMP_NUM_THREADS": "1"}
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "steps of 4 x 1 x 2 examples" in done.stderr  # two ranks really train together
    assert done.stdout.count('"out":') == 1  # one summary, from the main process
    summary = json.loads(done.stdout[done.stdout.index("{") :])
    assert summary["steps"] == 4 and summary["out"] == str(out)
    assert summary["truncation"] > 0  # max_length 48 cuts long toy rows: reported, not silent
    assert "truncation dropped" in done.stderr
    records = [json.loads(x) for x in (out / "metrics.jsonl").read_text().splitlines()]
    assert [(r["split"], r["step"]) for r in records] == [("train", 2), ("train", 4), ("eval", 4)]
    stats = json.loads((out / "data_stats.json").read_text())
    assert stats["train"]["steps_dropped"] == summary["truncation"]
    assert records[-1]["steps"] == stats["eval"]["steps"] - stats["eval"]["steps_dropped"]
    assert json.loads((out / "training_config.json").read_text())["max_length"] == 48

    scores = PRMScorer(out, device="cpu").score("p", [["one step", "two steps"]])
    assert len(scores[0]) == 2 and all(0 < s < 1 for s in scores[0])

    rows = PROCESSBENCH.read_text().splitlines()[:6]
    sample = tmp_path / "pb.jsonl"
    sample.write_text("\n".join(rows) + "\n")
    saved = tmp_path / "scored.jsonl"
    args = ["processbench", str(sample), "--model", str(out), "--save-scores", str(saved)]
    assert evaluate_main(args) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["overall"]["n_error"] + report["overall"]["n_correct"] == 6
    scored = [json.loads(x) for x in saved.read_text().splitlines()]
    assert [len(r["step_scores"]) for r in scored] == [len(json.loads(x)["steps"]) for x in rows]
