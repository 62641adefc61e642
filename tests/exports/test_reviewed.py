"""Exports with label_source=reviewed: the current resolution of each solution, nothing else;
gold questions only on request."""

import pytest

from labeling.models import Solution
from labeling.services.gold import gold_set
from labeling.services.review import review_accept, review_adjudicate
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
