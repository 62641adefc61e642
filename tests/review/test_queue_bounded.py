"""The review queue at a million solutions: its counts stop at a cap, its rows and order do not
change, paging by the next links returns every queued solution once, and the annotator filter's
names are those a DISTINCT over the project's annotations gives (bench/scale_bench.py)."""

import pytest
from rest_framework.test import APIClient

from labeling.api.pagination import CappedLimitOffsetPagination
from labeling.models import Annotation, AnnotationStatus
from labeling.selectors.review import (
    QUEUE_STATES,
    REASONS,
    item_reasons,
    review_annotator_list,
    review_queue,
    review_queue_counts,
    review_queue_counts_bounded,
)
from labeling.services.review.actions import review_accept
from labeling.services.review.reasons import review_reasons_fill
from tests.factories import MembershipFactory, ProjectFactory, SolutionFactory, UserFactory
from tests.review.test_review_queue import queue_world, submitted  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db


@pytest.fixture
def stored(queue_world):  # noqa: F811 (the imported fixture)
    """queue_world with its reasons stored (as every project made by project_create), one
    solution resolved, and a few more agreeing ones so that counts pass a small cap."""
    project, a, b = queue_world["project"], queue_world["a"], queue_world["b"]
    for _ in range(3):
        solution = SolutionFactory(problem__project=project, steps=3)
        submitted(solution, a, [1, 1, 1])
        submitted(solution, b, [1, 1, 1])
    review_accept(
        annotation=Annotation.objects.get(solution=queue_world["s"]["rest"], annotator=a),
        reviewer=UserFactory(username="qrev"),
    )
    review_reasons_fill(project=project)
    return queue_world


@pytest.mark.parametrize("state", QUEUE_STATES)
def test_bounded_counts_are_the_exact_ones_below_the_cap(stored, state):
    project = stored["project"]
    counts, capped = review_queue_counts_bounded(project=project, state=state, cap=100)
    assert capped == []
    assert counts == review_queue_counts(project=project, state=state)


@pytest.mark.parametrize("state", QUEUE_STATES)
def test_bounded_counts_stop_at_the_cap_and_name_those_that_did(stored, state):
    project = stored["project"]
    exact = review_queue_counts(project=project, state=state)
    counts, capped = review_queue_counts_bounded(project=project, state=state, cap=2)
    assert counts == {name: min(n, 2) for name, n in exact.items()}
    assert set(capped) == {name for name, n in exact.items() if n > 2}
    assert "total" in capped or state == "resolved"
    # "rest" is counted like the others (Solution.has_submission): the unlabeled solutions,
    # mask 0 too, are not walked, so it is exact below the cap.
    assert project.solutions.filter(review_reasons=0, has_submission=False).exists()
    assert exact["rest"] <= 2 or "rest" in capped


def test_states_split_the_queue_with_every_solution_once(stored):
    project = stored["project"]
    ids = {
        state: [s.pk for s in review_queue(project=project, state=state)] for state in QUEUE_STATES
    }
    assert ids["resolved"] == [stored["s"]["rest"].pk]
    assert stored["s"]["rest"].pk not in ids["unresolved"]
    assert sorted(ids["unresolved"] + ids["resolved"]) == sorted(ids["all"])
    assert len(set(ids["all"])) == len(ids["all"])


@pytest.mark.parametrize("state", QUEUE_STATES)
def test_paging_by_next_links_returns_every_row_once_in_order(stored, state, monkeypatch):
    monkeypatch.setattr(CappedLimitOffsetPagination, "cap", 2)
    project = stored["project"]
    client = APIClient()
    client.force_authenticate(UserFactory(username="qstaff", is_staff=True))
    url = f"/api/projects/{project.pk}/review/queue/?state={state}&limit=2"
    seen, pages = [], []
    while url:
        body = client.get(url).json()
        pages.append(body)
        seen += [item["id"] for item in body["results"]]
        url = body["next"]
    assert seen == [s.pk for s in review_queue(project=project, state=state)]
    first = pages[0]
    exact = review_queue_counts(project=project, state=state)
    # The first page counts to the cap; a later one to its own end, never past it.
    assert first["count"] == min(exact["total"], 2)
    assert first["count_capped"] is (exact["total"] > 2)
    assert all(p["count"] <= exact["total"] for p in pages)
    assert pages[-1]["next"] is None
    # The counts stop at the same cap as the page's count (the first page's own count is the
    # total's, not counted twice); every page gives the same ones.
    # "rest" as the selector's bounded walk gives it (test_bounded_counts_stop_at_the_cap...).
    bounded, bounded_capped = review_queue_counts_bounded(project=project, state=state, cap=2)
    assert first["counts"] == {name: min(n, 2) for name, n in exact.items()} | {
        "rest": bounded["rest"]
    }
    assert set(first["counts_capped"]) == {n for n, v in exact.items() if v > 2} | (
        {"rest"} & set(bounded_capped)
    )
    assert all(p["counts"] == first["counts"] for p in pages)


def test_annotator_list_is_the_distinct_submitters(stored):
    project = stored["project"]
    a = stored["a"]
    # Not listed: a draft only, a discarded one only, submissions in another project only.
    drafter, skipper, elsewhere = (UserFactory(username=n) for n in ("qd", "qs", "qe"))
    solution = SolutionFactory(problem__project=project, steps=3)
    Annotation.objects.create(solution=solution, annotator=drafter, status=AnnotationStatus.DRAFT)
    Annotation.objects.create(
        solution=solution, annotator=skipper, status=AnnotationStatus.DISCARDED
    )
    other = ProjectFactory()
    MembershipFactory(project=other, user=elsewhere)
    submitted(SolutionFactory(problem__project=other, steps=3), elsewhere, [1, 1, 1])
    # Listed: a rejected submission only.
    rejected = UserFactory(username="qr")
    Annotation.objects.create(
        solution=solution, annotator=rejected, status=AnnotationStatus.REJECTED
    )
    reference = (
        Annotation.objects.filter(
            solution__project=project,
            annotator__isnull=False,
            status__in=[AnnotationStatus.SUBMITTED, AnnotationStatus.REJECTED],
        )
        .order_by("annotator__username")
        .values_list("annotator_id", "annotator__username")
        .distinct()
    )
    names = review_annotator_list(project=project)
    assert [(r["id"], r["username"]) for r in names] == list(reference)
    assert [r["username"] for r in names] == sorted([a.username, stored["b"].username, "qr"])


@pytest.mark.parametrize("reason", [*REASONS, "rest"])
def test_a_reason_filter_keeps_the_queues_rows_and_order(stored, reason):
    """Disagreement and "rest" filter by a range of the stored mask, the others by a list:
    either way the rows of the whole queue that have the reason, in the queue's order."""
    project = stored["project"]
    everything = list(review_queue(project=project, state="all"))
    expected = [s.pk for s in everything if (item_reasons(s) or ["rest"]).count(reason)]
    assert [s.pk for s in review_queue(project=project, state="all", reason=reason)] == expected
    assert expected or reason == "single_annotator" or reason == "gold_failure"
