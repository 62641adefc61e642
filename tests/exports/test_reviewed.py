"""Exports with label_source=reviewed: the current resolution of each solution, nothing else;
gold questions only on request."""

import pytest

from labeling.models import Solution
from labeling.services.gold.questions import gold_set
from labeling.services.review.actions import review_accept, review_adjudicate
from tests.exports.conftest import read_rows
from tests.factories import SolutionFactory, UserFactory
from tests.review.test_review_queue import submitted

pytestmark = pytest.mark.django_db


def _world(project):
    ann1, ann2, reviewer = (UserFactory(username=n) for n in ("ann1", "ann2", "rev"))
    accepted = SolutionFactory(problem__project=project, steps=["a", "b", "c"])
    adjudicated = SolutionFactory(problem__project=project, steps=["d", "e", "f"])
    unresolved = SolutionFactory(problem__project=project, steps=["g", "h"])
    a1 = submitted(accepted, ann1, [1, 1, -1])
    submitted(accepted, ann2, [1, -1, -1])
    submitted(adjudicated, ann1, [1, 1, 1])
    submitted(adjudicated, ann2, [1, -1, None])
    submitted(unresolved, ann1, [1, 1])
    review_accept(annotation=a1, reviewer=reviewer)
    steps = list(adjudicated.steps.order_by("index"))
    first = review_adjudicate(
        solution=adjudicated,
        reviewer=reviewer,
        labels=[{"step_id": s.pk, "rating": r} for s, r in zip(steps, [1, 1, 1], strict=True)],
    )
    # A second adjudication supersedes the first: only the current one is exported.
    review_adjudicate(
        solution=adjudicated,
        reviewer=reviewer,
        labels=[{"step_id": s.pk, "rating": r} for s, r in zip(steps, [1, 0, -1], strict=True)],
        expected_resolution_id=first.pk,
    )
    return accepted, adjudicated, unresolved


def test_reviewed_exports_only_current_resolutions(project, build):
    accepted, adjudicated, _ = _world(project)
    export = build(
        "trl",
        filters={"label_source": "reviewed"},
        label_policy={
            "truncate_after_first_error": False,
            "neutral": "positive",
            "label_sources": True,
        },
        split_policy={"mode": "none"},
    )
    rows = {tuple(r["completions"]): r for r in read_rows(export)}
    assert set(rows) == {("a", "b", "c"), ("d", "e", "f")}  # the unresolved one is left out
    assert rows[("a", "b", "c")]["labels"] == [True, True, False]  # ann1's, as accepted
    assert rows[("d", "e", "f")]["labels"] == [True, True, False]  # neutral → positive
    assert rows[("d", "e", "f")]["label_sources"] == ["reviewed:reviewer"] * 3
    assert export.row_count == 2


def test_gold_questions_are_left_out_unless_asked_for(project, build):
    accepted, adjudicated, _ = _world(project)
    step_ids = list(accepted.steps.order_by("index").values_list("pk", flat=True))
    gold_set(solution=accepted, labels=[{"step_id": s, "rating": 1} for s in step_ids])
    assert Solution.objects.get(pk=accepted.pk).is_gold
    default = build("trl", filters={"label_source": "reviewed"}, split_policy={"mode": "none"})
    assert [r["completions"] for r in read_rows(default)] == [["d", "e", "f"]]
    both = build(
        "trl",
        filters={"label_source": "reviewed", "include_gold": True},
        split_policy={"mode": "none"},
    )
    assert len(read_rows(both)) == 2
    human = build("trl", filters={"label_source": "human"}, split_policy={"mode": "none"})
    # Majority of the two annotators: a tie on "e" goes to −1, and the row ends there.
    assert {tuple(r["completions"]) for r in read_rows(human)} == {("d", "e"), ("g", "h")}


def test_reviewed_exports_carry_the_resolutions_dependencies(project, build):
    """A resolution's decided `uses` replace the step's own; undecided steps keep theirs; and
    `inherit` passes a -1 on along the resolved dependencies."""
    solution = SolutionFactory(problem__project=project, steps=["p", "q", "r", "s"])
    solution.steps.filter(index=3).update(uses=[2], uses_source="detected")
    solution.steps.filter(index=2).update(uses=[1], uses_source="detected")
    steps = list(solution.steps.order_by("index"))
    decided = {2: [0], 3: [1]}  # step 2 rests on step 0 only; step 3 on step 1 (rated -1)
    review_adjudicate(
        solution=solution,
        reviewer=UserFactory(username="rev"),
        labels=[
            {
                "step_id": s.pk,
                "rating": r,
                **({"uses": decided[s.index]} if s.index in decided else {}),
            }
            for s, r in zip(steps, [1, -1, 1, 1], strict=True)
        ],
    )
    options = {
        "filters": {"label_source": "reviewed"},
        "split_policy": {"mode": "none"},
    }
    keep = build(
        "trl",
        label_policy={"truncate_after_first_error": False, "dependency_policy": "keep"},
        **options,
    )
    (row,) = read_rows(keep)
    assert row["uses"] == [[], [], [0], [1]]
    assert row["labels"] == [True, False, True, True]
    inherit = build(
        "trl",
        label_policy={"truncate_after_first_error": False, "dependency_policy": "inherit"},
        **options,
    )
    (row,) = read_rows(inherit)
    # Step 3 uses the wrong step 1: -1, inherited. Step 2 (own uses [1]) was decided to use
    # step 0 only, so it keeps its +1.
    assert row["labels"] == [True, False, True, False]
    assert row["inherited"] == [False, False, False, True]
