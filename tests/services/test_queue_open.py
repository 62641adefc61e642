"""Solution.queue_open (the claim pool's stored flag) equals the live rule after any sequence
of service calls: submit, skip, a reviewer's reject, gold set and unset, assignments made and
cleared, the project's overlap changed, the explorer's requeue (which reopens complete solutions
for one more label); new imports arrive open. A flag left closed would hide
work from every claim, so this replays random sequences and compares after every step."""

import io
import random

import pytest
from django.core.management import call_command

from labeling.errors import Conflict
from labeling.models import Annotation, AnnotationStatus, Solution
from labeling.services.gold.questions import gold_set, gold_unset
from labeling.services.imports import import_file
from labeling.services.labeling.annotations import annotation_skip, annotation_submit
from labeling.services.projects.edit import project_create, project_update
from labeling.services.projects.explorer import explorer_bulk
from labeling.services.queue.assignments import assignment_clear, assignment_create
from labeling.services.queue.claim import task_claim_next
from labeling.services.queue.pool import project_queue_refresh, queue_open_expression
from labeling.services.review.actions import review_reject
from tests.conftest import PROCESSBENCH
from tests.factories import SolutionFactory, UserFactory
from tests.review.conftest import member

pytestmark = pytest.mark.django_db


def assert_stored_equals_live(project, after: str) -> None:
    rows = (
        Solution.objects.filter(project=project)
        .annotate(live=queue_open_expression())
        .values_list("pk", "queue_open", "live")
    )
    wrong = [(pk, stored, live) for pk, stored, live in rows if stored != live]
    assert not wrong, f"after {after}: (solution, stored, live) {wrong}"


def _gold(solution) -> bool:
    return Solution.objects.filter(pk=solution.pk, is_gold=True).exists()


def _submit(project, user) -> bool:
    claim = task_claim_next(project=project, user=user)
    if claim is None:
        return False
    labels = [{"step_id": s.id, "rating": 1} for s in claim.annotation.solution.steps.all()]
    try:
        annotation_submit(
            annotation=claim.annotation, user=user, version=claim.annotation.version, labels=labels
        )
    except Conflict:  # the overlap was lowered under a resumed draft: refused, draft kept
        return False
    return True


@pytest.mark.parametrize("seed", range(4))
def test_random_service_sequences_keep_the_flag_live(seed):
    rng = random.Random(seed)
    admin = UserFactory(is_staff=True)
    project = project_create(name=f"pool {seed}", created_by=admin, overlap=2)
    solutions = [SolutionFactory(problem__project=project, steps=2) for _ in range(12)]
    users = [member(project, f"u{seed}-{i}") for i in range(4)]
    actions = ["submit"] * 6 + ["skip", "reject", "gold", "ungold", "assign", "clear", "overlap"]
    actions += ["requeue"]
    for step in range(60):
        action = rng.choice(actions)
        user = rng.choice(users)
        if action == "submit":
            _submit(project, user)
        elif action == "skip":
            claim = task_claim_next(project=project, user=user)
            if claim is not None:
                annotation_skip(annotation=claim.annotation, user=user)
        elif action == "reject":
            submitted = Annotation.objects.filter(
                solution__project=project, status=AnnotationStatus.SUBMITTED
            ).first()
            if submitted is not None:
                review_reject(annotation=submitted, reviewer=admin, comment="again")
        elif action == "gold":
            solution = rng.choice(solutions)
            labels = [{"step_id": s.id, "rating": 1} for s in solution.steps.all()]
            gold_set(solution=solution, labels=labels, user=admin)
        elif action == "ungold":
            gold_unset(solution=rng.choice(solutions))
        elif action == "assign":
            picked = [s for s in rng.sample(solutions, 3) if not _gold(s)]
            if not picked:
                continue
            assignment_create(
                project=project,
                user_ids=[user.pk],
                solution_ids=[s.pk for s in picked],
                only_open=False,
            )
        elif action == "clear":
            assignment_clear(project=project, user_ids=[user.pk])
        elif action == "requeue":
            picked = [s.pk for s in rng.sample(solutions, 4)]
            explorer_bulk(project=project, action="requeue", user=admin, ids=picked)
        else:
            project_update(project=project, overlap=rng.randint(1, 3))
            project_queue_refresh(project_id=project.pk)  # its job, as a worker runs it
        assert_stored_equals_live(project, f"step {step}: {action} by {user.username}")


def test_imported_solutions_arrive_open(db):
    project = project_create(name="imported", created_by=UserFactory(), overlap=1)
    import_file(project=project, path=PROCESSBENCH, fmt="processbench", labels_as="none")
    assert Solution.objects.filter(project=project, queue_open=True).count() == 100
    assert_stored_equals_live(project, "import")


def test_queue_refresh_command_repairs_a_flag_changed_behind_the_services(db):
    project = project_create(name="edited", created_by=UserFactory(), overlap=1)
    solution = SolutionFactory(problem__project=project)
    Solution.objects.filter(pk=solution.pk).update(queue_open=False)  # e.g. an admin edit
    out = io.StringIO()
    call_command("queue_refresh", "--project", str(project.pk), stdout=out)
    assert Solution.objects.get(pk=solution.pk).queue_open
    assert f"project {project.pk} (edited): 1 solutions" in out.getvalue()


def test_queue_refresh_walks_ranges_and_writes_only_changed_flags(db):
    from labeling.services.queue.pool import queue_open_fill, queue_open_refresh

    project = project_create(name="ranges", created_by=UserFactory(), overlap=2)
    other = project_create(name="other", created_by=UserFactory(), overlap=2)
    solutions = [SolutionFactory(problem__project=project if i % 3 else other) for i in range(9)]
    ours = [s.pk for s in solutions if s.project_id == project.pk]
    Solution.objects.filter(pk=ours[1]).update(submitted_count=2)  # complete, past the services
    Solution.objects.filter(pk=ours[3]).update(queue_open=False)  # an admin edit
    Solution.objects.filter(project=other).update(queue_open=False)  # left alone
    progress = []
    assert queue_open_fill(project=project, batch=4, progress=progress.append) == 6
    assert [p.solutions for p in progress] == [4, 6]
    assert progress[-1].changed == 2  # ours[1] closes; ours[3] reopens
    assert progress[-1].last_id == ours[-1]
    assert_stored_equals_live(project, "fill")
    assert not Solution.objects.filter(project=other, queue_open=True).exists()
    # The project path writes the flags that change, not every row.
    assert queue_open_refresh(project=project) == 0
    Solution.objects.filter(pk=ours[2]).update(submitted_count=2)
    project_update(project=project, overlap=3)  # reopens ours[1] and keeps ours[2] open
    project_queue_refresh(project_id=project.pk, batch=4)  # its job, range by range
    assert_stored_equals_live(project, "overlap 3")
    assert queue_open_refresh(project=project) == 0
    out = io.StringIO()
    Solution.objects.filter(pk=ours[4]).update(queue_open=False)
    call_command("queue_refresh", "--project", str(project.pk), "--after", str(ours[3]), stdout=out)
    assert Solution.objects.get(pk=ours[4]).queue_open
    assert f"project {project.pk} (ranges): 2 solutions" in out.getvalue()
