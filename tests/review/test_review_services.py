"""Review actions, resolutions, history and the rework loop, through the services."""

from datetime import timedelta

import pytest
from django.utils import timezone

from labeling.errors import Conflict, ValidationFailed
from labeling.models import (
    Annotation,
    AnnotationStatus,
    Comment,
    LabelHistory,
    Provenance,
    Resolution,
    ReviewAction,
    Solution,
    StepLabel,
    TaskLock,
)
from labeling.services.gold.questions import gold_set
from labeling.services.labeling.annotations import annotation_save_draft, annotation_submit
from labeling.services.queue.claim import task_claim_next
from labeling.services.queue.take import overlap_holders
from labeling.services.review.actions import review_accept, review_adjudicate, review_reject
from labeling.services.review.comments import comment_create
from labeling.services.review.resolutions import resolution_from_suggestions
from tests.factories import SolutionFactory, SuggestionFactory
from tests.review.conftest import label, member

pytestmark = pytest.mark.django_db


def _ratings(resolution):
    return list(resolution.labels.order_by("step__index").values_list("rating", flat=True))


def test_draft_and_submit_write_history_for_changed_labels_only(rw):
    a, steps = rw["a"], rw["steps"]
    claim = task_claim_next(project=rw["project"], user=a)
    ann = annotation_save_draft(
        annotation=claim.annotation, user=a, version=1, labels=[{"step_id": steps[0], "rating": 1}]
    )
    ann = annotation_save_draft(
        annotation=ann,
        user=a,
        version=ann.version,
        labels=[{"step_id": steps[0], "rating": 1}, {"step_id": steps[1], "rating": 0}],
    )
    annotation_submit(
        annotation=ann,
        user=a,
        version=ann.version,
        labels=[{"step_id": s, "rating": r} for s, r in zip(steps, [1, -1, 1, 1], strict=True)],
    )
    rows = list(LabelHistory.objects.values_list("action", "step_id", "before", "after"))
    blank = {"unsure": False, "comment": "", "alternative_text": ""}
    assert rows == [
        ("draft", steps[0], None, {"rating": 1, **blank}),
        ("draft", steps[1], None, {"rating": 0, **blank}),
        # step 0 unchanged at submit: no row
        ("submit", steps[1], {"rating": 0, **blank}, {"rating": -1, **blank}),
        ("submit", steps[2], None, {"rating": 1, **blank}),
        ("submit", steps[3], None, {"rating": 1, **blank}),
    ]
    assert set(LabelHistory.objects.values_list("user_id", flat=True)) == {a.pk}


def test_accept_resolves_and_a_second_accept_supersedes_without_deleting(rw):
    first = label(rw["a"], rw["project"], [1, 1, -1, 0])
    second = label(rw["b"], rw["project"], [1, -1, -1, 1])
    res1 = review_accept(annotation=first, reviewer=rw["reviewer"], expected_resolution_id=None)
    assert res1.provenance == Provenance.REVIEWER and res1.is_current
    assert _ratings(res1) == [1, 1, -1, 0]
    assert res1.first_error_index == 2
    assert list(res1.annotations.all()) == [first]
    assert res1.resolved_by == rw["reviewer"]

    res2 = review_accept(annotation=second, reviewer=rw["reviewer"], expected_resolution_id=res1.pk)
    res1.refresh_from_db()
    assert not res1.is_current and res2.supersedes == res1
    assert _ratings(res1) == [1, 1, -1, 0]  # kept as it was
    assert _ratings(res2) == [1, -1, -1, 1] and res2.first_error_index == 1
    # History of the resolved label: 4 rows for the first, only the 2 changed steps after.
    changes = list(
        LabelHistory.objects.filter(resolution__isnull=False).values_list(
            "resolution_id", "before", "after"
        )
    )
    assert len(changes) == 6
    assert changes[4:] == [
        (res2.pk, {"rating": 1}, {"rating": -1}),
        (res2.pk, {"rating": 0}, {"rating": 1}),
    ]
    # The annotations themselves are untouched.
    assert Annotation.objects.filter(status=AnnotationStatus.SUBMITTED).count() == 2


def test_stale_expected_resolution_is_a_conflict_and_changes_nothing(rw):
    first = label(rw["a"], rw["project"], [1, 1, 1, 1])
    second = label(rw["b"], rw["project"], [1, 1, 1, -1])
    review_accept(annotation=first, reviewer=rw["reviewer"], expected_resolution_id=None)
    with pytest.raises(Conflict):
        review_accept(annotation=second, reviewer=rw["reviewer"], expected_resolution_id=None)
    with pytest.raises(Conflict):
        review_adjudicate(
            solution=rw["solution"],
            reviewer=rw["reviewer"],
            labels=[{"step_id": s, "rating": 1} for s in rw["steps"]],
            expected_resolution_id=None,
        )
    assert Resolution.objects.count() == 1
    assert ReviewAction.objects.count() == 1


def test_reject_returns_the_annotation_to_its_annotator_first_with_the_comment(rw):
    project, a = rw["project"], rw["a"]
    SolutionFactory.create_batch(3, problem__project=project, steps=2)  # newer work exists
    rejected = label(a, project, [1, 1, -1, 0])
    label(rw["b"], project, [1, 1, 1, 1])
    assert Solution.objects.get(pk=rw["solution"].pk).submitted_count == 2

    rework = review_reject(annotation=rejected, reviewer=rw["reviewer"], comment=" Step 3 is fine ")
    rejected.refresh_from_db()
    assert rejected.status == AnnotationStatus.REJECTED
    assert list(rejected.labels.values_list("rating", flat=True)) == [1, 1, -1, 0]  # kept
    assert rework.status == AnnotationStatus.DRAFT and rework.revises == rejected
    assert list(rework.labels.values_list("rating", flat=True)) == [1, 1, -1, 0]
    assert Solution.objects.get(pk=rw["solution"].pk).submitted_count == 1
    comment = Comment.objects.get()
    assert comment.body == "Step 3 is fine" and comment.review.annotation == rejected
    assert comment.author == rw["reviewer"]
    assert LabelHistory.objects.filter(annotation=rework, action="rework").count() == 4

    # The slot stays reserved: a third annotator is not given the solution.
    c = member(project, "c")
    for _ in range(3):
        claim = task_claim_next(project=project, user=c)
        assert claim.annotation.solution_id != rw["solution"].pk
    assert overlap_holders(rw["solution"].pk, exclude_user_id=c.pk, now=rework.created_at) == 2

    # The annotator gets the rework first, before the unlabeled solutions.
    claim = task_claim_next(project=project, user=a)
    assert claim.annotation.pk == rework.pk
    again = annotation_submit(
        annotation=claim.annotation,
        user=a,
        version=claim.annotation.version,
        labels=[{"step_id": s, "rating": 1} for s in rw["steps"]],
    )
    assert again.status == AnnotationStatus.SUBMITTED
    assert Solution.objects.get(pk=rw["solution"].pk).submitted_count == 2


def test_rework_comes_before_other_expired_drafts(rw):
    project, a = rw["project"], rw["a"]
    rejected = label(a, project, [1, 1, 1, 1])
    label(rw["b"], project, [1, 1, 1, 1])
    other = SolutionFactory(problem__project=project, steps=2)
    draft = task_claim_next(project=project, user=a).annotation
    assert draft.solution_id == other.pk
    rework = review_reject(annotation=rejected, reviewer=rw["reviewer"], comment="redo")
    # The other draft was touched after the rejection, but its claim lapsed.
    Annotation.objects.filter(pk=draft.pk).update(updated_at=timezone.now() + timedelta(1))
    TaskLock.objects.filter(user=a).delete()
    assert task_claim_next(project=project, user=a).annotation.pk == rework.pk


def test_reject_rules(rw):
    ann = label(rw["a"], rw["project"], [1, 1, 1, 1])
    with pytest.raises(ValidationFailed):
        review_reject(annotation=ann, reviewer=rw["reviewer"], comment="  ")
    review_reject(annotation=ann, reviewer=rw["reviewer"], comment="no")
    with pytest.raises(Conflict):  # already rejected
        review_reject(annotation=ann, reviewer=rw["reviewer"], comment="no again")
    with pytest.raises(Conflict):
        review_accept(annotation=ann, reviewer=rw["reviewer"])
    imported = Annotation.objects.create(
        solution=rw["solution"], external_annotator="ds", imported=True, status="submitted"
    )
    with pytest.raises(ValidationFailed):
        review_reject(annotation=imported, reviewer=rw["reviewer"], comment="x")


def test_rejecting_the_accepted_annotation_withdraws_the_resolution(rw):
    ann = label(rw["a"], rw["project"], [1, 1, 1, 1])
    res = review_accept(annotation=ann, reviewer=rw["reviewer"])
    review_reject(annotation=ann, reviewer=rw["reviewer"], comment="accepted by mistake")
    res.refresh_from_db()
    assert not res.is_current
    assert res.labels.count() == 4  # kept
    assert LabelHistory.objects.filter(action="withdraw", resolution=res).count() == 4


def test_adjudicate_needs_every_step_on_the_scale(rw):
    first = label(rw["a"], rw["project"], [1, 1, -1, 0])
    second = label(rw["b"], rw["project"], [1, -1, 0, 0])
    steps = rw["steps"]
    with pytest.raises(ValidationFailed) as missing:
        review_adjudicate(
            solution=rw["solution"],
            reviewer=rw["reviewer"],
            labels=[{"step_id": steps[0], "rating": 1}],
        )
    assert missing.value.details["missing_step_ids"] == steps[1:]
    with pytest.raises(ValidationFailed):
        review_adjudicate(
            solution=rw["solution"],
            reviewer=rw["reviewer"],
            labels=[{"step_id": s, "rating": 2} for s in steps],
        )
    foreign = SolutionFactory(problem__project=rw["project"]).steps.first()
    with pytest.raises(ValidationFailed):
        review_adjudicate(
            solution=rw["solution"],
            reviewer=rw["reviewer"],
            labels=[{"step_id": foreign.pk, "rating": 1}],
        )
    res = review_adjudicate(
        solution=rw["solution"],
        reviewer=rw["reviewer"],
        labels=[{"step_id": s, "rating": r} for s, r in zip(steps, [1, 1, -1, None], strict=True)],
        comment="step 2 is fine",
        expected_resolution_id=None,
    )
    assert _ratings(res) == [1, 1, -1, None] and res.first_error_index == 2
    assert set(res.annotations.all()) == {first, second}
    assert res.review.action == "adjudicate"
    assert Comment.objects.get().body == "step 2 is fine"


def test_auto_resolve_when_overlap_annotators_agree(rw):
    project = rw["project"]
    project.auto_resolve = True
    project.save()
    label(rw["a"], project, [1, 1, -1, 0])
    assert not Resolution.objects.exists()  # one of two
    label(rw["b"], project, [1, 1, -1, 0])
    res = Resolution.objects.get()
    assert res.provenance == Provenance.HUMAN_CONSENSUS and res.resolved_by is None
    assert _ratings(res) == [1, 1, -1, 0] and res.first_error_index == 2
    assert res.annotations.count() == 2


@pytest.mark.parametrize(
    "auto,b_ratings,b_unsure",
    [(True, [1, 1, 1, 0], ()), (True, [1, 1, -1, 0], (1,)), (False, [1, 1, -1, 0], ())],
    ids=["disagree", "unsure", "off"],
)
def test_no_auto_resolve(rw, auto, b_ratings, b_unsure):
    project = rw["project"]
    project.auto_resolve = auto
    project.save()
    label(rw["a"], project, [1, 1, -1, 0])
    label(rw["b"], project, b_ratings, unsure=b_unsure)
    assert not Resolution.objects.exists()


def test_auto_consensus_from_machine_suggestions(rw):
    steps = rw["solution"].steps.order_by("index")
    for step, value in zip(steps[:3], [1, 1, -1], strict=True):
        SuggestionFactory(step=step, source="consensus", agent="c", value=value)
    assert resolution_from_suggestions(solution=rw["solution"]) is None  # step 4 missing
    SuggestionFactory(step=steps[3], source="consensus", agent="c", value=0)
    res = resolution_from_suggestions(solution=rw["solution"])
    assert res.provenance == Provenance.AUTO_CONSENSUS and res.first_error_index == 2
    assert resolution_from_suggestions(solution=rw["solution"]) is None  # already resolved


def test_comments_on_solution_and_step(rw):
    c1 = comment_create(solution=rw["solution"], author=rw["a"], body="why?")
    c2 = comment_create(
        solution=rw["solution"], author=rw["reviewer"], body="see step 2", step_id=rw["steps"][1]
    )
    assert c1.step_id is None and c2.step_id == rw["steps"][1]
    foreign = SolutionFactory(problem__project=rw["project"]).steps.first()
    with pytest.raises(ValidationFailed):
        comment_create(solution=rw["solution"], author=rw["a"], body="x", step_id=foreign.pk)
    with pytest.raises(ValidationFailed):
        comment_create(solution=rw["solution"], author=rw["a"], body=" ")


def test_gold_set_requires_every_step(rw):
    with pytest.raises(ValidationFailed):
        gold_set(solution=rw["solution"], labels=[{"step_id": rw["steps"][0], "rating": 1}])
    gold_set(
        solution=rw["solution"],
        labels=[
            {"step_id": s, "rating": r} for s, r in zip(rw["steps"], [1, 1, -1, 0], strict=True)
        ],
    )
    solution = Solution.objects.get(pk=rw["solution"].pk)
    assert solution.is_gold
    assert not StepLabel.objects.exists()  # gold labels are not annotation labels
    assert list(solution.steps.order_by("index").values_list("gold__rating", flat=True)) == [
        1,
        1,
        -1,
        0,
    ]
