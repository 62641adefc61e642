"""End to end on CPU: the label-quality harness measures a tiny model (rollouts from the tiny
Qwen2, a PRM from the tiny training LM), writes its score bins into a temporary calibration
directory, and the engine run with the same agent then scores its verdicts with them.

The tables measured here mean nothing (a random PRM head, a model taught one problem); they
are never written to autolabel/calibration/."""

import json
import sys
from pathlib import Path

import pytest

from autolabel import calibration
from autolabel.calibration.bins import bin_for
from autolabel.engines.base import SolutionInput
from autolabel.engines.prm import PrmEngine, clear_scorer_cache
from autolabel.engines.rollout import RolloutEngine
from autolabel.rollouts import MemoryRolloutCache

from .tiny_model import BAD_STEP, GOLD, GOOD_STEPS, PROBLEM

REPO = Path(__file__).resolve().parents[2]
ROLLOUT = {"n": 4, "max_tokens": 16, "temperature": 1.0, "seed": 3}
# steplab rows: the tiny model's problem, with labels some of which disagree with it (the
# planted step called correct, a good step called wrong), so not every verdict is right.
ROWS = [
    {"steps": GOOD_STEPS, "labels": [1, 1, 1, 1]},
    {"steps": [*GOOD_STEPS[:2], BAD_STEP, GOOD_STEPS[2]], "labels": [1, 1, -1]},
    {"steps": [GOOD_STEPS[0], BAD_STEP, GOOD_STEPS[1]], "labels": [1, 1, -1]},
    {"steps": GOOD_STEPS[:3], "labels": [1, -1]},
    {"steps": [BAD_STEP, *GOOD_STEPS[1:3]], "labels": [-1]},
]


@pytest.fixture
def calibration_dir(tmp_path, monkeypatch):
    folder = tmp_path / "calibration"
    monkeypatch.setenv(calibration.ENV, str(folder))  # restored after the CLI sets it
    yield folder
    calibration.clear_cache()


@pytest.fixture
def labeled(tmp_path) -> Path:
    path = tmp_path / "tiny_labeled.jsonl"
    rows = [
        {"id": f"t{i}", "problem": PROBLEM, "answer": GOLD, **row} for i, row in enumerate(ROWS)
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def harness(*args: str) -> dict:
    sys.path.insert(0, str(REPO / "bench"))
    import label_quality

    return label_quality.main(list(args))


def check_bins(cell: dict) -> list[dict]:
    bins = cell["bins"]
    assert bins and all(b["n"] > 0 and 0 <= b["right"] <= 1 for b in bins)
    assert sum(b["n"] for b in bins) <= cell["n"]
    return bins


def test_rollout_bins_measured_then_applied(tiny_model, labeled, calibration_dir, monkeypatch):
    report = harness(
        "--data", str(labeled), "--sources", "rollout", "--model", str(tiny_model),
        "--params", json.dumps({"rollout": ROLLOUT}), "--calibrate",
        "--calibration-dir", str(calibration_dir), "--limit", "5",
    )  # fmt: skip
    assert not report["results"]["rollout"]["all"]["errors"]
    (agent, entry) = json.loads((calibration_dir / "rollout.json").read_text())["agents"].popitem()
    assert agent.startswith("mc:hf:") and entry["on"] == "tiny labeled"
    verdicts = entry["verdicts"]
    positive = check_bins(verdicts["+1"])
    assert [b["right"] for b in positive] == sorted(b["right"] for b in positive)
    negative = check_bins(verdicts["-1"])  # P(step correct): a −1's rate only falls
    assert [b["right"] for b in negative] == sorted((b["right"] for b in negative), reverse=True)

    backend = {"kind": "transformers", "path": str(tiny_model), "device": "cpu"}
    engine = RolloutEngine(cache=MemoryRolloutCache())
    steps = (GOOD_STEPS[0], GOOD_STEPS[1], BAD_STEP, GOOD_STEPS[2])
    result = engine(SolutionInput(PROBLEM, GOLD, steps), {"backend": backend, **ROLLOUT})
    assert result.agent == agent
    assert {s.value for s in result.suggestions} == {1, -1}
    for s in result.suggestions:
        raw = s.evidence["raw_score"]
        if s.evidence["method"] == "mc":
            assert raw == s.evidence["correct"] / s.evidence["total"]
        kind = "+1" if s.value == 1 else "-1"
        found = bin_for(verdicts[kind]["bins"], raw)
        assert s.score == found["right"]
        assert s.evidence["calibration"] == {
            "right": found["right"],
            "n": found["n"],
            "lo": found["lo"],
            "hi": found["hi"],
            "on": "tiny labeled",
            "raw": raw,
        }

    # Another calibration directory, without this model: its own shares, marked unmeasured.
    monkeypatch.setenv(calibration.ENV, str(calibration_dir.with_name("empty")))
    again = engine(SolutionInput(PROBLEM, GOLD, steps), {"backend": backend, **ROLLOUT})
    for s in again.suggestions:
        assert s.score == s.evidence["raw_score"]
        assert s.evidence["calibration"] == {"measured": False}


@pytest.fixture(scope="module")
def tiny_prm(tmp_path_factory) -> Path:
    """A PRM trained a few steps on the toy rows (tests/training: a step is wrong iff it says
    the marker): real probabilities, spread but far from perfect."""
    from tests.training.tiny import build_tiny_lm, toy_rows, write_jsonl
    from training.config import TrainConfig
    from training.train import train

    base = build_tiny_lm(tmp_path_factory.mktemp("tiny-lm"))
    data = write_jsonl(tmp_path_factory.mktemp("toy") / "export.jsonl", toy_rows(64))
    out = tmp_path_factory.mktemp("tiny-prm")
    train(
        TrainConfig(
            data=[str(data)], model=str(base), out=str(out), lr=3e-3, batch_size=8,
            max_steps=30, log_every=30, packing=True, progress=False,
        )
    )  # fmt: skip
    return out


@pytest.fixture
def toy_labeled(tmp_path) -> Path:
    """Toy solutions the PRM never saw, as steplab rows labeled first-error style."""
    from tests.training.tiny import toy_rows

    path = tmp_path / "toy_labeled.jsonl"
    lines = []
    for i, row in enumerate(toy_rows(12, seed=7)):
        correct = row["labels"]
        first = correct.index(False) if False in correct else len(correct)
        labels = [1] * first + [-1] * (first < len(correct))
        problem = {"id": f"toy{i}", "problem": row["prompt"], "answer": str(2 * i)}
        lines.append(json.dumps({**problem, "steps": row["completions"], "labels": labels}))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_prm_bins_measured_on_a_slice_then_applied(tiny_prm, toy_labeled, calibration_dir):
    clear_scorer_cache()
    params = {"prm": {"model": "tiny-prm"}}  # the registered model's name, as a run passes
    harness(
        "--sources", "prm", "--model", str(tiny_prm), "--params", json.dumps(params),
        "--data", str(toy_labeled), "--limit", "10",
        "--calibrate", "--calibration-dir", str(calibration_dir),
    )  # fmt: skip
    entry = json.loads((calibration_dir / "prm.json").read_text())["agents"]["prm:tiny-prm"]
    assert entry["solutions"] == 10
    verdicts = entry["verdicts"]
    assert verdicts and set(verdicts) <= {"-1", "+1"}
    for kind, cell in verdicts.items():
        bins = check_bins(cell)
        # A PRM scores every step: every known verdict is in a bin.
        assert sum(b["n"] for b in bins) == cell["n"]
        rights = [b["right"] for b in bins]
        assert rights == sorted(rights, reverse=kind == "-1")

    steps = ("add the two numbers 3.", "oops so we get 7.", "check the result 9.")
    assert len({b["right"] for c in verdicts.values() for b in c["bins"]}) > 1
    run = {"path": str(tiny_prm), "model": "tiny-prm", "device": "cpu"}
    result = PrmEngine()(SolutionInput("What is 3 + 4?", "7", steps), run)
    assert result.agent == "prm:tiny-prm"
    for s in result.suggestions:
        raw = s.evidence["raw_score"]
        assert s.evidence["probability"] == round(raw, 6)
        assert s.value == (1 if raw >= 0.5 else -1)  # the verdict is still the model's
        kind = "+1" if s.value == 1 else "-1"
        if kind in verdicts:
            assert s.score == bin_for(verdicts[kind]["bins"], raw)["right"]
            assert s.evidence["calibration"]["raw"] == raw
        else:
            assert (s.score, s.evidence["calibration"]) == (raw, {"measured": False})
    # The active-learning summary still reads the model's probabilities.
    lowest = min(s.evidence["raw_score"] for s in result.suggestions)
    assert result.solution_evidence["min_probability"] == round(lowest, 6)
    clear_scorer_cache()
