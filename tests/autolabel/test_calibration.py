"""Calibrated scores (autolabel/calibration): tables written from the harness's measurements,
read by the engines; an unmeasured agent or verdict claims no probability."""

import json
import sys
from pathlib import Path

import pytest

from autolabel import calibration
from autolabel.engines.base import CHECKS_OUT, EngineResult, SolutionInput, StepSuggestion
from autolabel.engines.consensus import ConsensusEngine
from autolabel.engines.symbolic import AGENT, SymbolicEngine
from autolabel.quality.harness import evaluate

REPO = Path(__file__).resolve().parent.parent.parent
HAND = [
    {"id": "t-a", "label": -1, "steps": ["First, 2 + 3 = 5.", "Then 5 * 4 = 20.", "Done."]},
    {
        "id": "t-b",
        "label": 1,
        "steps": ["First, 2 + 3 = 5.", "Then 5 * 4 = 21.", "So 21 + 1 = 22."],
    },
    {"id": "t-c", "label": 1, "steps": ["First, 7 - 2 = 6.", "Then 6 * 2 = 12.", "Done."]},
]


@pytest.fixture
def tables(tmp_path, monkeypatch):
    """An empty calibration directory in place of the checked-in one."""
    monkeypatch.setenv(calibration.ENV, str(tmp_path))
    yield tmp_path
    calibration.clear_cache()


@pytest.fixture
def hand_file(tmp_path):
    path = tmp_path / "hand_processbench.jsonl"
    path.write_text(
        "".join(json.dumps({"problem": "?", "generator": "t", **r}) + "\n" for r in HAND)
    )
    return path


def test_tables_from_the_harness_and_engines_reading_them(tables, hand_file):
    report = evaluate([hand_file], ["symbolic", "consensus"])
    written = calibration.write_tables(calibration.tables_from_report(report, on="hand sample"))
    assert sorted(p.name for p in written) == ["consensus.json", "symbolic.json"]
    entry = json.loads((tables / "symbolic.json").read_text())["agents"][AGENT]
    # −1: B step 1 right, C step 0 wrong; checks out on A 0, A 1, B 0 (correct), C 1 (wrong).
    assert entry["verdicts"] == {
        "-1": {"right": 0.5, "n": 2},
        "checks out": {"right": 0.75, "n": 4, "base_rate": round(5 / 7, 4)},
    }
    assert (entry["on"], entry["data"], entry["solutions"]) == (
        "hand sample",
        ["hand_processbench.jsonl"],
        3,
    )
    consensus = json.loads((tables / "consensus.json").read_text())["agents"]
    assert consensus["consensus:symbolic"]["verdicts"] == {"-1": {"right": 0.5, "n": 2}}

    # The engine now scores its verdicts with what was measured.
    steps = ("So 5 * 4 = 21.", "And 2 + 3 = 5.")
    result = SymbolicEngine()(SolutionInput(problem="?", gold_answer="", steps=steps), {})
    refuted, checks_out = result.suggestions
    assert (refuted.value, refuted.score) == (-1, 0.5)
    assert refuted.evidence["calibration"] == {"right": 0.5, "n": 2, "on": "hand sample"}
    assert (checks_out.value, checks_out.score) == (None, None)
    assert checks_out.evidence["kind"] == CHECKS_OUT
    assert checks_out.evidence["calibration"] == {
        "step_correct": 0.75,
        "base_rate": round(5 / 7, 4),
        "n": 4,
        "on": "hand sample",
    }


def test_another_version_or_an_unmeasured_verdict_has_no_score(tables):
    (tables / "symbolic.json").write_text(
        json.dumps(
            {
                "agents": {
                    "sympy/symbolic-0.9": {"on": "x", "verdicts": {"-1": {"right": 1, "n": 9}}}
                }
            }
        )
    )
    result = EngineResult(
        source="symbolic",
        agent=AGENT,
        suggestions=[StepSuggestion(0, -1, 1.0, {"failed": []})],
    )
    (s,) = calibration.calibrate(result).suggestions
    assert s.score is None and "calibration" not in s.evidence
    # Consensus with rollout and judge was never measured: its +1 and −1 carry no score.
    out = ConsensusEngine()(
        SolutionInput(
            problem="?",
            gold_answer="",
            steps=("a", "b"),
            suggestions={"rollout:m": (1, -1), "judge:j": (1, -1)},
        ),
        {},
    )
    assert [(s.value, s.score) for s in out.suggestions] == [(1, None), (-1, None)]


def test_write_keeps_other_agents(tables):
    (tables / "symbolic.json").write_text(json.dumps({"agents": {"old": {"verdicts": {}}}}))
    calibration.write_tables({"symbolic": {"agents": {"new": {"verdicts": {}}}}})
    assert set(json.loads((tables / "symbolic.json").read_text())["agents"]) == {"old", "new"}


def test_the_checked_in_symbolic_table_is_for_this_version():
    cell = calibration.lookup("symbolic", AGENT, "-1")
    assert cell is not None and cell["n"] >= 10 and 0 < cell["right"] <= 1 and cell["on"]


def test_cli_calibrate(tables, hand_file, capsys):
    sys.path.insert(0, str(REPO / "bench"))
    import label_quality

    label_quality.main(["--data", str(hand_file), "--sources", "symbolic", "--calibrate"])
    entry = json.loads((tables / "symbolic.json").read_text())["agents"][AGENT]
    assert entry["on"] == "hand processbench" and entry["verdicts"]["-1"] == {"right": 0.5, "n": 2}


def test_cli_prm_model_is_the_prm_only_when_no_generator_is_chosen():
    sys.path.insert(0, str(REPO / "bench"))
    import label_quality

    def prm_params(*argv: str) -> dict:
        return label_quality.source_params(label_quality.parse_args(list(argv))).get("prm", {})

    assert prm_params("--sources", "prm", "--model", "m") == {"path": "m", "device": "cpu"}
    assert prm_params("--sources", "rollout,prm", "--model", "m") == {}
    assert prm_params("--sources", "rollout,prm", "--model", "m", "--prm", "p")["path"] == "p"
    with pytest.raises(ValueError, match="--prm DIR"):
        evaluate([], ["prm"], params={"prm": {}})
