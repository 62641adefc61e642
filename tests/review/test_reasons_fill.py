"""The set-based fill (labeling.services.review.reasons_fill) stores the masks the per-solution
refresh and the live queue compute, range by range, for one project only, and resumes."""

import io
import random

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import timezone

from labeling.models import (
    Annotation,
    GoldLabel,
    Project,
    Solution,
    Step,
    StepLabel,
    Suggestion,
)
from labeling.selectors.review import REASON_BITS, REASONS, reasons_mask
from labeling.services.review.reasons import review_reasons_fill, review_reasons_refresh
from tests.factories import ProjectFactory, SolutionFactory, UserFactory

pytestmark = pytest.mark.django_db

RATINGS = (-1, 0, 1, 1, 1, None)


def _world(project: Project, other: Project, rng: random.Random, users: list) -> None:
    """Solutions of both projects, interleaved by id, with random labels written past the
    services (nothing stored): 0 to 3 submitted annotations plus drafts, unsure flags, gold
    solutions with gold labels, symbolic and other machine refutations."""
    for i in range(60):
        solution = SolutionFactory(
            problem__project=project if i % 4 else other, steps=rng.choice((1, 2, 3, 4))
        )
        steps = list(solution.steps.order_by("index"))
        truth = [rng.choice((-1, 0, 1, 1, 1)) for _ in steps]
        if rng.random() < 0.2:
            Solution.objects.filter(pk=solution.pk).update(is_gold=True)
            GoldLabel.objects.bulk_create(
                GoldLabel(step=step, rating=rng.choice((r, r, r, None)))
                for step, r in zip(steps, truth, strict=True)
            )
        for step in steps:
            if rng.random() < 0.25:
                source = rng.choice(("symbolic", "symbolic", "judge"))
                for agent in ("sympy", "z3")[: rng.choice((1, 2))]:
                    Suggestion.objects.create(
                        step=step, source=source, agent=agent, value=rng.choice((-1, -1, 1))
                    )
        for user in rng.sample(users, rng.choice((0, 1, 1, 2, 2, 3))):
            status = "submitted" if rng.random() < 0.85 else rng.choice(("draft", "discarded"))
            annotation = Annotation.objects.create(
                solution=solution, annotator=user, status=status, submitted_at=timezone.now()
            )
            StepLabel.objects.bulk_create(
                StepLabel(
                    annotation=annotation,
                    step=step,
                    rating=r if rng.random() < 0.8 else rng.choice(RATINGS),
                    unsure=rng.random() < 0.05,
                )
                for step, r in zip(steps, truth, strict=True)
                if rng.random() < 0.9  # some steps left without a label row
            )
        if rng.random() < 0.1:  # an annotation with no labels at all
            Annotation.objects.create(solution=solution, annotator=None, status="submitted")


def _masks(project: Project) -> dict[int, int]:
    return dict(Solution.objects.filter(project=project).values_list("pk", "review_reasons"))


@pytest.mark.parametrize("seed", range(3))
def test_fill_stores_the_per_solution_refresh_masks(seed):
    rng = random.Random(seed)
    project, other = ProjectFactory(name=f"fill {seed}"), ProjectFactory(name="other")
    users = [UserFactory(username=f"u{seed}-{i}") for i in range(3)]
    _world(project, other, rng, users)
    assert set(_masks(project).values()) == {0}  # written past the services

    for pk in _masks(project):  # the per-solution refresh: the live expression, one by one
        review_reasons_refresh(solution_ids=[pk])
    expected = _masks(project)
    live = dict(
        Solution.objects.filter(project=project)
        .annotate(live=reasons_mask({"project": project}))
        .values_list("pk", "live")
    )
    assert expected == live
    present = {name for name in REASONS for m in expected.values() if m & REASON_BITS[name]}
    assert present == set(REASONS), f"every reason present: {sorted(present)}"
    assert 0 in expected.values()

    # Wrong masks everywhere, the other project's included: the fill rewrites this project's
    # and leaves the other's alone.
    Solution.objects.update(review_reasons=31)
    progress = []
    filled = review_reasons_fill(project=project, batch=4, progress=lambda p: progress.append(p))
    assert _masks(project) == expected
    assert set(_masks(other).values()) == {31}
    assert filled == len(expected) == progress[-1].solutions
    assert progress[-1].changed == sum(m != 31 for m in expected.values())
    n = len(expected)
    assert [p.solutions for p in progress] == [min(n, 4 * i) for i in range(1, -(-n // 4) + 1)]
    assert progress[-1].last_id == max(expected)
    project.refresh_from_db()
    assert project.review_reasons_stored

    # The project path of review_reasons_refresh (a bulk import's id range) is the same.
    Solution.objects.update(review_reasons=0)
    ids = sorted(expected)
    review_reasons_refresh(project=project, id_range=(ids[5], ids[-5]))
    assert _masks(project) == {
        pk: (m if ids[5] <= pk <= ids[-5] else 0) for pk, m in expected.items()
    }
    assert set(_masks(other).values()) == {0}


def test_fill_resumes_after_an_id_and_writes_only_changes(rw):
    from tests.review.test_review_queue import submitted

    project = rw["project"]
    first = rw["solution"]
    second = SolutionFactory(problem__project=project, steps=2)
    submitted(first, rw["a"], [1, 1, -1, 1])  # disagreement with b on the first error
    submitted(first, rw["b"], [1, 1, 1, 1])
    submitted(second, rw["a"], [1, 1])  # a single annotator
    assert review_reasons_fill(project=project, after=first.pk) == 1
    assert _masks(project) == {first.pk: 0, second.pk: REASON_BITS["single_annotator"]}
    progress = []
    assert review_reasons_fill(project=project, progress=progress.append) == 2
    assert _masks(project) == {
        first.pk: REASON_BITS["disagreement"],
        second.pk: REASON_BITS["single_annotator"],
    }
    assert progress[-1].changed == 1  # the second's mask was right already


def test_refresh_command_prints_progress_and_resumes(rw):
    from tests.review.test_review_queue import submitted

    project, solution = rw["project"], rw["solution"]
    later = SolutionFactory(problem__project=project, steps=1)
    submitted(solution, rw["a"], [1, 1, 1, 1], unsure={2})
    submitted(later, rw["a"], [1])
    out = io.StringIO()
    call_command("review_reasons_refresh", "--project", str(project.pk), "--batch", "1", stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[0].startswith(
        f"  project {project.pk}: 1 solutions, 1 changed, last id {solution.pk}"
    )
    assert lines[1].startswith(
        f"  project {project.pk}: 2 solutions, 2 changed, last id {later.pk}"
    )
    assert lines[2].startswith(f"project {project.pk} (Review): 2 solutions in ")
    Solution.objects.update(review_reasons=0)
    out = io.StringIO()
    call_command(
        "review_reasons_refresh",
        "--project",
        str(project.pk),
        "--after",
        str(solution.pk),
        stdout=out,
    )
    assert _masks(project) == {solution.pk: 0, later.pk: REASON_BITS["single_annotator"]}
    assert "1 solutions in" in out.getvalue()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--batch", "0"], "--batch: between 1 and 1000000"),
        (["--batch", "1000001"], "--batch: between 1 and 1000000"),
        (["--after", "5"], "--after: with exactly one --project"),
        (["--project", "1", "--after", "-1"], "--after: a solution id, 0 or more"),
    ],
)
def test_refresh_command_bounds_its_options(db, args, message):
    with pytest.raises(CommandError, match=message):
        call_command("review_reasons_refresh", *args, stdout=io.StringIO())


def test_steps_without_labels_and_empty_projects(db):
    project = ProjectFactory()
    assert review_reasons_fill(project=project) == 0
    SolutionFactory(problem__project=project, steps=2)
    assert Step.objects.count() == 2
    assert review_reasons_fill(project=project) == 1
    assert set(_masks(project).values()) == {0}


@pytest.mark.postgres
def test_refresh_command_leaves_fresh_statistics(rw):
    """A fill changes many masks at once; the planner's statistics follow (ANALYZE)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        call_command(
            "review_reasons_refresh", "--project", str(rw["project"].pk), stdout=io.StringIO()
        )
    assert any(q["sql"] == "ANALYZE labeling_solution" for q in captured.captured_queries)
