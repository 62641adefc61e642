"""The partial aggregates (services/projects/metrics_parts.py): a refresh recomputes the
rater-pair confusions and step-rating profiles of the solutions changed since the last one,
and its answer is a full computation's, value and type.

A random sequence of the writes that change labels (submits, skips, resubmits, rejections,
accepts, adjudications, gold, machine suggestions, an import, the Django admin's deletes of
annotations and solutions) on a many-domains project, a refresh after each, compared with
`project_metrics_by_domain` computed from scratch; the logged writes must have taken the
incremental path (a refresh that always rebuilt would pass the comparison but not this).
"""

import io
import json
import random

import pytest
from django.contrib import admin
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, transaction
from django.db.models import ProtectedError
from django.test import RequestFactory

from autolabel.engines.base import EngineResult, StepSuggestion
from autolabel.services import suggestions_upsert
from labeling.metrics.domains import project_metrics_by_domain
from labeling.metrics.queries import rater_pair_confusions, step_rating_profiles
from labeling.models import (
    Annotation,
    AnnotationStatus,
    Domain,
    LabelScale,
    MetricsChange,
    MetricsPairPart,
    MetricsSnapshot,
    MetricsSourcePart,
    Solution,
)
from labeling.selectors.labeling_page import project_stats
from labeling.services.gold.questions import gold_set
from labeling.services.imports import import_file
from labeling.services.imports.predictions import predictions_upload
from labeling.services.labeling.annotations import annotation_skip, annotation_submit
from labeling.services.labeling.my_work import annotation_resubmit
from labeling.services.projects import metrics as metrics_service
from labeling.services.projects.explorer import explorer_bulk
from labeling.services.projects.metrics import STATS_KEY, metrics_refresh
from labeling.services.queue.claim import task_claim_next
from labeling.services.review.actions import review_accept, review_adjudicate, review_reject
from tests.factories import MembershipFactory, ProjectFactory, SolutionFactory, UserFactory
from tests.importers.conftest import DATA
from tests.metrics.test_metrics_statements import _same
from tests.review.test_review_queue import submitted

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(
        "connection.vendor != 'postgresql'", reason="the partial aggregates are PostgreSQL's"
    ),
]


def _fresh(project) -> dict:
    return json.loads(json.dumps(project_metrics_by_domain(project), cls=DjangoJSONEncoder))


class Run:
    def __init__(self, rng: random.Random, scale: str) -> None:
        self.rng = rng
        self.project = ProjectFactory(overlap=3, domain=Domain.MIXED, label_scale=scale)
        self.values = list(self.project.rating_values)
        self.people = [UserFactory(username=f"mp{i}") for i in range(4)]
        self.reviewer = UserFactory(username="mp-reviewer")
        for user in self.people:
            MembershipFactory(project=self.project, user=user)
        for n in range(12):
            solution = SolutionFactory(
                problem__project=self.project,
                problem__domain=["math", "code", ""][n % 3],
                steps=rng.randint(2, 4),
            )
            raters = rng.sample(self.people, rng.randint(0, 2))
            for rater in raters:
                submitted(solution, rater, self._ratings(solution))
            # As the submits would have counted them.
            Solution.objects.filter(pk=solution.pk).update(submitted_count=len(raters))
        self.imported = False

    def _ratings(self, solution) -> list:
        return [self.rng.choice([*self.values, None]) for _ in solution.steps.all()]

    def _labels(self, annotation) -> list[dict]:
        steps = annotation.solution.steps.order_by("index")
        return [{"step_id": s.pk, "rating": self.rng.choice(self.values)} for s in steps]

    def _submitted(self, people_only: bool = True) -> Annotation | None:
        rows = Annotation.objects.filter(
            solution__project=self.project, status=AnnotationStatus.SUBMITTED
        )
        if people_only:
            rows = rows.filter(annotator__isnull=False)
        rows = list(rows.order_by("pk"))
        return self.rng.choice(rows) if rows else None

    # The writes; each returns whether it logs its solutions (the incremental path), or the
    # most solutions it logs when that is more than two.

    def submit(self) -> bool:
        user = self.rng.choice(self.people)
        claim = task_claim_next(project=self.project, user=user)
        if claim.annotation is None:
            return self.accept()
        annotation_submit(
            annotation=claim.annotation,
            user=user,
            version=claim.annotation.version,
            labels=self._labels(claim.annotation),
        )
        return True

    def skip(self) -> bool:
        user = self.rng.choice(self.people)
        claim = task_claim_next(project=self.project, user=user)
        if claim.annotation is None:
            return self.accept()
        annotation_skip(annotation=claim.annotation, user=user)
        return True

    def resubmit(self) -> bool:
        mine = self._submitted()
        if mine is None or mine.imported:
            return self.submit()
        annotation_resubmit(
            annotation=mine, user=mine.annotator, version=mine.version, labels=self._labels(mine)
        )
        return True

    def reject(self) -> bool:
        annotation = self._submitted()
        if annotation is None:
            return self.submit()
        review_reject(annotation=annotation, reviewer=self.reviewer, comment="again")
        return True

    def accept(self) -> bool:
        annotation = self._submitted(people_only=False)
        if annotation is None:
            return False
        review_accept(annotation=annotation, reviewer=self.reviewer)
        return True

    def adjudicate(self) -> bool:
        annotation = self._submitted(people_only=False)
        if annotation is None:
            return False
        review_adjudicate(
            solution=annotation.solution, reviewer=self.reviewer, labels=self._labels(annotation)
        )
        return True

    def gold(self) -> bool:
        solution = self.rng.choice(list(Solution.objects.filter(project=self.project)))
        steps = solution.steps.order_by("index")
        gold_set(solution=solution, labels=[{"step_id": s.pk, "rating": 1} for s in steps])
        return True

    def machine_suggestions(self) -> bool:
        labeled = self._submitted(people_only=False)  # a labeled one: agreement to count
        solution = (
            labeled.solution
            if labeled is not None
            else self.rng.choice(list(Solution.objects.filter(project=self.project)))
        )
        values = [self.rng.choice(self.values) for _ in solution.steps.all()]
        result = EngineResult(
            source="symbolic",
            agent="mp",
            suggestions=[StepSuggestion(step_index=i, value=v) for i, v in enumerate(values)],
        )
        with transaction.atomic():
            suggestions_upsert(solution=solution, result=result)
        return True  # logged, with no solution to recompute

    def predictions(self) -> bool:
        """An uploaded model's predictions on two solutions: suggestions, their solutions
        logged."""
        solutions = self.rng.sample(list(Solution.objects.filter(project=self.project)), 2)
        lines = []
        for solution in solutions:
            if not solution.external_id:
                solution.external_id = f"mp-{solution.pk}"
                solution.save(update_fields=["external_id"])
            labels = [self.rng.choice(self.values) for _ in solution.steps.all()]
            lines.append(
                {"id": solution.external_id, "name": "mp-prm", "version": "v1", "labels": labels}
            )
        body = "".join(json.dumps(line) + "\n" for line in lines).encode()
        predictions_upload(project=self.project, source=io.BytesIO(body), filename="p.jsonl")
        return True

    def import_labels(self) -> bool | int:
        if self.imported:
            return self.submit()
        self.imported = True
        import_file(
            project=self.project,
            path=DATA / "prm800k_sample.jsonl",
            labels_as="annotations",
            domain="math",
        )
        return Solution.objects.filter(project=self.project).count()  # its solutions logged

    def explorer(self) -> bool:
        """A bulk action of the explorer on two solutions (gold, requeue, review)."""
        solutions = list(Solution.objects.filter(project=self.project))
        ids = [solution.pk for solution in self.rng.sample(solutions, 2)]
        action = self.rng.choice(["mark_gold", "unmark_gold", "requeue", "send_to_review"])
        explorer_bulk(project=self.project, action=action, user=self.reviewer, ids=ids)
        return True

    def admin_delete_annotation(self) -> bool:
        annotation = self._submitted(people_only=False)
        if annotation is None:
            return False
        _admin_delete(Annotation, Annotation.objects.filter(pk=annotation.pk))
        return False

    def admin_delete_solution(self) -> bool:
        solutions = list(Solution.objects.filter(project=self.project).order_by("pk"))
        self.rng.shuffle(solutions)
        for solution in solutions:  # one the review history does not protect
            try:
                _admin_delete(Solution, Solution.objects.filter(pk=solution.pk))
            except ProtectedError:
                continue
            return False
        return self.submit()


WRITES = [
    *["submit"] * 6,
    *["skip", "resubmit", "resubmit", "reject", "accept", "adjudicate", "gold"],
    "machine_suggestions",
    "predictions",
    "explorer",
    *["import_labels", "admin_delete_annotation", "admin_delete_solution"],
]


def _admin_delete(model, queryset) -> None:
    request = RequestFactory().post("/admin/")
    admin.site._registry[model].delete_queryset(request, queryset)


@pytest.fixture
def updates(monkeypatch) -> list:
    """What each refresh's metrics_parts_update answered."""
    seen = []
    real = metrics_service.metrics_parts_update

    def spy(**kwargs):
        seen.append(real(**kwargs))
        return seen[-1]

    monkeypatch.setattr(metrics_service, "metrics_parts_update", spy)
    return seen


@pytest.mark.parametrize(
    ("seed", "scale"), [(1, LabelScale.PRM800K), (2, LabelScale.PRM800K), (3, LabelScale.BINARY)]
)
def test_random_writes_refresh_incrementally_to_a_full_computations_numbers(seed, scale, updates):
    rng = random.Random(seed)
    run = Run(rng, scale)
    project = run.project
    metrics_refresh(project=project)
    assert updates[-1].solutions is None  # the first refresh builds the parts
    incremental = 0
    for step in range(30):
        name = rng.choice(WRITES)
        logged = getattr(run, name)()
        snapshot = metrics_refresh(project=project)
        update = updates[-1]
        project.refresh_from_db()
        served = {k: v for k, v in snapshot.data.items() if k != STATS_KEY}
        assert _same(served, _fresh(project)), (step, name)
        assert snapshot.data[STATS_KEY] == project_stats(project=project), (step, name)
        totals = update.totals
        assert totals.confusions().keys() == rater_pair_confusions(project).keys()
        for domain in (None, "math", "code", ""):
            full, parts = step_rating_profiles(project, domain), totals.profiles(domain)
            assert all(a.tolist() == b.tolist() for a, b in zip(full, parts, strict=True))
        if logged:  # its solutions only were recomputed (at most 2, or the number it says)
            most = 2 if logged is True else logged
            assert update.solutions is not None and update.solutions <= most, (step, name)
            incremental += 1
        elif name.startswith("admin"):
            assert update.solutions is None, (step, name)  # a write that says not where
        assert not MetricsChange.objects.filter(project=project).exists()
        stored = MetricsSnapshot.objects.get(project=project)
        assert stored.partials == update.stored and stored.labels_version == update.version
    assert incremental >= 10
    assert MetricsPairPart.objects.filter(project=project).exists()
    assert served["auto_sources"] and MetricsSourcePart.objects.filter(project=project).exists()


def test_a_refresh_with_nothing_changed_runs_no_part_statement(django_assert_num_queries):
    run = Run(random.Random(5), LabelScale.PRM800K)
    metrics_refresh(project=run.project)
    with connection.cursor() as cursor:
        cursor.execute("SELECT COUNT(*) FROM labeling_metricspairpart")
        parts = cursor.fetchone()[0]
    assert parts
    snapshot = metrics_refresh(project=run.project)
    assert snapshot.partials["pairs"]  # kept, not rebuilt to nothing
    with connection.cursor() as cursor:
        cursor.execute("SELECT COUNT(*) FROM labeling_metricspairpart")
        assert cursor.fetchone()[0] == parts


def test_more_changed_solutions_than_the_most_rebuilds(updates, settings):
    settings.METRICS_PARTS_MAX_SOLUTIONS = 1
    run = Run(random.Random(8), LabelScale.PRM800K)
    metrics_refresh(project=run.project)
    run.submit()
    metrics_refresh(project=run.project)
    assert updates[-1].solutions == 1
    run.submit()
    run.submit()
    metrics_refresh(project=run.project)
    assert updates[-1].solutions is None  # two solutions, more than 1: rebuilt
    assert not MetricsChange.objects.filter(project=run.project).exists()


def test_a_bump_that_logs_nothing_rebuilds(updates):
    """A write that bumps the version without saying where (here a bare bump, as an import
    or a step split does) makes the next refresh rebuild every part."""
    from labeling.services.projects.metrics_version import metrics_version_bump

    run = Run(random.Random(6), LabelScale.PRM800K)
    metrics_refresh(project=run.project)
    run.submit()
    metrics_refresh(project=run.project)
    assert updates[-1].solutions == 1
    metrics_version_bump(project_id=run.project.pk)
    run.submit()
    metrics_refresh(project=run.project)
    assert updates[-1].solutions is None


def test_a_snapshot_stored_without_the_parts_rebuilds(updates):
    """Code that keeps no parts (an older worker during a deploy) stores a snapshot at a newer
    version with the totals left as they were: the next refresh must not trust them."""
    from labeling.services.projects.metrics_version import metrics_version_get

    run = Run(random.Random(7), LabelScale.PRM800K)
    metrics_refresh(project=run.project)
    run.submit()
    # An older tree's submit: a bump and no log row; then its refresh stores its snapshot.
    MetricsChange.objects.filter(project=run.project).delete()
    version = metrics_version_get(project_id=run.project.pk)
    MetricsSnapshot.objects.filter(project=run.project).update(labels_version=version)
    snapshot = metrics_refresh(project=run.project)
    assert updates[-1].solutions is None
    served = {k: v for k, v in snapshot.data.items() if k != STATS_KEY}
    assert _same(served, _fresh(run.project))


def test_the_log_of_a_project_past_the_most_is_pruned_and_its_refresh_rebuilds(updates, settings):
    """A project nobody views logs a row per submit; the hourly prune drops the log of a
    project past METRICS_PARTS_MAX_SOLUTIONS bumps, keeps a smaller one's, and the pruned
    project's next refresh rebuilds to the full computation's numbers."""
    from labeling.tasks import metrics_changes_prune_task

    settings.METRICS_PARTS_MAX_SOLUTIONS = 2
    busy, quiet = (
        Run(random.Random(9), LabelScale.PRM800K),
        Run(random.Random(10), LabelScale.PRM800K),
    )
    metrics_refresh(project=busy.project)
    metrics_refresh(project=quiet.project)
    for _ in range(3):
        busy.submit()
    quiet.submit()
    logged = MetricsChange.objects.filter(project=busy.project).count()
    assert logged >= 3
    assert metrics_changes_prune_task() == logged
    assert not MetricsChange.objects.filter(project=busy.project).exists()
    assert MetricsChange.objects.filter(project=quiet.project).count() == 1
    snapshot = metrics_refresh(project=busy.project)
    assert updates[-1].solutions is None  # rebuilt
    busy.project.refresh_from_db()
    served = {k: v for k, v in snapshot.data.items() if k != STATS_KEY}
    assert _same(served, _fresh(busy.project))


def test_a_purged_projects_parts_go_with_it():
    """The parts have no database constraint on their project (a rebuild's COMMIT checked one
    per written row): Django's cascade deletes them with the project, and another project's
    stay."""
    from labeling.models import MetricsAnnotationPart, MetricsProfilePart
    from labeling.services.projects.delete import project_delete, project_purge

    gone = Run(random.Random(11), LabelScale.PRM800K)
    kept = Run(random.Random(12), LabelScale.BINARY)
    gone.machine_suggestions()
    for run in (gone, kept):
        metrics_refresh(project=run.project)
    parts = (MetricsPairPart, MetricsProfilePart, MetricsAnnotationPart, MetricsSourcePart)
    pk = gone.project.pk
    assert all(model.objects.filter(project_id=pk).exists() for model in parts)
    project_delete(project=gone.project)
    project_purge(project_id=pk)
    assert not any(model.objects.filter(project_id=pk).exists() for model in parts)
    assert MetricsAnnotationPart.objects.filter(project=kept.project).exists()


def test_a_bulk_write_past_the_logs_room_bumps_unlogged_and_the_refresh_rebuilds(updates, settings):
    """Batch after batch of a big import: once the project's unrefreshed log would pass
    METRICS_PARTS_MAX_SOLUTIONS, a bulk write logs nothing more (its rows would only be read to
    be thrown away) and the next refresh rebuilds to the full computation's numbers."""
    from labeling.services.projects.metrics_version import metrics_version_bump_of_solutions

    settings.METRICS_PARTS_MAX_SOLUTIONS = 3
    run = Run(random.Random(11), LabelScale.PRM800K)
    metrics_refresh(project=run.project)
    ids = list(run.project.problems.values_list("solutions__id", flat=True)[:4])
    assert len(ids) == 4
    metrics_version_bump_of_solutions(project_id=run.project.pk, solution_ids=ids[:2])
    assert MetricsChange.objects.filter(project=run.project).count() == 2
    metrics_version_bump_of_solutions(project_id=run.project.pk, solution_ids=ids[2:])
    assert MetricsChange.objects.filter(project=run.project).count() == 2  # no room: unlogged
    run.submit()
    snapshot = metrics_refresh(project=run.project)
    assert updates[-1].solutions is None  # rebuilt
    run.project.refresh_from_db()
    served = {k: v for k, v in snapshot.data.items() if k != STATS_KEY}
    assert _same(served, _fresh(run.project))
