"""Coverage (solutions with 0 / 1 / 2+ annotators) and each annotator's own totals: a
solution labeled once is counted apart and never enters agreement."""

import pytest
from rest_framework.test import APIClient

from labeling.metrics.coverage import annotation_coverage, annotator_totals
from labeling.metrics.queries import first_error_agreement, step_rating_agreement
from labeling.models import Annotation, AnnotationStatus
from tests.factories import MembershipFactory, ProjectFactory, SolutionFactory, UserFactory
from tests.review.test_review_queue import submitted

pytestmark = pytest.mark.django_db


@pytest.fixture
def cw(db):
    project = ProjectFactory(overlap=2)
    a, b = UserFactory(username="ca"), UserFactory(username="cb")
    pair = SolutionFactory(problem__project=project, steps=3)
    alone = SolutionFactory(problem__project=project, steps=3)
    SolutionFactory(problem__project=project, steps=3)  # nobody
    for user, ratings, seconds in ((a, [1, 1, -1], 60), (b, [1, -1, -1], 120)):
        ann = submitted(pair, user, ratings)
        Annotation.objects.filter(pk=ann.pk).update(time_spent_ms=seconds * 1000)
    lone = submitted(alone, a, [1, -1, 1])
    Annotation.objects.filter(pk=lone.pk).update(time_spent_ms=1800 * 1000)
    skipped = SolutionFactory(problem__project=project, steps=1)
    Annotation.objects.create(solution=skipped, annotator=b, status=AnnotationStatus.DISCARDED)
    return {"project": project, "a": a, "b": b}


def test_coverage_counts_solutions_by_their_annotators(cw):
    assert annotation_coverage(cw["project"]) == {
        "solutions": 4,
        "none": 2,  # the unlabeled one and the skipped one
        "one": 1,
        "two_plus": 1,
    }


def test_agreement_reads_only_the_solution_with_two_annotators(cw):
    steps = step_rating_agreement(cw["project"])
    assert steps["steps"] == 3  # the pair's steps; the lone annotator's 3 are not agreement
    assert steps["pairwise_agreement"] == pytest.approx(2 / 3)
    assert first_error_agreement(cw["project"])["solutions"] == 1


def test_each_annotator_card_has_their_own_totals(cw):
    rows = {r["annotator"]: r for r in annotator_totals(cw["project"])}
    assert rows["ca"] == {
        "annotator": "ca",
        "submitted": 2,
        "skipped": 0,
        "hours": 0.5167,  # (60 + 1800) s
        "shared_steps": 3,
        "agreement": pytest.approx(2 / 3),
    }
    assert rows["cb"]["submitted"] == 1 and rows["cb"]["skipped"] == 1
    assert rows["cb"]["hours"] == round(120 / 3600, 4)


def test_a_project_labeled_once_has_no_agreement_and_no_shared_steps(db):
    project = ProjectFactory(overlap=1)
    a = UserFactory(username="solo")
    for _ in range(3):
        submitted(SolutionFactory(problem__project=project, steps=2), a, [1, 1])
    assert annotation_coverage(project)["one"] == 3
    assert step_rating_agreement(project)["pairwise_agreement"] is None
    (row,) = annotator_totals(project)
    assert (row["submitted"], row["shared_steps"], row["agreement"]) == (3, 0, None)


def test_metrics_api_serves_coverage_and_annotators(cw):
    reviewer = UserFactory(username="crev")
    MembershipFactory(project=cw["project"], user=reviewer, role="reviewer")
    client = APIClient()
    client.force_authenticate(reviewer)
    body = client.get(f"/api/projects/{cw['project'].pk}/metrics/").json()
    assert body["coverage"]["one"] == 1 and body["coverage"]["two_plus"] == 1
    assert [r["annotator"] for r in body["annotators"]] == ["ca", "cb"]
    assert [r["submitted"] for r in body["annotators"]] == [2, 1]
