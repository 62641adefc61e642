"""Step dependencies in exports: `uses` and `inherited` per step in TRL rows, the annotators'
marks over the step's own, and dependency_policy=inherit propagating -1 transitively."""

import pytest

from labeling.exporters.dependencies import inherit_errors
from labeling.exporters.records import StepRecord
from labeling.models import Step, StepLabel
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

    from labeling.api import exports as api
    from tests.factories import MembershipFactory

    monkeypatch.setattr(api.export_build_task, "delay", lambda pk: None)
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
