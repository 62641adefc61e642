"""The review queue: reasons computed in SQL, ordered by need, filters."""

from datetime import timedelta

import pytest
from django.utils import timezone

from labeling.models import Annotation, GoldLabel, StepLabel
from labeling.selectors.review import item_reasons, review_queue, review_queue_counts
from labeling.services.review.actions import review_accept
from tests.factories import (
    ProjectFactory,
    SolutionFactory,
    SuggestionFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db


def submitted(solution, user, ratings, *, unsure=(), at=None, imported=False):
    ann = Annotation.objects.create(
        solution=solution,
        annotator=None if imported else user,
        external_annotator=user.username if imported else "",
        imported=imported,
        status="submitted",
        submitted_at=at or timezone.now(),
    )
    steps = solution.steps.order_by("index")
    StepLabel.objects.bulk_create(
        StepLabel(annotation=ann, step=step, rating=r, unsure=i in unsure)
        for i, (step, r) in enumerate(zip(steps, ratings, strict=True))
    )
    return ann


@pytest.fixture
def queue_world(db):
    project = ProjectFactory(overlap=2)
    a, b = UserFactory(username="qa"), UserFactory(username="qb")
    make = {}
    for name in ["rest", "step", "first_error", "unsure", "gold", "conflict", "single", "empty"]:
        make[name] = SolutionFactory(problem__project=project, problem__source=name, steps=3)
    submitted(make["rest"], a, [1, 1, 1])
    submitted(make["rest"], b, [1, 1, 1])
    submitted(make["step"], a, [1, 0, 1])
    submitted(make["step"], b, [1, 1, 1])
    # No step's rated values differ, but a saw an error at step 3 and b stopped before it.
    submitted(make["first_error"], a, [1, 1, -1])
    submitted(make["first_error"], b, [1, 1, None])
    submitted(make["unsure"], a, [1, 1, 1], unsure=(2,))
    submitted(make["unsure"], b, [1, 1, 1])
    gold = make["gold"]
    gold.is_gold = True
    gold.save()
    for step, rating in zip(gold.steps.order_by("index"), [1, -1, None], strict=True):
        GoldLabel.objects.create(step=step, rating=rating)
    submitted(gold, a, [1, 1, None])  # agrees with b, misses the gold error
    submitted(gold, b, [1, 1, None])
    conflict = make["conflict"]
    SuggestionFactory(step=conflict.steps.get(index=1), source="symbolic", value=-1)
    SuggestionFactory(step=conflict.steps.get(index=0), source="rollout", value=-1)  # not symbolic
    submitted(conflict, a, [1, 1, 1], at=timezone.now() - timedelta(days=3))
    submitted(conflict, b, [1, 1, 1], at=timezone.now() - timedelta(days=3))
    submitted(make["single"], a, [1, 1, 1])
    return {"project": project, "a": a, "b": b, "s": make}


def test_queue_orders_by_need_with_reasons(queue_world, django_assert_num_queries):
    s = queue_world["s"]
    with django_assert_num_queries(1):
        items = list(review_queue(project=queue_world["project"]))
    assert [i.pk for i in items] == [
        s["step"].pk,
        s["first_error"].pk,
        s["unsure"].pk,
        s["gold"].pk,
        s["conflict"].pk,
        s["single"].pk,  # one annotator is its own state, before agreeing annotators
        s["rest"].pk,
    ]
    reasons = {i.problem.source: item_reasons(i) for i in items}
    assert reasons == {
        "step": ["disagreement"],
        "first_error": ["disagreement"],
        "unsure": ["unsure"],
        "gold": ["gold_failure"],
        "conflict": ["auto_conflict"],
        "rest": [],
        "single": ["single_annotator"],  # never "rest" (annotators agree)
    }
    assert {i.problem.source: i.annotations_submitted for i in items}["single"] == 1


def test_gold_rated_step_mismatch_counts_and_agreement_with_gold_does_not(queue_world):
    s, a, b = queue_world["s"], queue_world["a"], queue_world["b"]
    gold2 = SolutionFactory(problem__project=queue_world["project"], steps=2, is_gold=True)
    for step, rating in zip(gold2.steps.order_by("index"), [1, 0], strict=True):
        GoldLabel.objects.create(step=step, rating=rating)
    submitted(gold2, a, [1, 0])
    submitted(gold2, b, [1, 0])
    reasons = {i.pk: item_reasons(i) for i in review_queue(project=queue_world["project"])}
    assert reasons[gold2.pk] == []
    Annotation.objects.filter(solution=gold2, annotator=b).first().labels.filter(
        step__index=1
    ).update(rating=1)
    reasons = {i.pk: item_reasons(i) for i in review_queue(project=queue_world["project"])}
    assert reasons[gold2.pk] == ["disagreement", "gold_failure"]
    assert reasons[s["gold"].pk] == ["gold_failure"]


def test_filters(queue_world):
    project, s, a = queue_world["project"], queue_world["s"], queue_world["a"]
    other = UserFactory(username="qc")
    submitted(s["empty"], other, [1, 1, 1])
    assert [i.pk for i in review_queue(project=project, annotator_id=other.pk)] == [s["empty"].pk]
    assert len(review_queue(project=project, annotator_id=a.pk)) == 7
    assert [i.pk for i in review_queue(project=project, source="unsure")] == [s["unsure"].pk]
    old = review_queue(project=project, submitted_to=timezone.now() - timedelta(days=1))
    assert [i.pk for i in old] == [s["conflict"].pk]
    recent = review_queue(project=project, submitted_from=timezone.now() - timedelta(days=1))
    assert s["conflict"].pk not in [i.pk for i in recent]
    assert [i.pk for i in review_queue(project=project, reason="unsure")] == [s["unsure"].pk]
    assert [i.pk for i in review_queue(project=project, reason="rest")] == [s["rest"].pk]
    assert [i.pk for i in review_queue(project=project, reason="single_annotator")] == [
        s["single"].pk,
        s["empty"].pk,
    ]


def test_resolved_solutions_leave_the_default_queue(queue_world):
    project, s = queue_world["project"], queue_world["s"]
    reviewer = UserFactory(username="qr")
    ann = Annotation.objects.filter(solution=s["step"]).first()
    review_accept(annotation=ann, reviewer=reviewer)
    assert s["step"].pk not in [i.pk for i in review_queue(project=project)]
    resolved = list(review_queue(project=project, state="resolved"))
    assert [i.pk for i in resolved] == [s["step"].pk]
    assert resolved[0].resolution_provenance == "reviewer"
    assert len(review_queue(project=project, state="all")) == 7


def test_counts(queue_world):
    counts = review_queue_counts(project=queue_world["project"])
    assert counts == {
        "total": 7,
        "disagreement": 2,
        "unsure": 1,
        "gold_failure": 1,
        "auto_conflict": 1,
        "single_annotator": 1,
        "rest": 1,
    }


def test_imported_annotations_count_as_submitted_labels(queue_world):
    project = queue_world["project"]
    sol = SolutionFactory(problem__project=project, steps=2)
    submitted(sol, UserFactory(username="labeler-x"), [1, -1], imported=True)
    submitted(sol, UserFactory(username="labeler-y"), [1, 1], imported=True)
    assert item_reasons(next(i for i in review_queue(project=project) if i.pk == sol.pk)) == [
        "disagreement"
    ]


def test_review_detail_takes_a_fixed_number_of_queries(queue_world, django_assert_max_num_queries):
    from labeling.selectors.review import review_detail
    from labeling.services.review.comments import comment_create

    s = queue_world["s"]
    review_detail(solution=s["conflict"])  # warm-up: content types etc.
    with django_assert_max_num_queries(12) as few:
        review_detail(solution=s["conflict"])
    for i in range(5):
        extra = UserFactory(username=f"extra{i}")
        submitted(s["conflict"], extra, [1, 0, -1])
        comment_create(solution=s["conflict"], author=extra, body=f"note {i}")
    with django_assert_max_num_queries(len(few.captured_queries)):
        detail = review_detail(solution=s["conflict"])
    assert len(detail["annotations"]) == 7 and len(detail["comments"]) == 5
    assert detail["steps"][1]["suggestions"][0]["value"] == -1


def test_review_detail_shows_gold_only_on_gold_solutions(queue_world):
    from labeling.selectors.review import review_detail

    s = queue_world["s"]
    detail = review_detail(solution=s["gold"])
    assert [step["gold_rating"] for step in detail["steps"]] == [1, -1, None]
    assert detail["reasons"] == ["gold_failure"] and detail["solution"]["is_gold"]
    assert [step["gold_rating"] for step in review_detail(solution=s["rest"])["steps"]] == [
        None,
        None,
        None,
    ]
