"""Score bins for the sources with scores of their own (rollout, judge, prm): the isotonic fit,
the lookup of a score's bin, the tables the harness writes and what the engines' results get."""

import json

import pytest

from autolabel import calibration
from autolabel.calibration.bins import bin_for, fit_bins, increasing, pool_adjacent_violators
from autolabel.engines.base import EngineResult, StepSuggestion
from autolabel.quality.data import LabeledSolution
from autolabel.quality.metrics import Tally


@pytest.fixture
def tables(tmp_path, monkeypatch):
    monkeypatch.setenv(calibration.ENV, str(tmp_path))
    yield tmp_path
    calibration.clear_cache()


def cell(lo, right, n):
    return {"lo": lo, "hi": round(lo + 0.1, 1), "right": right, "n": n}


def test_pav_keeps_monotone_points_and_pools_violators_weighted_by_n():
    assert pool_adjacent_violators([(0.2, 5), (0.5, 5), (0.9, 5)]) == [
        (0.2, 5, 1),
        (0.5, 5, 1),
        (0.9, 5, 1),
    ]
    # 0.8 then 0.2 violate: pooled to their weighted mean (0.8*1 + 0.2*3) / 4 = 0.35.
    ((rate, n, points), last) = pool_adjacent_violators([(0.8, 1), (0.2, 3), (0.9, 2)])
    assert (rate, n, points) == (pytest.approx(0.35), 4, 2) and last == (0.9, 2, 1)
    # A violation found late pools back through earlier blocks.
    (block,) = pool_adjacent_violators([(0.5, 1), (0.6, 1), (0.1, 2)])
    assert block == (pytest.approx(0.325), 4, 3)
    # Decreasing: the mirror image.
    assert pool_adjacent_violators([(0.9, 2), (0.95, 2)], rising=False) == [(0.925, 4, 2)]
    assert pool_adjacent_violators([], rising=True) == []
    assert pool_adjacent_violators([(0.4, 0)]) == []


def test_fit_bins_pools_violating_bins_into_one_breakpoint():
    cells = [cell(0.5, 0.9, 10), cell(0.0, 0.3, 20), cell(0.3, 0.6, 10), cell(0.2, 0.7, 30)]
    bins = fit_bins(cells)
    # In score order: 0.0 (0.3, 20), 0.2 (0.7, 30), 0.3 (0.6, 10), 0.5 (0.9, 10); the 0.2 and
    # 0.3 bins violate and pool: (0.7*30 + 0.6*10) / 40 = 0.675.
    assert bins == [
        {"lo": 0.0, "hi": 0.1, "right": 0.3, "n": 20},
        {"lo": 0.2, "hi": 0.4, "right": 0.675, "n": 40},
        {"lo": 0.5, "hi": 0.6, "right": 0.9, "n": 10},
    ]
    rights = [b["right"] for b in bins]
    assert rights == sorted(rights)
    assert sum(b["n"] for b in bins) == 70
    falling = fit_bins(cells, rising=False)
    assert [b["right"] for b in falling] == sorted((b["right"] for b in falling), reverse=True)
    assert sum(b["n"] for b in falling) == 70
    assert fit_bins([cell(0.4, 0.5, 8)]) == [{"lo": 0.4, "hi": 0.5, "right": 0.5, "n": 8}]
    assert fit_bins([]) == [] and fit_bins([cell(0.4, 0.5, 0)]) == []


def test_direction_follows_what_the_raw_score_says():
    assert increasing("rollout", "+1") and not increasing("rollout", "-1")
    assert increasing("prm", "+1") and not increasing("prm", "-1")
    assert increasing("judge", "+1") and increasing("judge", "-1")


def test_bin_for_edges_gaps_and_outside_the_range():
    bins = [  # edges exact in binary, so "halfway" is exactly halfway
        {"lo": 0.125, "hi": 0.25, "right": 0.4, "n": 5},
        {"lo": 0.25, "hi": 0.5, "right": 0.6, "n": 5},
        {"lo": 0.75, "hi": 0.875, "right": 0.9, "n": 5},
    ]
    assert bin_for(bins, 0.125)["right"] == 0.4  # lo is inclusive
    assert bin_for(bins, 0.25)["right"] == 0.6  # hi is exclusive: the next bin's lo
    assert bin_for(bins, 0.0)["right"] == 0.4  # below the first bin
    assert bin_for(bins, 0.95)["right"] == 0.9  # above the last
    assert bin_for(bins, 0.875)["right"] == 0.9  # the last bin's hi
    assert bin_for(bins, 0.5)["right"] == 0.6  # a hi with no bin after it: its own bin
    assert bin_for(bins, 0.55)["right"] == 0.6  # in a gap: the nearer bin
    assert bin_for(bins, 0.7)["right"] == 0.9
    assert bin_for(bins, 0.625)["right"] == 0.6  # halfway: the lower
    assert bin_for([bins[0]], 0.99)["right"] == 0.4


def solution(truth):
    steps = tuple(f"s{i}" for i in range(len(truth)))
    return LabeledSolution("processbench", "x", "?", "1", steps, tuple(truth))


def test_the_tally_bins_the_model_score_per_verdict_kind():
    tally = Tally()
    suggestions = [
        StepSuggestion(0, 1, 0.95, {}),
        StepSuggestion(1, 1, 0.9, {"raw_score": 0.15}),  # calibrated: the raw score counts
        StepSuggestion(2, -1, 0.05, {}),
        StepSuggestion(3, -1, None, {}),  # no score: counted in the kind, not in a bin
    ]
    tally.add(solution([1, -1, -1, -1]), suggestions, seconds=0.0)
    bins = tally.report()["score_bins"]
    assert bins["+1"] == [
        {"lo": 0.1, "hi": 0.2, "n": 1, "right": 0.0, "mean_score": 0.15},
        {"lo": 0.9, "hi": 1.0, "n": 1, "right": 1.0, "mean_score": 0.95},
    ]
    assert bins["-1"] == [{"lo": 0.0, "hi": 0.1, "n": 1, "right": 1.0, "mean_score": 0.05}]
    assert tally.report()["verdicts"]["-1"] == {"n": 2, "right": 1.0}


def report(source, agent, score_bins, verdicts):
    metrics = {
        "agents": [agent],
        "verdicts": verdicts,
        "score_bins": score_bins,
        "solutions": 9,
        "known_steps": 40,
        "base_rate": 0.5,
    }
    return {"data": ["x.jsonl"], "limit": None, "results": {source: {"all": metrics}}}


def test_tables_get_bins_only_for_scored_sources(tables):
    neg = [cell(0.0, 0.9, 10), cell(0.3, 0.95, 10)]  # a −1 at 0.35 was right more often
    pos = [cell(0.5, 0.6, 10), cell(0.9, 0.8, 30)]
    verdicts = {"-1": {"n": 20, "right": 0.925}, "+1": {"n": 40, "right": 0.75}}
    out = calibration.tables_from_report(
        report("rollout", "mc:m", {"-1": neg, "+1": pos}, verdicts), on="x"
    )
    kinds = out["rollout"]["agents"]["mc:m"]["verdicts"]
    # P(step correct) is the raw score: a −1's bins may only fall, so the two pool.
    assert kinds["-1"] == {
        "right": 0.925,
        "n": 20,
        "bins": [{"lo": 0.0, "hi": 0.4, "right": 0.925, "n": 20}],
    }
    assert kinds["+1"]["bins"] == fit_bins(pos)
    symbolic = calibration.tables_from_report(
        report("symbolic", "sympy", {"-1": neg}, verdicts), on="x"
    )
    assert "bins" not in symbolic["symbolic"]["agents"]["sympy"]["verdicts"]["-1"]


def prm_result(agent, probabilities):
    suggestions = [
        StepSuggestion(i, 1 if p >= 0.5 else -1, p, {"probability": p})
        for i, p in enumerate(probabilities)
    ]
    return EngineResult(source="prm", agent=agent, suggestions=suggestions)


def test_measured_scores_are_mapped_and_the_model_score_kept(tables):
    (tables / "prm.json").write_text(
        json.dumps(
            {
                "agents": {
                    "prm:m": {
                        "on": "hand data",
                        "verdicts": {
                            "+1": {
                                "right": 0.8,
                                "n": 50,
                                "bins": [
                                    {"lo": 0.5, "hi": 0.8, "right": 0.7, "n": 20},
                                    {"lo": 0.8, "hi": 1.0, "right": 0.9, "n": 30},
                                ],
                            },
                            "-1": {"right": 0.6, "n": 10},  # no bins: not mapped
                        },
                    }
                }
            }
        )
    )
    result = calibration.calibrate(prm_result("prm:m", [0.95, 0.6, 0.3]))
    high, low, negative = result.suggestions
    assert (high.score, high.evidence["raw_score"]) == (0.9, 0.95)
    assert high.evidence["calibration"] == {
        "right": 0.9,
        "n": 30,
        "lo": 0.8,
        "hi": 1.0,
        "on": "hand data",
        "raw": 0.95,
    }
    assert (low.score, low.evidence["raw_score"]) == (0.7, 0.6)
    assert (negative.score, negative.evidence["calibration"]) == (0.3, {"measured": False})
    assert negative.evidence["raw_score"] == 0.3
    # Calibrating again maps the model's score, not the calibrated one.
    again = calibration.calibrate(result).suggestions
    assert [s.score for s in again] == [0.9, 0.7, 0.3]
    # Another model, never measured: its own estimates, said to be unmeasured.
    other = calibration.calibrate(prm_result("prm:other", [0.95])).suggestions[0]
    assert (other.score, other.evidence["calibration"]) == (0.95, {"measured": False})


def test_a_verdict_without_a_raw_score_gets_its_kinds_rate(tables):
    bins = [{"lo": 0.0, "hi": 0.1, "right": 0.9, "n": 4}]
    (tables / "rollout.json").write_text(
        json.dumps(
            {
                "agents": {
                    "binary_search:m": {
                        "on": "d",
                        "verdicts": {"+1": {"right": 0.75, "n": 8, "bins": bins}},
                    }
                }
            }
        )
    )
    inferred = StepSuggestion(0, 1, None, {"inferred": True})
    result = EngineResult(source="rollout", agent="binary_search:m", suggestions=[inferred])
    (s,) = calibration.calibrate(result).suggestions
    assert s.score == 0.75
    assert s.evidence["calibration"] == {"right": 0.75, "n": 8, "on": "d", "raw": None}
