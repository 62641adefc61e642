from datetime import timedelta

import pytest
from django.utils import timezone

from labeling.models import Annotation, AnnotationStatus, TaskLock
from labeling.services.labeling.annotations import annotation_skip, annotation_submit
from labeling.services.queue.claim import task_claim_next
from tests.factories import MembershipFactory, ProjectFactory, SolutionFactory, UserFactory

pytestmark = pytest.mark.django_db


def _member(project, name):
    user = UserFactory(username=name)
    MembershipFactory(project=project, user=user)
    return user


def _submit_all(claim, user):
    steps = claim.annotation.solution.steps.all()
    return annotation_submit(
        annotation=claim.annotation,
        user=user,
        version=claim.annotation.version,
        labels=[{"step_id": s.id, "rating": 1} for s in steps],
    )


def test_claims_in_id_order_and_locks():
    project = ProjectFactory()
    first, second = (
        SolutionFactory(problem__project=project),
        SolutionFactory(problem__project=project),
    )
    ann = _member(project, "a")
    claim = task_claim_next(project=project, user=ann)
    assert claim.annotation.solution_id == first.id
    assert claim.lock.expires_at > timezone.now()
    other = _member(project, "b")
    assert task_claim_next(project=project, user=other).annotation.solution_id == second.id
    # Overlap 1 and both held: a third annotator gets nothing.
    assert task_claim_next(project=project, user=_member(project, "c")) is None


def test_own_draft_is_served_again_first():
    project = ProjectFactory()
    SolutionFactory.create_batch(3, problem__project=project)
    ann = _member(project, "a")
    first = task_claim_next(project=project, user=ann)
    again = task_claim_next(project=project, user=ann)
    assert again.annotation.pk == first.annotation.pk
    assert Annotation.objects.filter(annotator=ann).count() == 1


def test_never_serves_a_solution_the_user_submitted():
    project = ProjectFactory(overlap=2)
    only = SolutionFactory(problem__project=project)
    ann = _member(project, "a")
    _submit_all(task_claim_next(project=project, user=ann), ann)
    assert task_claim_next(project=project, user=ann) is None
    other = _member(project, "b")
    assert task_claim_next(project=project, user=other).annotation.solution_id == only.id


def test_expired_lock_frees_the_solution_for_others():
    project = ProjectFactory()
    only = SolutionFactory(problem__project=project)
    a, b = _member(project, "a"), _member(project, "b")
    task_claim_next(project=project, user=a)
    assert task_claim_next(project=project, user=b) is None
    TaskLock.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    assert task_claim_next(project=project, user=b).annotation.solution_id == only.id


def test_skip_releases_and_puts_it_last_for_the_skipper():
    project = ProjectFactory()
    first, second = (
        SolutionFactory(problem__project=project),
        SolutionFactory(problem__project=project),
    )
    a, b = _member(project, "a"), _member(project, "b")
    claim = task_claim_next(project=project, user=a)
    annotation_skip(annotation=claim.annotation, user=a)
    assert claim.annotation.solution_id == first.id
    assert not TaskLock.objects.filter(user=a).exists()
    # The skipper gets the other one first; someone else gets the skipped one.
    assert task_claim_next(project=project, user=a).annotation.solution_id == second.id
    assert task_claim_next(project=project, user=b).annotation.solution_id == first.id


def test_overlap_first_ordering_finishes_partly_labeled_solutions():
    project = ProjectFactory(overlap=2)
    SolutionFactory(problem__project=project)
    second = SolutionFactory(problem__project=project)
    a, b = _member(project, "a"), _member(project, "b")
    claim = task_claim_next(project=project, user=a)
    annotation_skip(annotation=claim.annotation, user=a)  # a skips the first
    claim = task_claim_next(project=project, user=a)
    assert claim.annotation.solution_id == second.id
    _submit_all(claim, a)
    # b is served the solution that already has one submission.
    assert task_claim_next(project=project, user=b).annotation.solution_id == second.id


def test_submit_after_expired_lock_when_overlap_filled_keeps_the_draft():
    from labeling.errors import Conflict

    project = ProjectFactory()
    SolutionFactory(problem__project=project)
    a, b = _member(project, "a"), _member(project, "b")
    claim_a = task_claim_next(project=project, user=a)
    TaskLock.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    _submit_all(task_claim_next(project=project, user=b), b)
    with pytest.raises(Conflict) as err:
        _submit_all(claim_a, a)
    assert "all the labels it needs" in str(err.value)  # the overlap's answer, not the version's
    claim_a.annotation.refresh_from_db()
    assert claim_a.annotation.status == AnnotationStatus.DRAFT
    assert claim_a.annotation.version == 1 and not claim_a.annotation.labels.exists()
