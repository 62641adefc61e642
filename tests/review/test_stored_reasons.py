"""Stored review reasons (Solution.review_reasons) and the "has a submission" marker
(Solution.has_submission) equal the live computation after any sequence of service calls,
and the queue reads them without computing reasons."""

import io
import json
import random

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from autolabel.engines.base import EngineResult, StepSuggestion
from autolabel.services import suggestions_upsert
from labeling.errors import DomainError
from labeling.models import Annotation, AnnotationStatus, Project, Solution
from labeling.selectors.review import (
    REASONS,
    has_submission,
    reasons_mask,
    review_queue,
    review_queue_counts,
)
from labeling.services.gold.questions import gold_set, gold_unset
from labeling.services.imports import import_file
from labeling.services.labeling.annotations import annotation_skip, annotation_submit
from labeling.services.labeling.my_work import annotation_resubmit
from labeling.services.projects.edit import project_create
from labeling.services.queue.claim import task_claim_next
from labeling.services.review.actions import review_accept, review_adjudicate, review_reject
from tests.factories import SolutionFactory
from tests.review.conftest import label, member

pytestmark = pytest.mark.django_db

RATINGS = (-1, 0, 1, None)
SUBMIT = (-1, 0, 1, 1, 1, 1, None)  # mostly agreeing; an unrated step is refused


def stored_and_live(project: Project) -> list[tuple[int, int, int]]:
    return list(
        Solution.objects.filter(project=project)
        .annotate(live=reasons_mask({"project": project}))
        .order_by("pk")
        .values_list("pk", "review_reasons", "live")
    )


def marker_wrong(project: Project) -> list[tuple[int, bool, bool]]:
    """(solution, stored has_submission, live) where the two differ."""
    rows = (
        Solution.objects.filter(project=project)
        .annotate(live=has_submission())
        .order_by("pk")
        .values_list("pk", "has_submission", "live")
    )
    return [(pk, stored, live) for pk, stored, live in rows if stored != live]


def assert_stored_equals_live(project: Project, after: str) -> int:
    """Every solution's stored mask and marker are the live ones; returns the union of the
    masks."""
    rows = stored_and_live(project)
    wrong = [(pk, stored, live) for pk, stored, live in rows if stored != live]
    assert not wrong, f"after {after}: (solution, stored, live) {wrong}"
    assert not marker_wrong(project), f"after {after}: has_submission {marker_wrong(project)}"
    return sum({1 << b for _, stored, _ in rows for b in range(len(REASONS)) if stored >> b & 1})


def queue_views(project: Project, *, stored: bool) -> dict:
    """Every page the queue can show (state x reason), with the counts."""
    project.review_reasons_stored = stored
    views = {}
    for state in ("unresolved", "resolved", "all"):
        views[state, "counts"] = review_queue_counts(project=project, state=state)
        for reason in (None, *REASONS, "rest"):
            views[state, reason] = [
                (s.pk, s.reasons, s.annotations_submitted, s.resolution_id)
                for s in review_queue(project=project, state=state, reason=reason)
            ]
    return views


def _import(project: Project, tmp_path, rng: random.Random, n: int) -> None:
    path = tmp_path / f"rows-{rng.random()}.jsonl"
    with open(path, "w") as f:
        for i in range(n):
            steps = [f"step {k} of {path.stem} {i}" for k in range(3)]
            row = {
                "problem": f"problem {path.stem} {i}",
                "steps": steps,
                "labels": [rng.choice((-1, 1)) for _ in steps],
                "source": "dataset",
            }
            f.write(json.dumps(row) + "\n")
    import_file(project=project, path=path, labels_as="annotations")


def _steps(solution: Solution) -> list[int]:
    return list(solution.steps.order_by("index").values_list("id", flat=True))


@pytest.mark.parametrize("seed", range(4))
def test_stored_reasons_follow_random_service_sequences(seed, tmp_path):
    rng = random.Random(seed)
    admin = member(Project.objects.create(name="other"), f"admin{seed}", "admin")
    project = project_create(
        created_by=admin, name=f"random {seed}", overlap=2, auto_resolve=rng.random() < 0.5
    )
    assert project.review_reasons_stored
    annotators = [member(project, f"r{seed}-{i}") for i in range(3)]
    reviewer = member(project, f"rev{seed}", "reviewer")
    for _ in range(5):
        SolutionFactory(problem__project=project, steps=rng.choice((2, 3, 4)))
    _import(project, tmp_path, rng, 2)
    assert_stored_equals_live(project, "import")

    def submit() -> str:
        user = rng.choice(annotators)
        claim = task_claim_next(project=project, user=user)
        if claim is None:
            return "submit (nothing to claim)"
        steps = _steps(claim.annotation.solution)
        annotation_submit(
            annotation=claim.annotation,
            user=user,
            version=claim.annotation.version,
            labels=[
                {"step_id": s, "rating": rng.choice(SUBMIT), "unsure": rng.random() < 0.15}
                for s in steps
            ],
            finish_reason="solution",
        )
        return f"submit by {user.username} on {claim.annotation.solution_id}"

    def submitted() -> list[Annotation]:
        return list(
            Annotation.objects.filter(
                solution__project=project, status=AnnotationStatus.SUBMITTED
            ).select_related("solution")
        )

    def reject() -> str:
        ours = [a for a in submitted() if a.annotator_id is not None]
        if not ours:
            return "reject (none)"
        annotation = rng.choice(ours)
        review_reject(annotation=annotation, reviewer=reviewer, comment="redo")
        return f"reject {annotation.pk}"

    def accept() -> str:
        annotations = submitted()
        if not annotations:
            return "accept (none)"
        annotation = rng.choice(annotations)
        review_accept(annotation=annotation, reviewer=reviewer)
        return f"accept {annotation.pk}"

    def adjudicate() -> str:
        solution = rng.choice(list(Solution.objects.filter(project=project)))
        labels = [{"step_id": s, "rating": rng.choice((-1, 0, 1))} for s in _steps(solution)]
        review_adjudicate(solution=solution, reviewer=reviewer, labels=labels)
        return f"adjudicate {solution.pk}"

    def labeled() -> list[Solution]:
        """Solutions with a submission, where a changed input can change a reason."""
        ids = {a.solution_id for a in submitted()}
        return [s for s in Solution.objects.filter(project=project) if s.pk in ids] or list(
            Solution.objects.filter(project=project)
        )

    def gold_on() -> str:
        solution = rng.choice(labeled())
        labels = [{"step_id": s, "rating": rng.choice(RATINGS)} for s in _steps(solution)]
        gold_set(solution=solution, labels=labels, user=admin)
        return f"gold_set {solution.pk}"

    def gold_off() -> str:
        gold = list(Solution.objects.filter(project=project, is_gold=True))
        if not gold:
            return "gold_unset (none)"
        solution = rng.choice(gold)
        gold_unset(solution=solution)
        return f"gold_unset {solution.pk}"

    def symbolic() -> str:
        solution = rng.choice(labeled())
        n = len(_steps(solution))
        result = EngineResult(
            source="symbolic",
            agent="sympy",
            suggestions=[StepSuggestion(step_index=i, value=rng.choice((-1, 1))) for i in range(n)],
        )
        suggestions_upsert(solution=solution, result=result)
        return f"symbolic on {solution.pk}"

    def more_imports() -> str:
        _import(project, tmp_path, rng, 1)
        return "import"

    def resubmit() -> str:
        ours = [a for a in submitted() if a.annotator_id is not None]
        if not ours:
            return "resubmit (none)"
        annotation = rng.choice(ours)
        user = annotation.annotator
        annotation_resubmit(
            annotation=annotation,
            user=user,
            version=annotation.version,
            labels=[
                {"step_id": s, "rating": rng.choice(SUBMIT)} for s in _steps(annotation.solution)
            ],
        )
        return f"resubmit {annotation.pk}"

    def skip() -> str:
        user = rng.choice(annotators)
        claim = task_claim_next(project=project, user=user)
        if claim is None:
            return "skip (nothing to claim)"
        annotation_skip(annotation=claim.annotation, user=user)
        return f"skip by {user.username} of {claim.annotation.solution_id}"

    actions = [submit] * 8 + [reject, accept, adjudicate, gold_on, gold_off, symbolic]
    actions += [symbolic, more_imports, resubmit, skip]
    log, seen = [], 0
    for step in range(40):
        action = rng.choice(actions)
        try:
            done = action()
        except DomainError as exc:
            done = f"{action.__name__} refused: {exc.message}"
        log.append(done)
        seen |= assert_stored_equals_live(project, f"step {step}: {done}")
    # Reasons came and went, so the comparisons were not between zeros.
    assert bin(seen).count("1") >= 2, "; ".join(log)
    assert queue_views(project, stored=True) == queue_views(project, stored=False)


def test_stored_queue_reads_the_column_and_computes_no_reason(rw):
    project, a, b = rw["project"], rw["a"], rw["b"]
    Project.objects.filter(pk=project.pk).update(review_reasons_stored=True)
    project.refresh_from_db()
    label(a, project, [1, 0, 1, 1], unsure={1})
    label(b, project, [1, 1, 1, 1])
    with CaptureQueriesContext(connection) as ctx:
        items = list(review_queue(project=project))
        counts = review_queue_counts(project=project)
    assert [i.reasons for i in items] == [0b11000]  # disagreement and unsure
    assert counts["disagreement"] == counts["unsure"] == counts["total"] == 1
    assert len(ctx.captured_queries) == 2
    assert not any("labeling_steplabel" in q["sql"] for q in ctx.captured_queries)


def test_refresh_command_fills_rows_written_behind_the_services(rw):
    from tests.review.test_review_queue import submitted

    project, solution = rw["project"], rw["solution"]
    submitted(solution, rw["a"], [1, 1, -1, 1])  # direct writes: nothing stored
    submitted(solution, rw["b"], [1, 1, 1, 1])
    assert not project.review_reasons_stored
    assert [(s.pk, s.reasons) for s in review_queue(project=project)] == [(solution.pk, 0b10000)]
    assert Solution.objects.get(pk=solution.pk).review_reasons == 0
    call_command("review_reasons_refresh", "--project", str(project.pk), stdout=io.StringIO())
    project.refresh_from_db()
    assert project.review_reasons_stored
    assert Solution.objects.get(pk=solution.pk).review_reasons == 0b10000
    assert [(s.pk, s.reasons) for s in review_queue(project=project)] == [(solution.pk, 0b10000)]


def test_refresh_command_names_an_unknown_project(db):
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="--project: no project with id \\[999\\]"):
        call_command("review_reasons_refresh", "--project", "999")
