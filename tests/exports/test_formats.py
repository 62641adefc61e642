"""What each format writes, from labels made in steplab, suggestions and imported data."""

import json
from datetime import UTC, datetime

import pytest

from labeling.importers import ParseOptions
from labeling.importers import math_shepherd as ms_parser
from labeling.importers.fields import Row
from labeling.models import Suggestion
from tests.exports.conftest import annotate, read_rows
from tests.factories import ProblemFactory, SolutionFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(db):
    return [UserFactory(username=n) for n in ("alice", "bob", "carol")]


@pytest.fixture
def labeled(project, people):
    """Three solutions: two annotators disagree on one step of the first."""
    a, b, _ = people
    one = SolutionFactory(problem__project=project, steps=["2+2", "=4", "so 4"], external_id="s1")
    two = SolutionFactory(problem__project=project, steps=["3+3", "=7", "so 7"], external_id="s2")
    three = SolutionFactory(problem__project=project, steps=["x", "y"], external_id="s3")
    annotate(one, a, [1, 1, 1])
    annotate(one, b, [1, -1, None])
    annotate(two, a, [1, -1, None], finish="found_error")
    annotate(three, b, [0, 1], unsure=(1,))
    return {"one": one, "two": two, "three": three}


def test_trl_majority_ties_negative_truncates_and_carries_soft_labels(labeled, build):
    export = build(
        "trl",
        filters={"label_source": "human", "unsure": "keep"},
        label_policy={"soft_labels": True, "label_sources": True},
    )
    rows = {tuple(r["completions"]): r for r in read_rows(export)}
    assert set(next(iter(rows.values()))) == {
        "prompt",
        "completions",
        "labels",
        "soft_labels",
        "label_sources",
        "split",
    }
    one = rows[("2+2", "=4")]  # tie on "=4" → −1, then truncated
    assert one["labels"] == [True, False]
    assert one["soft_labels"] == [1.0, 0.5]
    assert one["label_sources"] == ["majority", "majority"]
    assert rows[("3+3", "=7")]["labels"] == [True, False]
    assert rows[("x", "y")]["labels"] == [True, True]  # neutral → positive by default
    assert rows[("x", "y")]["label_sources"] == ["human", "human"]
    assert export.row_count == 3 and export.step_count == 6
    assert export.stats["labels"] == {"negative": 2, "positive": 4}


def test_label_policy_neutral_negative_and_no_truncation(labeled, build):
    export = build(
        "trl",
        filters={"label_source": "human", "unsure": "keep"},
        label_policy={"neutral": "negative", "truncate_after_first_error": False},
        split_policy={"mode": "none"},
    )
    rows = {tuple(r["completions"]): r for r in read_rows(export)}
    assert rows[("x", "y")]["labels"] == [False, True]
    # Not truncated: "so 4" follows the tied (so wrong) "=4", rated +1 by one annotator.
    assert rows[("2+2", "=4", "so 4")]["labels"] == [True, False, True]
    assert "split" not in rows[("x", "y")]


def test_filters_agreement_unsure_annotators_dates_sources(labeled, build, people, project):
    def completions(**filters):
        export = build("trl", filters={"label_source": "human", **filters})
        return sorted(r["completions"][0] for r in read_rows(export))

    assert completions() == ["2+2", "3+3"]  # "x" has an unsure step: dropped by default
    assert completions(unsure="keep") == ["2+2", "3+3", "x"]
    assert completions(unsure="truncate") == ["2+2", "3+3", "x"]
    assert completions(min_agreement=0.9) == ["3+3"]
    assert completions(annotators=["bob"], unsure="keep") == ["2+2", "x"]
    assert completions(labeled_after="2999-01-01") == []
    old = SolutionFactory(problem__project=project, problem__source="old", steps=["o"])
    annotate(old, people[2], [1], at=datetime(2020, 1, 1, tzinfo=UTC))
    assert completions(labeled_before="2021-01-01") == ["o"]
    assert completions(problem_sources=["old"]) == ["o"]


def test_per_annotation_rows(labeled, build):
    export = build(
        "trl",
        filters={"label_source": "human", "unsure": "keep"},
        label_policy={"combine": "per_annotation"},
    )
    rows = read_rows(export)
    assert sorted(r["labels"] for r in rows if r["completions"][0] == "2+2") == [
        [True, False],
        [True, True, True],
    ]
    assert export.row_count == 4


def test_suggestions_soft_labels_from_monte_carlo_evidence(project, build):
    solution = SolutionFactory(problem__project=project, steps=["a", "b"])
    first, second = solution.steps.order_by("index")
    Suggestion.objects.create(
        step=first, source="rollout", agent="mc", value=1, evidence={"correct": 6, "total": 8}
    )
    Suggestion.objects.create(
        step=second, source="rollout", agent="mc", value=-1, evidence={"correct": 1, "total": 8}
    )
    Suggestion.objects.create(step=first, source="consensus", agent="vote", value=1)
    export = build(
        "trl",
        filters={"label_source": "auto_any", "auto_sources": ["rollout"]},
        label_policy={"soft_labels": True, "label_sources": True},
    )
    (row,) = read_rows(export)
    assert row["labels"] == [True, False]
    assert row["soft_labels"] == [0.75, 0.125]
    assert row["label_sources"] == ["rollout:mc", "rollout:mc"]
    consensus = build("trl", filters={"label_source": "auto_consensus"})
    assert [r["completions"] for r in read_rows(consensus)] == [["a"]]


@pytest.mark.parametrize("kind", ["checks out", "doubtful"])
def test_evidence_only_suggestions_are_never_exported_as_labels(project, build, kind):
    """A symbolic "checks out" (value None) is not a +1, nor a "doubtful" (a failed claim of a
    kind that has not earned it) a −1: auto_any, which prefers symbolic, falls through to the
    next source on that step, and a step with only evidence is unlabeled."""
    solution = SolutionFactory(problem__project=project, steps=["2 + 3 = 5", "so 5 * 4 = 21"])
    first, second = solution.steps.order_by("index")
    for step in (first, second):
        Suggestion.objects.create(
            step=step, source="symbolic", agent="sympy/symbolic-1.0", value=None,
            evidence={"kind": kind, "claims": [{"text": "2 + 3 = 5"}]},
        )  # fmt: skip
    Suggestion.objects.create(step=first, source="rollout", agent="mc", value=1)
    Suggestion.objects.create(step=second, source="rollout", agent="mc", value=-1)
    export = build(
        "trl", filters={"label_source": "auto_any"}, label_policy={"label_sources": True}
    )
    (row,) = read_rows(export)
    assert row["labels"] == [True, False]
    assert row["label_sources"] == ["rollout:mc", "rollout:mc"]
    only_symbolic = build("trl", filters={"label_source": "auto_any", "auto_sources": ["symbolic"]})
    assert read_rows(only_symbolic) == []


def test_min_score_leaves_out_machine_labels_measured_below_it(project, build):
    """Scores are the calibrated probability that a verdict is right: min_score keeps the
    labels measured at or above it; an unmeasured one (score None) is left out too, and so is
    a model's own estimate that was never measured, however high."""

    def measured(right: float) -> dict:
        return {"raw_score": 0.5, "calibration": {"right": right, "n": 40, "on": "d", "raw": 0.5}}

    solution = SolutionFactory(problem__project=project, steps=["a", "b"])
    first, second = solution.steps.order_by("index")
    Suggestion.objects.create(
        step=first, source="rollout", agent="mc", value=1, score=0.95, evidence=measured(0.95)
    )
    Suggestion.objects.create(
        step=second, source="rollout", agent="mc", value=-1, score=0.6, evidence=measured(0.6)
    )
    other = SolutionFactory(problem__project=project, steps=["c"])
    Suggestion.objects.create(step=other.steps.get(), source="judge", agent="j", value=1)
    own = SolutionFactory(problem__project=project, steps=["d"])
    unmeasured = {"raw_score": 0.99, "calibration": {"measured": False}}
    Suggestion.objects.create(
        step=own.steps.get(), source="prm", agent="p", value=1, score=0.99, evidence=unmeasured
    )
    old = SolutionFactory(problem__project=project, steps=["e"])  # stored before calibration
    Suggestion.objects.create(step=old.steps.get(), source="judge", agent="j", value=1, score=1)
    symbolic = SolutionFactory(problem__project=project, steps=["f"])
    Suggestion.objects.create(
        step=symbolic.steps.get(),
        source="symbolic",
        agent="s",
        value=-1,
        score=0.92,
        evidence={"calibration": {"right": 0.92, "n": 16, "on": "d"}},
    )
    everything = build("trl", filters={"label_source": "auto_any"})
    assert sorted(r["labels"] for r in read_rows(everything)) == [
        [False],
        [True],
        [True],
        [True],
        [True, False],
    ]
    strict = build(
        "trl",
        filters={"label_source": "auto_any", "min_score": 0.9},
        label_policy={"label_sources": True},
    )
    rows = sorted(read_rows(strict), key=lambda r: r["completions"])
    assert [(r["completions"], r["labels"]) for r in rows] == [(["a"], [True]), (["f"], [False])]
    assert strict.filters["min_score"] == 0.9


def test_model_scored_sources_match_the_calibration_bins():
    from autolabel.calibration.bins import RAW_SCORE
    from labeling.exporters.selection import MODEL_SCORED

    assert set(MODEL_SCORED) == set(RAW_SCORE)


def test_pairwise_pairs_alternatives_and_solutions_sharing_a_prefix(project, load, build, people):
    load("prm800k_sample.jsonl", fmt="prm800k")
    problem = ProblemFactory(project=project, text="Sum?")
    good = SolutionFactory(problem=problem, steps=["start", "right"], external_id="g")
    bad = SolutionFactory(problem=problem, steps=["start", "wrong"], external_id="b")
    annotate(good, people[0], [1, 1])
    annotate(bad, people[0], [1, -1])
    export = build("pairwise", filters={"label_source": "annotations"})
    rows = read_rows(export)
    pairs = {(r["prompt"], tuple(r["prefix"]), r["chosen"], r["rejected"]) for r in rows}
    assert ("Sum?", ("start",), "right", "wrong") in pairs
    # PRM800K line 1, step 2: five completions rated −1, the labeler's own step taken.
    pencil = [r for r in rows if r["prompt"].startswith("Three pencils")]
    human = "We have $3p+e=1.24$ and $5p+e=1.82$."
    assert {r["chosen"] for r in pencil if len(r["prefix"]) == 1} == {human}
    assert len([r for r in pencil if len(r["prefix"]) == 1]) == 5
    assert all(r["chosen"] != r["rejected"] for r in rows)
    assert len(pairs) == len(rows) == export.row_count


def test_math_shepherd_export_of_steplab_labels_reimports_with_the_same_labels(labeled, build):
    export = build("math_shepherd", filters={"label_source": "human", "unsure": "keep"})
    want = {
        "Step 1: 2+2": (["Step 1: 2+2", "Step 2: =4"], [1, -1]),
        "Step 1: 3+3": (["Step 1: 3+3", "Step 2: =7"], [1, -1]),
        "Step 1: x": (["Step 1: x", "Step 2: y"], [1, 1]),
    }
    got = {}
    for line in read_rows(export):
        parsed = ms_parser.parse(line, Row(file="x", line=1, options=ParseOptions()))
        steps = parsed.solutions[0].steps
        got[steps[0].text] = ([s.text for s in steps], [s.label for s in steps])
        assert parsed.problem.text == line["input"].split(" Step 1:")[0]
    assert got == want


def test_processbench_first_error_and_incomplete_rows(project, build, people):
    done = SolutionFactory(problem__project=project, steps=["a", "b", "c", "d"], external_id="d")
    clean = SolutionFactory(problem__project=project, steps=["a", "b"], external_id="c")
    gap = SolutionFactory(problem__project=project, steps=["a", "b", "c"], external_id="g")
    annotate(done, people[0], [1, 1, -1])
    annotate(clean, people[0], [1, 1])
    annotate(gap, people[0], [1, None, 1])
    export = build("processbench", split_policy={"mode": "none"})
    rows = {r["id"]: r for r in read_rows(export)}
    assert rows["d"]["label"] == 2 and rows["d"]["steps"] == ["a", "b", "c", "d"]
    assert rows["c"]["label"] == -1
    assert "g" not in rows and export.stats["skipped"] == {"incomplete": 1}


@pytest.mark.parametrize("fmt", ["trl", "prm800k", "math_shepherd", "processbench", "pairwise"])
def test_every_format_writes_parquet_with_the_same_rows(load, build, fmt):
    load("prm800k_sample.jsonl", fmt="prm800k")
    load("processbench_sample.jsonl", fmt="processbench")
    jsonl = read_rows(build(fmt, filters={"label_source": "imported"}))
    parquet = read_rows(build(fmt, file_type="parquet", filters={"label_source": "imported"}))
    assert len(parquet) == len(jsonl) > 0
    if fmt != "prm800k":  # PRM800K's nested structs fill absent keys with null
        for a, b in zip(jsonl, parquet, strict=True):
            assert {k: (str(v) if k == "id" else v) for k, v in a.items()} == b
    else:
        assert [r["label"]["finish_reason"] for r in parquet] == [
            r["label"]["finish_reason"] for r in jsonl
        ]


@pytest.mark.parametrize("file_type", ["jsonl", "jsonl.gz", "parquet"])
def test_trl_export_loads_with_datasets(labeled, build, tmp_path, file_type):
    datasets = pytest.importorskip("datasets")
    export = build(
        "trl",
        file_type=file_type,
        filters={"label_source": "human", "unsure": "keep"},
        label_policy={"soft_labels": True, "label_sources": True},
    )
    path = tmp_path / export.file.name.rsplit("/", 1)[-1]
    from tests.exports.conftest import file_bytes

    path.write_bytes(file_bytes(export))
    builder = "parquet" if file_type == "parquet" else "json"
    ds = datasets.load_dataset(
        builder, data_files=str(path), split="train", cache_dir=str(tmp_path / "cache")
    )
    assert ds.column_names == [
        "prompt",
        "completions",
        "labels",
        "soft_labels",
        "label_sources",
        "split",
    ]
    assert ds.features["labels"].feature.dtype == "bool"
    assert ds.features["soft_labels"].feature.dtype == "float64"
    assert sorted(map(json.dumps, ds.to_list())) == sorted(map(json.dumps, read_rows(export)))


@pytest.mark.parametrize("file_type", ["jsonl", "jsonl.gz", "parquet"])
def test_trl_export_loads_with_the_training_packages_reader(labeled, build, tmp_path, file_type):
    from training.data import read_rows as training_rows

    export = build(
        "trl",
        file_type=file_type,
        filters={"label_source": "human", "unsure": "keep"},
        label_policy={"soft_labels": True, "label_sources": True},
    )
    from tests.exports.conftest import file_bytes

    path = tmp_path / export.file.name.rsplit("/", 1)[-1]
    path.write_bytes(file_bytes(export))
    got = [(r.prompt, r.completions, r.labels, r.soft_labels, r.split) for r in training_rows(path)]
    want = [
        (r["prompt"], r["completions"], r["labels"], r["soft_labels"], r["split"])
        for r in read_rows(export)
    ]
    assert got == want and len(got) == export.row_count == 3
