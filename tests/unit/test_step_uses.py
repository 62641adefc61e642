"""The step-reference detector and the `uses` checks (pure, labeling/importers/dependencies)."""

import json
from pathlib import Path

import pytest

from bench.long_solution_bench import detect_uses_all_pairs
from bench.step_uses import measure
from labeling.importers.dependencies import detect_uses, uses_normal, uses_problem

GOLD = Path(__file__).parent / "data" / "step_uses_gold.jsonl"


@pytest.mark.parametrize(
    ("steps", "expected"),
    [
        # Explicit references, 1-based as people write them.
        (["a", "b", "From step 1 and step 2 we get c."], [[], [], [0, 1]]),
        (["a", "b", "c", "Combining steps 1-3: d"], [[], [], [], [0, 1, 2]]),
        (["a", "By the previous step, b."], [[], [0]]),
        # A step's own heading is not a reference, nor is a later step.
        (["Step 1: a", "Step 2: b, then see step 3"], [[], []]),
        # Equation labels: introduced by \tag or a trailing "(k)", used later.
        (
            ["$x + y = 10 \\tag{1}$", "$x - y = 2$ (2)", "Adding (1) and (2): 2x = 12"],
            [[], [], [0, 1]],
        ),
        (["We have a = b + c (1)", "Hence, using equation (1), b = a - c"], [[], [0]]),
        # Results reused: 150 is computed in step 1, written again in step 2.
        (
            ["He eats 75 beans.", "Twice as many: 2 x 75 = 150 beans.", "So 150 / 3 = 50."],
            [[], [], [1]],
        ),
    ],
)
def test_detect_uses(steps, expected):
    assert detect_uses(steps) == expected


def test_numbers_from_the_problem_and_small_numbers_are_not_results():
    # 75 is given by the problem, 4 is too small to tell apart from any other 4.
    problem = "It takes 75 beans."
    steps = ["So 75 = 75 and 2 + 2 = 4.", "He eats 75 beans, 4 times."]
    assert detect_uses(steps, problem) == [[], []]


def test_uses_checks():
    assert uses_problem([0, 1], 2, 3) is None
    assert "forward or self" in uses_problem([2], 2, 3)
    assert "forward or self" in uses_problem([1], 0, 3)
    assert "out of range" in uses_problem([5], 2, 3)
    assert "out of range" in uses_problem([-1], 2, 3)
    assert "integer" in uses_problem(["0"], 2, 3)
    assert "integer" in uses_problem([True], 2, 3)
    assert "list" in uses_problem(1, 2, 3)
    assert uses_normal([3, 1, 3]) == [1, 3]


def test_precision_on_hand_labeled_real_solutions():
    """31 hand-labeled ProcessBench steps (bench/step_uses.py): the detector names few
    edges, and the ones it names are right. A change that adds wrong edges fails here."""
    rows = [json.loads(line) for line in GOLD.read_text(encoding="utf-8").splitlines()]
    result = measure(rows)
    assert result["steps"] == 31 and result["hand_edges"] == 32
    assert result["detected_edges"] >= 10
    assert result["precision"] >= 0.9
    assert result["recall"] >= 0.3


def test_the_linear_detector_agrees_with_the_all_pairs_reading():
    import random

    rng = random.Random(28)
    pieces = ["12", "12.5", "-12", "1,200", "1200", "112", "2.50", "0.5", "x_12", "12a", "3.14"]
    pieces += ["75", "150", "(1)", "(2)", "\\tag{1}", "step 2", "the previous step", "=", "= "]
    traces = []
    for _ in range(300):
        n = rng.randint(1, 30)
        steps = [" ".join(rng.choice(pieces) for _ in range(rng.randint(1, 9))) for _ in range(n)]
        traces += [(steps, ""), (steps, "1200 and 12.5")]
    for line in GOLD.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        traces.append((row["steps"], row["problem"]))
    for steps, problem in traces:
        assert detect_uses(steps, problem) == detect_uses_all_pairs(steps, problem), steps


@pytest.mark.parametrize("scan_max", [0, 3, 10**9])
def test_the_scan_and_the_index_read_the_same(monkeypatch, scan_max):
    """Short solutions look results up with str.find, long ones through the index of runs of
    digits (SCAN_MAX): either way, on traces on both sides of it, as the all-pairs reading."""
    import random

    from labeling.importers import dependencies

    monkeypatch.setattr(dependencies, "SCAN_MAX", scan_max)
    rng = random.Random(26)
    pieces = ["12", "12.5", "-12", "1,200", "1200", "112", "2.50", "0.5", "x_12", "12a", "3.14"]
    pieces += ["75", "150", "(1)", "step 2", "the previous step", "=", "= ", "= 7.5", "=1,200"]
    pieces += [f"= {n}" for n in range(10, 60)] + [str(n) for n in range(10, 60)]
    for _ in range(120):
        n = rng.randint(1, 90)
        steps = [" ".join(rng.choice(pieces) for _ in range(rng.randint(1, 12))) for _ in range(n)]
        for problem in ("", "1200 and 12.5 and 33"):
            assert detect_uses(steps, problem) == detect_uses_all_pairs(steps, problem), steps


def test_a_long_trace_reuses_its_results_as_a_short_one_does():
    # 5,000 steps each computing a new result from the one before: every step uses the last.
    steps = [f"x_{k} = x_{{k-1}} + 7 = {1000 + 7 * k}" for k in range(5000)]
    steps = [f"{steps[k]} from {1000 + 7 * (k - 1)}" if k else steps[k] for k in range(5000)]
    found = detect_uses(steps)
    assert found[0] == [] and all(found[k] == [k - 1] for k in range(1, 5000))


def test_step_numbers_of_four_digits_are_not_read_as_their_first_three():
    # A long trace's own "Step 1500:" heading is not a reference to step 150, nor is a year.
    steps = ["a"] * 1600
    steps[1499] = "Step 1500: ran the tests again"
    steps[1500] = "In step 1500 the tests ran; as in step 150 and the 2024 report"
    steps[1501] = "Steps 1499-1501 of the log, then steps 1200 and 12"
    found = detect_uses(steps)
    assert found[1499] == []
    assert found[1500] == [149, 1499]
    assert found[1501] == [11, 1199, 1498, 1499, 1500]
