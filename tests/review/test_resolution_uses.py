"""Step dependencies on resolutions (ResolutionLabel.uses): a reviewer adjudicates them, an
accept keeps the accepted annotation's marks, human consensus takes the marks most agreeing
annotators gave; checked, audited and shown by the review API."""

import pytest
from rest_framework.test import APIClient

from labeling.models import LabelHistory, Resolution, ResolutionLabel, StepLabel
from labeling.services.review.actions import review_accept
from labeling.services.review.resolutions import resolution_auto
from tests.factories import MembershipFactory, ProjectFactory, SolutionFactory, UserFactory
from tests.review.test_review_queue import submitted

pytestmark = pytest.mark.django_db


@pytest.fixture
def solution():
    project = ProjectFactory(overlap=2, auto_resolve=True)
    solution = SolutionFactory(problem__project=project, steps=["a", "b", "c", "d"])
    solution.steps.filter(index=3).update(uses=[2], uses_source="detected")
    return solution


def _reviewer(solution):
    user = UserFactory(username="rev")
    MembershipFactory(project=solution.project, user=user, role="reviewer")
    client = APIClient()
    client.force_authenticate(user)
    return client


def _mark(annotation, uses_by_index):
    for index, uses in uses_by_index.items():
        StepLabel.objects.filter(annotation=annotation, step__index=index).update(uses=uses)


def _stored(resolution):
    return dict(
        ResolutionLabel.objects.filter(resolution=resolution).values_list("step__index", "uses")
    )


def test_a_reviewer_adjudicates_dependencies(solution):
    submitted(solution, UserFactory(username="a1"), [1, 1, -1, 1])
    client = _reviewer(solution)
    steps = list(solution.steps.order_by("index"))
    uses = {2: [1, 0, 1], 3: []}  # step 3: no longer uses step 2 (its detected `uses`)
    body = {
        "labels": [
            {"step_id": s.pk, "rating": r, **({"uses": uses[s.index]} if s.index in uses else {})}
            for s, r in zip(steps, [1, 1, -1, 1], strict=True)
        ]
    }
    answer = client.post(f"/api/solutions/{solution.pk}/adjudicate/", body, format="json")
    assert answer.status_code == 200, answer.content
    assert [label["uses"] for label in answer.json()["labels"]] == [None, None, [0, 1], []]
    resolution = Resolution.objects.get(solution=solution, is_current=True)
    assert _stored(resolution) == {0: None, 1: None, 2: [0, 1], 3: []}
    # Audited where decided, as an annotator's marks are.
    history = {
        row.step.index: row.after
        for row in LabelHistory.objects.filter(resolution=resolution).select_related("step")
    }
    assert history[2] == {"rating": -1, "uses": [0, 1]} and history[0] == {"rating": 1}
    detail = client.get(f"/api/solutions/{solution.pk}/review/").json()
    assert [label["uses"] for label in detail["resolution"]["labels"]] == [None, None, [0, 1], []]


@pytest.mark.parametrize(
    ("uses", "message"),
    [([3], "forward or self reference"), ([7], "out of range"), ([-1], "greater than or equal")],
)
def test_bad_dependencies_are_refused_and_change_nothing(solution, uses, message):
    client = _reviewer(solution)
    steps = list(solution.steps.order_by("index"))
    labels = [{"step_id": s.pk, "rating": 1} for s in steps]
    labels[2]["uses"] = uses
    answer = client.post(
        f"/api/solutions/{solution.pk}/adjudicate/", {"labels": labels}, format="json"
    )
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert message in str(error), error
    assert not Resolution.objects.filter(solution=solution).exists()


def test_accepting_keeps_the_annotations_marks(solution):
    chosen = submitted(solution, UserFactory(username="a1"), [1, 1, 1, 1])
    _mark(chosen, {1: [0], 3: [0, 2]})
    resolution = review_accept(annotation=chosen, reviewer=UserFactory(username="rev"))
    assert _stored(resolution) == {0: None, 1: [0], 2: None, 3: [0, 2]}


def test_consensus_takes_the_marks_most_agreeing_annotators_gave(solution):
    first = submitted(solution, UserFactory(username="a1"), [1, 1, 1, 1])
    second = submitted(solution, UserFactory(username="a2"), [1, 1, 1, 1])
    third = submitted(solution, UserFactory(username="a3"), [1, 1, 1, 1])
    _mark(first, {2: [0], 3: [1]})
    _mark(second, {2: [1]})
    _mark(third, {2: [1], 3: [1]})
    resolution = resolution_auto(solution_id=solution.pk)
    assert resolution is not None and resolution.provenance == "human_consensus"
    # Step 2: two of three gave [1]; step 3: both who marked it gave [1]; unmarked stay None.
    assert _stored(resolution) == {0: None, 1: None, 2: [1], 3: [1]}
