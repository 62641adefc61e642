"""Review that tells the truth (issue 23): one annotator is its own state, never agreement;
per step, human-vs-human and human-vs-machine disagreements are marked; the stored reason
mask keeps the new bit correct through the migration that added it."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from rest_framework.test import APIClient

from labeling.models import Solution
from labeling.selectors.review import (
    REASON_BITS,
    item_reasons,
    review_detail,
    review_queue,
    review_queue_counts,
)
from labeling.selectors.review.step_marks import step_marks
from labeling.services.review.actions import review_reject
from tests.factories import ProjectFactory, SolutionFactory, SuggestionFactory, UserFactory
from tests.review.conftest import label, member
from tests.review.test_review_queue import submitted

pytestmark = pytest.mark.django_db
SINGLE = REASON_BITS["single_annotator"]


def _client(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


# --- the rule: one annotator is not agreement ------------------------------------------------


def test_one_annotator_is_its_own_state_and_two_who_agree_are_rest(db):
    project = ProjectFactory(overlap=2)
    a, b = UserFactory(username="ta"), UserFactory(username="tb")
    alone = SolutionFactory(problem__project=project, steps=2)
    pair = SolutionFactory(problem__project=project, steps=2)
    submitted(alone, a, [1, 1])
    submitted(pair, a, [1, 1])
    submitted(pair, b, [1, 1])
    reasons = {s.pk: item_reasons(s) for s in review_queue(project=project)}
    assert reasons == {alone.pk: ["single_annotator"], pair.pk: []}
    counts = review_queue_counts(project=project)
    assert (counts["single_annotator"], counts["rest"], counts["total"]) == (1, 1, 2)


def test_a_second_submission_clears_and_a_rejection_restores_the_state(rw):
    project, solution = rw["project"], rw["solution"]
    first = label(rw["a"], project, [1, 1, 1, 1])
    assert Solution.objects.get(pk=solution.pk).review_reasons == SINGLE
    label(rw["b"], project, [1, 1, 1, 1])
    assert Solution.objects.get(pk=solution.pk).review_reasons == 0  # two agree
    review_reject(annotation=first, reviewer=rw["reviewer"], comment="redo")
    assert Solution.objects.get(pk=solution.pk).review_reasons == SINGLE


def test_a_lone_annotators_other_reasons_stay(rw):
    label(rw["a"], rw["project"], [1, 1, 1, 1], unsure=(2,))
    stored = Solution.objects.get(pk=rw["solution"].pk).review_reasons
    assert stored == SINGLE | REASON_BITS["unsure"]


# --- per step: humans vs humans, humans vs machines -------------------------------------------


@pytest.mark.parametrize(
    ("humans", "machines", "differ", "machine"),
    [
        ([1, 1], [("symbolic", 1), ("prm", 1)], False, []),
        ([1, -1], [], True, []),
        ([1], [("judge", -1), ("rollouts", 1), ("prm", None)], False, ["judge"]),
        ([1, -1], [("judge", -1)], True, ["judge"]),  # one human differs from it
        ([None, None], [("judge", -1)], False, []),  # nobody rated: nothing to disagree with
        ([1, None], [("prm", 1), ("prm", -1), ("judge", 0)], False, ["judge", "prm"]),
        ([1], [("import", -1)], False, []),  # a data set's label is not a machine
    ],
)
def test_step_marks(humans, machines, differ, machine):
    assert step_marks(human_ratings=humans, machine_values=machines) == {
        "humans_differ": differ,
        "machine_differs": machine,
    }


def test_detail_marks_each_step_and_counts_annotators(rw):
    steps = list(rw["solution"].steps.order_by("index"))
    SuggestionFactory(step=steps[1], source="judge", value=-1)
    SuggestionFactory(step=steps[2], source="prm", value=1)
    label(rw["a"], rw["project"], [1, 1, 1, -1])
    detail = review_detail(solution=rw["solution"])
    assert detail["reasons"] == ["single_annotator"] and detail["annotators_submitted"] == 1
    assert [s["machine_differs"] for s in detail["steps"]] == [[], ["judge"], [], []]
    assert not any(s["humans_differ"] for s in detail["steps"])
    label(rw["b"], rw["project"], [1, 1, -1, -1])
    detail = review_detail(solution=rw["solution"])
    assert detail["annotators_submitted"] == 2 and "single_annotator" not in detail["reasons"]
    assert [s["humans_differ"] for s in detail["steps"]] == [False, False, True, False]
    assert [s["machine_differs"] for s in detail["steps"]] == [[], ["judge"], ["prm"], []]


def test_api_shows_the_state_the_counts_the_filter_and_the_marks(rw):
    project, rev = rw["project"], _client(rw["reviewer"])
    SuggestionFactory(step=rw["solution"].steps.get(index=0), source="symbolic", value=-1)
    label(rw["a"], project, [1, 1, 1, 1])
    url = f"/api/projects/{project.pk}/review/queue/"
    body = rev.get(url).json()
    item = body["results"][0]
    assert item["reasons"] == ["auto_conflict", "single_annotator"]
    assert body["counts"]["single_annotator"] == 1 and body["counts"]["rest"] == 0
    assert rev.get(url, {"reason": "single_annotator"}).json()["count"] == 1
    assert rev.get(url, {"reason": "rest"}).json()["count"] == 0
    detail = rev.get(f"/api/solutions/{rw['solution'].pk}/review/").json()
    assert detail["annotators_submitted"] == 1
    assert detail["steps"][0]["machine_differs"] == ["symbolic"]
    assert detail["steps"][0]["humans_differ"] is False
    # An annotator may not read the review queue.
    assert _client(member(project, "c")).get(url).status_code == 403


# --- the migration that added the bit ----------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_migration_shifts_stored_masks_and_sets_the_new_bit():
    project = ProjectFactory(overlap=2)
    a, b = UserFactory(username="ma1"), UserFactory(username="mb1")
    alone = SolutionFactory(problem__project=project, steps=2)
    pair = SolutionFactory(problem__project=project, steps=2)
    submitted(alone, a, [1, 1], unsure=(0,))
    submitted(pair, a, [1, -1])
    submitted(pair, b, [1, 1])
    old = {alone.pk: 0b0100, pair.pk: 0b1000}  # unsure; disagreement (the 4-reason layout)
    executor = MigrationExecutor(connection)
    graph = executor.loader.graph
    (target,) = [
        key
        for key in graph.nodes
        if key[0] == "labeling" and key[1].endswith("_review_reason_single_annotator")
    ]
    before = [d for d in graph.nodes[target].dependencies if d[0] == "labeling"]
    try:
        executor.migrate(before)  # the backward step halves the masks: store the old ones again
        for pk, mask in old.items():  # as the old code had stored them
            Solution.objects.filter(pk=pk).update(review_reasons=mask)
        executor.loader.build_graph()
        executor.migrate([target])
        stored = dict(Solution.objects.filter(pk__in=old).values_list("pk", "review_reasons"))
    finally:  # back to the latest schema for the tests after this one
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())
    assert stored == {
        alone.pk: REASON_BITS["unsure"] | SINGLE,
        pair.pk: REASON_BITS["disagreement"],
    }
