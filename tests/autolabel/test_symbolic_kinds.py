"""Refute only what a claim kind has earned (issue 25): the Wilson bound, the earning rule,
the engine's gate (−1 for an earned kind, "doubtful" evidence otherwise, nothing earned
without a table for the running checker version), consensus treating "doubtful" as no vote,
and the dev-set scoring by part with adjudications."""

from __future__ import annotations

import json

import pytest

from autolabel.calibration import ENV, kinds
from autolabel.engines.base import DOUBTFUL, SolutionInput
from autolabel.engines.symbolic import SymbolicEngine
from autolabel.quality.adjudications import Adjudication, adjudicated_truth
from autolabel.quality.refutations import FailedStep, SolutionRun, measured_gate, score
from autolabel.quality.runner import offline_engines, run_sources
from autolabel.symbolic import CHECKER_VERSION

WRONG_SUM = ("First we add.", "So 2 + 3 = 6.")


# --- the Wilson bound and the rule ------------------------------------------------------


@pytest.mark.parametrize(
    ("right", "n", "low"),
    [(8, 10, 0.4902), (16, 16, 0.8064), (18, 18, 0.8241), (95, 100, 0.8882), (0, 5, 0.0)],
)
def test_wilson_lower_bound_matches_the_textbook_values(right: int, n: int, low: float) -> None:
    assert kinds.wilson_lower(right, n) == pytest.approx(low, abs=5e-4)


def test_wilson_lower_bound_of_nothing_is_zero_and_bad_counts_raise() -> None:
    assert kinds.wilson_lower(0, 0) == 0.0
    with pytest.raises(ValueError, match="between 0 and n"):
        kinds.wilson_lower(5, 4)


def test_a_kind_earns_with_high_precision_and_enough_cases() -> None:
    assert kinds.earns(16, 16)  # the fewest all-right cases the 0.80 floor lets through
    assert not kinds.earns(15, 15)  # too few to tell
    assert not kinds.earns(19, 20)  # 95% precision, but the bound is 0.76
    assert kinds.earns(24, 25) and not kinds.earns(23, 24)  # one wrong: 25 cases at least
    assert kinds.earns(38, 40) and not kinds.earns(37, 39)  # two wrong: 95% binds
    assert not kinds.earns(90, 100)  # many cases, precision too low
    assert not kinds.earns(0, 0)


# --- the gate in the engine -------------------------------------------------------------


@pytest.fixture
def kinds_table(tmp_path, monkeypatch):
    """A calibration directory of the test's own; no kind assumed earned."""
    monkeypatch.setattr(kinds, "assume_all_earned", False)
    monkeypatch.setenv(ENV, str(tmp_path))

    def write(cells: dict[str, tuple[int, int]], version: str = CHECKER_VERSION) -> None:
        rows = {k: kinds.kind_row(right, n) for k, (right, n) in cells.items()}
        entry = {"on": "test data", "kinds": rows}
        kinds.write_kinds(version, entry, folder=tmp_path)

    yield write
    kinds.clear_cache()


def _step(steps: tuple[str, ...] = WRONG_SUM):
    result = SymbolicEngine()(SolutionInput(problem="", gold_answer="", steps=steps), {})
    (suggestion,) = [s for s in result.suggestions if s.step_index == 1]
    return suggestion


def test_an_unearned_kind_gives_doubtful_evidence_not_a_minus_one(kinds_table) -> None:
    kinds_table({"arithmetic": (18, 20), "chain": (30, 30)})
    s = _step()
    assert s.value is None and s.score is None
    assert s.evidence["kind"] == DOUBTFUL
    assert s.evidence["kinds"] == ["arithmetic"]
    assert s.evidence["failed"][0]["text"] == "2 + 3 = 6"
    (measured,) = s.evidence["gate"]["kinds"]
    assert measured == {
        "kind": "arithmetic",
        "measured": True,
        "precision": 0.9,
        "right": 18,
        "n": 20,
        "wilson_lower": kinds.kind_row(18, 20)["wilson_lower"],
        "earned": False,
        "on": "test data",
    }


def test_an_earned_kind_refutes(kinds_table) -> None:
    kinds_table({"arithmetic": (40, 40)})
    s = _step()
    assert s.value == -1
    assert s.evidence["kinds"] == ["arithmetic"]
    assert s.evidence["gate"]["kinds"][0]["earned"] is True
    assert "kind" not in s.evidence or s.evidence["kind"] != DOUBTFUL


def test_one_earned_kind_among_the_failed_claims_is_enough(kinds_table) -> None:
    kinds_table({"arithmetic": (40, 40), "chain": (3, 10)})
    s = _step(("Start.", "So 2 + 3 = 6, and 7 - 2 = 5 = 3 + 3."))
    assert set(s.evidence["kinds"]) == {"arithmetic", "chain"}
    assert s.value == -1


def test_without_a_table_for_this_version_no_kind_has_earned(kinds_table) -> None:
    kinds_table({"arithmetic": (40, 40)}, version="symbolic-0.9")  # another version's table
    s = _step()
    assert s.value is None and s.evidence["kind"] == DOUBTFUL
    assert s.evidence["gate"]["kinds"] == [
        {"kind": "arithmetic", "measured": False, "earned": False}
    ]


def test_consensus_takes_doubtful_evidence_as_no_vote(kinds_table) -> None:
    solution = SolutionInput(problem="", gold_answer="", steps=WRONG_SUM)
    params = {"consensus": {"required": ["symbolic"]}}

    def consensus():
        runs = run_sources(solution, ["symbolic", "consensus"], params, engines=offline_engines())
        return runs["consensus"].result

    kinds_table({})
    assert not [s for s in consensus().suggestions if s.value is not None]
    kinds_table({"arithmetic": (40, 40)})
    assert [(s.step_index, s.value) for s in consensus().suggestions if s.value] == [(1, -1)]


# --- scoring by part, with adjudications ------------------------------------------------


def _run(ref: str, part: str, truth: tuple, failed: dict[int, tuple[str, ...]]) -> SolutionRun:
    steps = tuple(FailedStep(i, -1, k, ()) for i, k in failed.items())
    return SolutionRun(ref, part, truth, steps)


RUNS = [
    # first error at 2, refuted there (right) and at 3 (after it: unknown)
    _run("a", "develop", (1, 1, -1, None), {2: ("arithmetic",), 3: ("chain",)}),
    # a correct step refuted (wrong), the first error missed
    _run("b", "develop", (1, -1, None), {0: ("chain",)}),
    # no error; a refutation the adjudication turns right
    _run("c", "measure", (1, 1, 1), {1: ("arithmetic",)}),
]
ADJUDICATED = {("c", 1): Adjudication("c", 1, "correct", "1 + 1 = 3 is written here")}


def test_first_error_protocol_by_part_raw_and_adjudicated() -> None:
    gate = kinds.KindGate(CHECKER_VERSION, {"arithmetic": {"earned": True}})
    scored = score(RUNS, ADJUDICATED, gate)
    raw = scored["before"]["raw"]
    assert raw["develop"]["refutations"] == 3 and raw["develop"]["judged"] == 2
    assert raw["develop"]["right"] == 1 and raw["develop"]["precision"] == 0.5
    assert raw["develop"]["refuted_correct"] == 1 and raw["develop"]["correct_steps"] == 3
    assert raw["develop"]["first_error_recall"] == 0.5
    assert raw["measure"]["precision"] == 0.0 and raw["measure"]["erroneous"] == 0
    assert raw["all"]["kinds"]["chain"] == kinds.kind_row(0, 1)
    adjudicated = scored["before"]["adjudicated"]["measure"]
    assert adjudicated["precision"] == 1.0 and adjudicated["first_error_recall"] == 1.0
    assert adjudicated["correct_steps"] == 1  # step 2 is now after the first error
    after = scored["after"]["raw"]["all"]  # only arithmetic refutes
    assert after["refutations"] == 2 and after["judged"] == 2 and after["right"] == 1


def test_the_measured_gate_reads_the_develop_part_with_adjudications_only() -> None:
    gate = measured_gate(RUNS, ADJUDICATED, CHECKER_VERSION)
    assert gate.kinds["arithmetic"]["refutations"] == 1  # c is in the measure part
    assert gate.kinds["chain"]["right"] == 0


def test_an_adjudicated_first_error_judged_correct_leaves_the_rest_unknown() -> None:
    item = Adjudication("r", 1, "wrong", "the step is right: 6 * 7 = 42")
    assert adjudicated_truth("r", (1, -1, None), {("r", 1): item}) == (1, 1, None)
    assert adjudicated_truth("other", (1, -1), {("r", 1): item}) == (1, -1)


def test_the_stored_table_is_keyed_by_version_and_keeps_other_versions(tmp_path) -> None:
    kinds.write_kinds("v1", {"kinds": {"arithmetic": kinds.kind_row(20, 20)}}, folder=tmp_path)
    kinds.write_kinds("v2", {"kinds": {}}, folder=tmp_path)
    stored = json.loads((tmp_path / "symbolic_kinds.json").read_text())
    assert set(stored["versions"]) == {"v1", "v2"}
    assert stored["versions"]["v1"]["kinds"]["arithmetic"]["earned"] is True
