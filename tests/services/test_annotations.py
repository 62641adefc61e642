import pytest

from labeling.errors import Conflict, NotAllowed, ValidationFailed
from labeling.models import AnnotationStatus, FinishReason, StepLabel
from labeling.services.labeling.annotations import annotation_save_draft, annotation_submit
from labeling.services.queue.claim import task_claim_next
from tests.factories import MembershipFactory, ProjectFactory, SolutionFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def claim():
    project = ProjectFactory()
    SolutionFactory(problem__project=project, steps=5)
    user = UserFactory(username="a")
    MembershipFactory(project=project, user=user)
    return task_claim_next(project=project, user=user), user


def _labels(annotation, ratings, **extra):
    steps = list(annotation.solution.steps.order_by("index"))
    return [{"step_id": s.id, "rating": r, **extra} for s, r in zip(steps, ratings, strict=False)]


def test_draft_save_bumps_version_and_stores_labels(claim):
    c, user = claim
    a = annotation_save_draft(
        annotation=c.annotation,
        user=user,
        version=1,
        labels=_labels(c.annotation, [1, 0], comment="hmm"),
        time_spent_ms=1234,
    )
    assert a.version == 2
    assert a.time_spent_ms == 1234
    assert list(StepLabel.objects.filter(annotation=a).values_list("rating", "comment")) == [
        (1, "hmm"),
        (0, "hmm"),
    ]
    # A later save replaces the set of labels (a removed label goes away).
    a = annotation_save_draft(annotation=a, user=user, version=2, labels=_labels(a, [-1]))
    assert list(StepLabel.objects.filter(annotation=a).values_list("rating", flat=True)) == [-1]


def test_stale_version_is_a_conflict_and_changes_nothing(claim):
    c, user = claim
    annotation_save_draft(
        annotation=c.annotation, user=user, version=1, labels=_labels(c.annotation, [1])
    )
    with pytest.raises(Conflict) as err:
        annotation_save_draft(
            annotation=c.annotation, user=user, version=1, labels=_labels(c.annotation, [-1])
        )
    assert err.value.details["current_version"] == 2
    assert list(StepLabel.objects.values_list("rating", flat=True)) == [1]


def test_other_users_cannot_write(claim):
    c, _ = claim
    with pytest.raises(NotAllowed):
        annotation_save_draft(annotation=c.annotation, user=UserFactory(), version=1, labels=[])


def test_rating_off_scale_and_foreign_step_rejected(claim):
    c, user = claim
    step = c.annotation.solution.steps.first()
    with pytest.raises(ValidationFailed, match="not a step of this solution"):
        annotation_save_draft(
            annotation=c.annotation, user=user, version=1, labels=[{"step_id": 999999, "rating": 1}]
        )
    c.annotation.solution.project.label_scale = "binary"
    c.annotation.solution.project.save()
    with pytest.raises(ValidationFailed, match="not on this project's scale"):
        annotation_save_draft(
            annotation=c.annotation,
            user=user,
            version=1,
            labels=[{"step_id": step.id, "rating": 0}],
        )


def test_submit_requires_every_step_rated(claim):
    c, user = claim
    with pytest.raises(ValidationFailed, match="Step 5 has no rating"):
        annotation_submit(
            annotation=c.annotation,
            user=user,
            version=1,
            labels=_labels(c.annotation, [1, 1, 1, 1]),
        )
    a = annotation_submit(
        annotation=c.annotation, user=user, version=1, labels=_labels(c.annotation, [1, 1, 0, 1, 1])
    )
    assert a.status == AnnotationStatus.SUBMITTED
    assert a.finish_reason == FinishReason.SOLUTION
    a.solution.refresh_from_db()
    assert a.solution.submitted_count == 1
    with pytest.raises(Conflict):
        annotation_submit(annotation=a, user=user, version=a.version, labels=[])


def test_first_error_mode_stops_at_the_first_wrong_step(claim):
    c, user = claim
    project = c.annotation.solution.project
    project.first_error_mode = True
    project.save()
    a = annotation_submit(
        annotation=c.annotation, user=user, version=1, labels=_labels(c.annotation, [1, -1])
    )
    assert a.finish_reason == FinishReason.FOUND_ERROR


def test_give_up_needs_a_reason(claim):
    c, user = claim
    with pytest.raises(ValidationFailed, match="reason"):
        annotation_submit(
            annotation=c.annotation, user=user, version=1, labels=[], finish_reason="give_up"
        )
    a = annotation_submit(
        annotation=c.annotation,
        user=user,
        version=1,
        labels=[],
        finish_reason="bad_problem",
        finish_reason_text="The answer key is wrong",
    )
    assert (a.finish_reason, a.finish_reason_text) == ("bad_problem", "The answer key is wrong")
