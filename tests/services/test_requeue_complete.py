"""The explorer's requeue of a complete solution: one more label, from one who has not given one.

Overlap-2 project; annotators a and b label the solution, so it is complete; a requeue raises
its own overlap by one (Solution.extra_overlap), which every rule of the queue, the submit, the
explorer's states and the counts reads.
"""

from datetime import timedelta

import pytest
from django.utils import timezone

from labeling.errors import Conflict
from labeling.models import Annotation, AnnotationStatus, Assignment, Solution, TaskLock
from labeling.selectors.explorer import ExplorerFilter, explorer_rows, explorer_solutions
from labeling.selectors.labeling_page import project_progress_for_user, project_stats
from labeling.services.labeling.annotations import annotation_skip, annotation_submit
from labeling.services.labeling.my_work import annotation_reopen
from labeling.services.projects.edit import project_update
from labeling.services.projects.explorer import explorer_bulk
from labeling.services.queue.claim import task_claim_next
from tests.factories import ProjectFactory, SolutionFactory
from tests.review.conftest import label, member

pytestmark = pytest.mark.django_db


@pytest.fixture
def rq(db):
    project = ProjectFactory(name="Requeue", overlap=2)
    solution = SolutionFactory(problem__project=project, steps=3)
    w = {"project": project, "solution": solution, "admin": member(project, "boss", "admin")}
    for name in ("a", "b", "c", "d"):
        w[name] = member(project, name)
    label(w["a"], project, [1, 1, -1])
    label(w["b"], project, [1, -1, -1])
    return w


def requeue(rq, ids=None) -> dict:
    ids = [rq["solution"].pk] if ids is None else ids
    return explorer_bulk(project=rq["project"], action="requeue", user=rq["admin"], ids=ids)


def submit(user, claim):
    steps = claim.annotation.solution.steps.order_by("index").values_list("id", flat=True)
    return annotation_submit(
        annotation=claim.annotation,
        user=user,
        version=claim.annotation.version,
        labels=[{"step_id": s, "rating": 1} for s in steps],
    )


def state(rq) -> str:
    (row,) = explorer_rows(project=rq["project"], ids=[rq["solution"].pk])
    return row["label_state"]


def test_a_complete_solution_requeued_goes_to_one_new_annotator_only(rq):
    project, solution = rq["project"], rq["solution"]
    assert task_claim_next(project=project, user=rq["c"]) is None  # complete: nothing left
    assert state(rq) == "labeled"

    result = requeue(rq)
    assert result == {
        "action": "requeue",
        "matched": 1,
        "changed": 1,
        "reopened": 1,
        "skipped": {},
    }
    solution.refresh_from_db()
    assert (solution.extra_overlap, solution.queue_open) == (1, True)
    assert state(rq) == "in_progress"
    assert project_stats(project=project)["complete_solutions"] == 0
    filtered = explorer_solutions(project=project, filters=ExplorerFilter(state="in_progress"))
    assert list(filtered.values_list("pk", flat=True)) == [solution.pk]

    # The two who labeled it are never given it again.
    assert task_claim_next(project=project, user=rq["a"]) is None
    assert task_claim_next(project=project, user=rq["b"]) is None
    assert project_progress_for_user(project=project, user=rq["a"])["remaining"] == 0
    assert project_progress_for_user(project=project, user=rq["c"])["remaining"] == 1

    claim = task_claim_next(project=project, user=rq["c"])
    assert claim is not None and claim.annotation.solution_id == solution.pk
    assert task_claim_next(project=project, user=rq["d"]) is None  # c holds the one slot

    submit(rq["c"], claim)
    solution.refresh_from_db()
    assert (solution.submitted_count, solution.queue_open) == (3, False)
    assert state(rq) == "labeled"
    assert project_stats(project=project)["complete_solutions"] == 1
    assert task_claim_next(project=project, user=rq["d"]) is None

    # Requeued again: one more, from d.
    assert requeue(rq)["reopened"] == 1
    solution.refresh_from_db()
    assert solution.extra_overlap == 2
    for user in ("a", "b", "c"):
        assert task_claim_next(project=project, user=rq[user]) is None
    assert task_claim_next(project=project, user=rq["d"]).annotation.solution_id == solution.pk


def test_a_late_submit_past_the_extra_slot_is_a_conflict(rq):
    """c's claim expired and d took the one extra slot and submitted: c's submit is refused
    (the submit counts against the solution's effective overlap) and c's draft is kept."""
    project, solution = rq["project"], rq["solution"]
    requeue(rq)
    late = task_claim_next(project=project, user=rq["c"])
    TaskLock.objects.filter(user=rq["c"]).update(expires_at=timezone.now() - timedelta(seconds=1))
    submit(rq["d"], task_claim_next(project=project, user=rq["d"]))
    with pytest.raises(Conflict):
        submit(rq["c"], late)
    assert Annotation.objects.get(pk=late.annotation.pk).status == AnnotationStatus.DRAFT
    solution.refresh_from_db()
    assert solution.submitted_count == 3


def test_requeue_of_an_incomplete_or_gold_solution_keeps_its_overlap(rq):
    project = rq["project"]
    started = SolutionFactory(problem__project=project, steps=2)
    label(rq["c"], project, [1, 1])  # overlap-first: c gets the new one, one label of two
    assigned = SolutionFactory(problem__project=project, steps=2)
    Assignment.objects.create(solution=assigned, user=rq["d"])
    gold = SolutionFactory(problem__project=project, is_gold=True)
    result = requeue(rq, ids=[started.pk, assigned.pk, gold.pk])
    assert result == {
        "action": "requeue",
        "matched": 3,
        "changed": 1,
        "reopened": 0,
        "skipped": {"already_open": 1, "gold": 1},
    }
    assert not Assignment.objects.filter(solution=assigned).exists()
    extras = Solution.objects.filter(pk__in=[started.pk, assigned.pk, gold.pk])
    assert set(extras.values_list("extra_overlap", flat=True)) == {0}


def test_requeue_removes_a_complete_solutions_assignments(rq):
    """Assigned solutions go to their assignees only; the ones who labeled it cannot take it
    again, so a requeue opens it to everyone."""
    Assignment.objects.create(solution=rq["solution"], user=rq["a"])
    assert requeue(rq)["reopened"] == 1
    assert not Assignment.objects.filter(solution=rq["solution"]).exists()
    claim = task_claim_next(project=rq["project"], user=rq["d"])
    assert claim.annotation.solution_id == rq["solution"].pk


def test_the_extra_overlap_has_a_ceiling(rq):
    Solution.objects.filter(pk=rq["solution"].pk).update(submitted_count=52, extra_overlap=50)
    result = requeue(rq)
    assert (result["changed"], result["skipped"]) == (0, {"extra_overlap_max": 1})
    assert Solution.objects.get(pk=rq["solution"].pk).extra_overlap == 50


def test_consensus_waits_for_the_extra_annotator(db):
    """Auto-resolve on agreement counts the solution's effective overlap. Overlap 1: a labels
    it (complete); a requeue wants one more (effective 2); the project's overlap then goes to
    2 (effective 3). b agreeing with a resolves nothing: three labels are wanted; c does."""
    project = ProjectFactory(name="Consensus", overlap=1, auto_resolve=True)
    solution = SolutionFactory(problem__project=project, steps=2)
    admin = member(project, "boss", "admin")
    a, b, c = (member(project, name) for name in ("a", "b", "c"))
    label(a, project, [1, -1])
    assert (
        explorer_bulk(project=project, action="requeue", user=admin, ids=[solution.pk])["reopened"]
        == 1
    )
    project_update(project=project, overlap=2)
    label(b, project, [1, -1])
    assert not solution.resolutions.filter(is_current=True).exists()
    label(c, project, [1, -1])
    assert solution.resolutions.get(is_current=True).provenance == "human_consensus"


def test_my_work_reopens_a_skipped_solution_once_it_is_requeued(db):
    """c skipped the solution, then a and b completed it: c's reopen from My work is refused
    until a requeue wants one more label; then c's skipped labels become a new draft."""
    project = ProjectFactory(name="Reopen", overlap=2)
    solution = SolutionFactory(problem__project=project, steps=2)
    admin = member(project, "boss", "admin")
    a, b, c = (member(project, name) for name in ("a", "b", "c"))
    claim = task_claim_next(project=project, user=c)
    annotation_skip(annotation=claim.annotation, user=c)
    label(a, project, [1, 1])
    label(b, project, [1, 1])
    skipped = Annotation.objects.get(annotator=c, status=AnnotationStatus.DISCARDED)
    with pytest.raises(Conflict):
        annotation_reopen(annotation=skipped, user=c)
    explorer_bulk(project=project, action="requeue", user=admin, ids=[solution.pk])
    reopened = annotation_reopen(annotation=skipped, user=c)
    assert reopened.created and reopened.annotation.solution_id == solution.pk
    assert reopened.annotation.status == AnnotationStatus.DRAFT
    assert task_claim_next(project=project, user=member(project, "d")) is None  # c holds it
