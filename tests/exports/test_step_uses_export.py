"""Step dependencies in exports: `uses` and `inherited` per step in TRL, PRM800K, ProcessBench
and dense-rewards rows (`chosen_uses` / `rejected_uses` in pairwise ones, nothing in
Math-Shepherd's), the annotators' marks over the step's own, and dependency_policy=inherit
propagating -1 transitively."""

import pytest

from labeling.exporters.dependencies import inherit_errors
from labeling.exporters.records import StepRecord
from labeling.models import Step, StepAlternative, StepLabel
from labeling.services.jobs import outbox
from tests.exports.conftest import annotate, read_rows
from tests.factories import SolutionFactory, UserFactory

pytestmark = pytest.mark.django_db


def _steps(ratings, uses):
    return [
        StepRecord(i, f"s{i}", rating=r, soft=None if r is None else float(r > 0), uses=u)
        for i, (r, u) in enumerate(zip(ratings, uses, strict=True))
    ]


def test_inherit_errors_is_transitive_and_flags_what_it_changed():
    # 1 is wrong; 2 uses 1; 3 uses 2 (so 1 through it); 4 uses 0 only; 5 is unrated, uses 3.
    steps = _steps([1, -1, 1, 1, 1, None], [[], [0], [1], [2], [0], [3]])
    assert inherit_errors(steps) == 3
    assert [s.rating for s in steps] == [1, -1, -1, -1, 1, -1]
    assert [s.inherited for s in steps] == [False, False, True, True, False, True]
    assert steps[2].soft == 0.0
    # A step rated -1 by its labelers is not "inherited", even if it also uses a wrong step.
    again = _steps([-1, -1], [[], [0]])
    assert inherit_errors(again) == 0 and not again[1].inherited


@pytest.fixture
def graph(project):
    """One solution of 4 steps: imported uses [[], [0], [0], [1, 2]]; alice rates
    [1, -1, 1, 1] and marks step 2 as using step 1 (over its imported [0])."""
    alice = UserFactory(username="alice")
    solution = SolutionFactory(problem__project=project, steps=["a", "b", "c", "d"])
    for index, uses in enumerate([[], [0], [0], [1, 2]]):
        Step.objects.filter(solution=solution, index=index).update(uses=uses, uses_source="import")
    annotation = annotate(solution, alice, [1, -1, 1, 1])
    StepLabel.objects.filter(annotation=annotation, step__index=2).update(uses=[1])
    return solution


def _row(build, policy):
    export = build(
        "trl",
        filters={"label_source": "human"},
        label_policy={"truncate_after_first_error": False, "dependency_policy": policy},
        split_policy={"mode": "none"},
    )
    (row,) = read_rows(export)
    return export, row


def test_none_writes_no_dependency_columns(graph, build):
    _, row = _row(build, "none")
    assert set(row) == {"prompt", "completions", "labels"}


def test_keep_writes_uses_with_the_annotators_marks(graph, build):
    _, row = _row(build, "keep")
    assert row["uses"] == [[], [0], [1], [1, 2]]  # step 2: alice's mark, not the imported [0]
    assert row["labels"] == [True, False, True, True]
    assert row["inherited"] == [False, False, False, False]


def test_inherit_makes_steps_built_on_a_wrong_step_wrong(graph, build):
    export, row = _row(build, "inherit")
    # Step 2 uses step 1 (alice's mark) and step 3 uses 1 and 2: both become -1.
    assert row["labels"] == [True, False, False, False]
    assert row["inherited"] == [False, False, True, True]
    assert export.stats["inherited"] == 2


def test_inherit_uses_the_steps_own_uses_where_nobody_marked(graph, build):
    StepLabel.objects.filter(step__solution=graph, step__index=2).update(uses=None)
    _, row = _row(build, "inherit")
    # Step 2 uses step 0 only (imported): kept; step 3 uses step 1: inherited.
    assert row["uses"] == [[], [0], [0], [1, 2]]
    assert row["labels"] == [True, False, True, False]
    assert row["inherited"] == [False, False, False, True]


def test_parquet_carries_the_same_columns(graph, build):
    export = build(
        "trl",
        file_type="parquet",
        filters={"label_source": "human"},
        label_policy={"truncate_after_first_error": False, "dependency_policy": "inherit"},
    )
    (row,) = read_rows(export)
    assert row["uses"] == [[], [0], [1], [1, 2]]
    assert row["inherited"] == [False, False, True, True]


def test_api_takes_the_policy_and_refuses_an_unknown_one(project, monkeypatch):
    from rest_framework.test import APIClient

    from tests.factories import MembershipFactory

    monkeypatch.setattr(outbox, "_publish", lambda messages: None)
    client = APIClient()
    client.force_authenticate(MembershipFactory(project=project, role="reviewer").user)
    url = f"/api/projects/{project.pk}/exports/"
    bad = client.post(
        url, {"format": "trl", "label_policy": {"dependency_policy": "spread"}}, "json"
    )
    assert bad.status_code == 400
    assert "dependency_policy" in bad.json()["error"]["message"]
    ok = client.post(
        url, {"format": "trl", "label_policy": {"dependency_policy": "inherit"}}, "json"
    )
    assert ok.status_code == 202, ok.content
    assert ok.json()["label_policy"]["dependency_policy"] == "inherit"
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").content.decode()
    assert "dependency_policy" in schema  # the OpenAPI schema documents it (on purpose)


# --- the other formats -------------------------------------------------------------------------
# The `graph` solution again: with keep, uses [[], [0], [1], [1, 2]] (step 2: alice's mark over
# its imported [0]) and ratings [1, -1, 1, 1]; with inherit, steps 2 and 3 become -1, inherited.
KEEP_USES = [[], [0], [1], [1, 2]]
INHERITED = [False, False, True, True]


def _rows(build, fmt, policy, **options):
    export = build(
        fmt,
        filters={"label_source": "human"},
        label_policy={"truncate_after_first_error": False, "dependency_policy": policy},
        split_policy={"mode": "none"},
        **options,
    )
    return export, read_rows(export)


def test_prm800k_steps_carry_uses_and_inherited_beside_the_chosen_completion(graph, build):
    _, (row,) = _rows(build, "prm800k", "keep")
    steps = row["label"]["steps"]
    assert [s["uses"] for s in steps] == KEEP_USES
    assert [s["inherited"] for s in steps] == [False] * 4
    assert [s["completions"][0]["rating"] for s in steps] == [1, -1, 1, 1]
    assert set(steps[0]) == {
        "completions",
        "human_completion",
        "chosen_completion",
        "uses",
        "inherited",
    }

    export, (row,) = _rows(build, "prm800k", "inherit")
    steps = row["label"]["steps"]
    assert [s["uses"] for s in steps] == KEEP_USES
    assert [s["inherited"] for s in steps] == INHERITED
    assert [s["completions"][0]["rating"] for s in steps] == [1, -1, -1, -1]
    assert export.stats["inherited"] == 2


def test_prm800k_cut_after_the_first_error_keeps_uses_within_the_row(graph, build):
    export = build(
        "prm800k",
        filters={"label_source": "human"},
        label_policy={"dependency_policy": "inherit"},
        split_policy={"mode": "none"},
    )
    (row,) = read_rows(export)
    steps = row["label"]["steps"]
    assert [s["uses"] for s in steps] == [[], [0]]  # cut after step 1: nothing inherited
    assert [s["inherited"] for s in steps] == [False, False]
    assert "inherited" not in export.stats


def test_processbench_rows_carry_lists_parallel_to_steps(graph, build):
    _, (row,) = _rows(build, "processbench", "keep")
    assert row["steps"] == ["a", "b", "c", "d"]
    assert row["uses"] == KEEP_USES
    assert row["inherited"] == [False] * 4
    assert row["label"] == 1

    StepLabel.objects.filter(step__solution=graph, step__index=2).update(uses=None)
    export, (row,) = _rows(build, "processbench", "inherit")
    # Unmarked, step 2 uses its imported [0]: not inherited; step 3 uses step 1: inherited.
    assert row["uses"] == [[], [0], [0], [1, 2]]
    assert row["inherited"] == [False, False, False, True]
    assert row["label"] == 1  # inherit never moves the first error
    assert export.stats["inherited"] == 1


def test_dense_rewards_steps_carry_uses_and_inherited(graph, build):
    _, (row,) = _rows(build, "dense_rewards", "keep")
    assert [s["uses"] for s in row["steps"]] == KEEP_USES
    assert [s["inherited"] for s in row["steps"]] == [False] * 4
    assert [s["reward"] for s in row["steps"]] == [1.0, -1.0, 1.0, 1.0]

    export, (row,) = _rows(build, "dense_rewards", "inherit")
    assert [s["uses"] for s in row["steps"]] == KEEP_USES
    assert [s["inherited"] for s in row["steps"]] == INHERITED
    assert [s["label"] for s in row["steps"]] == [1, -1, -1, -1]
    assert row["return"] == -2.0
    assert export.stats["inherited"] == 2


@pytest.fixture
def pairs(graph):
    """Beside `graph` (a, b: -1 using [0], ...), three solutions go a, e with e rated +1:
    e's own uses are [] in all three, bob marks it as using step 0 in one. At graph's step 1
    a PRM800K-style alternative "f" (not taken) is rated -1: no uses on record."""
    bob = UserFactory(username="bob")
    for marked in (True, False, False):
        solution = SolutionFactory(problem=graph.problem, steps=["a", "e"])
        Step.objects.filter(solution=solution).update(uses=[], uses_source="import")
        annotation = annotate(solution, bob, [1, 1])
        if marked:
            StepLabel.objects.filter(annotation=annotation, step__index=1).update(uses=[0])
    step = Step.objects.get(solution=graph, index=1)
    StepAlternative.objects.create(step=step, position=0, text="b", rating=-1, is_chosen=True)
    StepAlternative.objects.create(step=step, position=1, text="f", rating=-1)
    return graph


def test_pairwise_rows_carry_the_next_steps_uses(pairs, build):
    _, rows = _rows(build, "pairwise", "keep")
    by_rejected = {row["rejected"]: row for row in rows}
    assert set(by_rejected) == {"b", "f"}
    assert all(row["prefix"] == ["a"] and row["chosen"] == "e" for row in rows)
    # e: [] twice (its own), [0] once (bob's mark): the most frequent wins.
    assert {tuple(row["chosen_uses"]) for row in rows} == {()}
    assert by_rejected["b"]["rejected_uses"] == [0]
    assert by_rejected["f"]["rejected_uses"] is None  # an alternative: nothing on record
    assert "inherited" not in by_rejected["b"]


def test_pairwise_uses_an_annotators_mark_over_the_steps_own(pairs, build):
    StepLabel.objects.filter(step__solution__problem=pairs.problem, step__text="e").update(uses=[0])
    _, rows = _rows(build, "pairwise", "keep")
    assert {tuple(row["chosen_uses"]) for row in rows} == {(0,)}


def test_math_shepherd_writes_no_dependencies_but_inherit_changes_its_marks(graph, build):
    _, (keep,) = _rows(build, "math_shepherd", "keep")
    assert set(keep) == {"input", "label", "task"}
    assert keep["label"].endswith("c +\nStep 4: d +")
    _, (inherit,) = _rows(build, "math_shepherd", "inherit")
    assert inherit["label"].endswith("c -\nStep 4: d -")


@pytest.mark.parametrize(
    ("fmt", "plain"),
    [
        ("prm800k", {"completions", "human_completion", "chosen_completion"}),
        ("processbench", {"id", "generator", "problem", "steps", "final_answer_correct", "label"}),
        (
            "dense_rewards",
            {
                "t",
                "kind",
                "obs",
                "action",
                "reward",
                "label",
                "done",
                "success",
                "timestamp",
                "images",
            },
        ),
        ("pairwise", {"prompt", "prefix", "chosen", "rejected"}),
    ],
)
def test_none_writes_no_dependencies_in_any_format(pairs, build, fmt, plain):
    """`plain`: the keys of a row (processbench, pairwise) or of each step (the others)."""
    _, rows = _rows(build, fmt, "none")
    assert rows
    for row in rows:
        if fmt in ("prm800k", "dense_rewards"):
            steps = row["label"]["steps"] if fmt == "prm800k" else row["steps"]
            assert all(set(step) == plain for step in steps)
        else:
            assert set(row) == plain


@pytest.mark.parametrize("fmt", ["prm800k", "processbench", "dense_rewards", "pairwise"])
def test_parquet_schemas_carry_them_too(pairs, build, fmt):
    export = build(
        fmt,
        file_type="parquet",
        filters={"label_source": "human"},
        label_policy={"truncate_after_first_error": False, "dependency_policy": "inherit"},
        split_policy={"mode": "none"},
    )
    rows = read_rows(export)
    if fmt == "pairwise":
        uses = {row["rejected"]: row["rejected_uses"] for row in rows}
        assert uses == {"b": [0], "f": None}
        return
    by_length = {len(r["label"]["steps"] if fmt == "prm800k" else r["steps"]): r for r in rows}
    graph_row, other = by_length[4], by_length[2]  # `graph`; one of the a, e solutions
    if fmt == "processbench":
        assert graph_row["uses"] == KEEP_USES and graph_row["inherited"] == INHERITED
        assert other["uses"] in ([[], [0]], [[], []])
        return
    steps = graph_row["label"]["steps"] if fmt == "prm800k" else graph_row["steps"]
    assert [s["uses"] for s in steps] == KEEP_USES
    assert [s["inherited"] for s in steps] == INHERITED


@pytest.mark.parametrize("file_type", ["jsonl", "parquet"])
def test_prm800k_import_round_trips_with_uses_added_to_its_trajectory_steps(load, build, file_type):
    from tests.exports.conftest import raw_rows

    load("prm800k_sample.jsonl", fmt="prm800k")
    export = build(
        "prm800k",
        file_type=file_type,
        filters={"label_source": "imported"},
        label_policy={"dependency_policy": "keep"},
        split_policy={"mode": "none"},
    )
    raw = {(r["labeler"], r["timestamp"]): r for r in raw_rows("prm800k_sample.jsonl")}
    rows = read_rows(export)
    assert len(rows) == len(raw) == 9
    trailing = 0
    for row in rows:
        want = raw[(row["labeler"], row["timestamp"])]["label"]["steps"]
        got = row["label"]["steps"]
        assert len(got) == len(want)
        for k, (step, original) in enumerate(zip(got, want, strict=True)):
            if step.get("uses") is None:  # a trailing step: verbatim (parquet: null fields)
                trailing += 1
                assert step.get("inherited") is None
                continue
            assert all(u < k for u in step["uses"]) and step["inherited"] is False
            if file_type == "jsonl":
                plain = {key: v for key, v in step.items() if key not in ("uses", "inherited")}
                assert plain == original
    assert trailing  # the sample has rows whose trajectory ended before their last position
