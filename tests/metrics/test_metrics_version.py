"""The metrics version: every service write the metrics read moves it, so a snapshot at the
current version is exact and served as it is (one statement), and after a write the answer is
computed again and equals a fresh computation.

Each path's test reads the metrics twice first (computed, then served from the snapshot), runs
the write alone, and reads again: the answer must be computed now (the version moved) and equal
`project_metrics_by_domain` run at that moment. A path that forgot the bump serves the snapshot
from before it and fails.
"""

import io
import json

import pytest
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, transaction
from django.utils import timezone

from autolabel.engines.base import EngineResult, StepSuggestion
from autolabel.generation import GeneratedSolution
from autolabel.generation_service import _write as generated_write
from autolabel.services import suggestions_upsert
from labeling.metrics.domains import project_metrics_by_domain
from labeling.models import (
    Annotation,
    AnnotationStatus,
    MetricsChange,
    MetricsSnapshot,
    Project,
    Solution,
    Suggestion,
)
from labeling.selectors.labeling_page import project_stats
from labeling.services.gold.questions import gold_set, gold_unset
from labeling.services.imports import import_file
from labeling.services.imports.predictions import predictions_upload
from labeling.services.labeling.annotations import annotation_skip, annotation_submit
from labeling.services.labeling.my_work import annotation_resubmit
from labeling.services.labeling.resegment import step_merge, step_split
from labeling.services.projects.edit import project_update
from labeling.services.projects.explorer import explorer_bulk
from labeling.services.projects.metrics import metrics_get, project_stats_get
from labeling.services.projects.metrics_version import metrics_version_get
from labeling.services.queue.claim import task_claim_next
from labeling.services.queue.take import annotation_new, lock_take
from labeling.services.review.actions import review_accept, review_adjudicate, review_reject
from labeling.services.review.reasons import review_reasons_fill
from labeling.services.review.resolutions import resolution_from_suggestions, resolution_withdraw
from tests.factories import MembershipFactory, ProjectFactory, SolutionFactory, UserFactory
from tests.importers.conftest import DATA
from tests.review.test_review_queue import submitted

pytestmark = pytest.mark.django_db


class World:
    def __init__(self) -> None:
        self.project = ProjectFactory(overlap=3, auto_resolve=False, review_reasons_stored=True)
        # Three annotators' labels on `pair`; `open_one` has none, `spare` one annotator's.
        self.pair = SolutionFactory(problem__project=self.project, steps=3, external_id="pair")
        self.open_one = SolutionFactory(problem__project=self.project, steps=3, external_id="o")
        self.a, self.b, self.c = (UserFactory(username=n) for n in ("mv-a", "mv-b", "mv-c"))
        self.reviewer = UserFactory(username="mv-r")
        for user in (self.a, self.b, self.c):
            MembershipFactory(project=self.project, user=user)
        self.first = submitted(self.pair, self.a, [1, 1, -1])
        self.second = submitted(self.pair, self.b, [1, -1, -1])
        Solution.objects.filter(pk=self.pair.pk).update(submitted_count=2)  # as a submit counts
        review_reasons_fill(project=self.project)

    def labels(self, annotation: Annotation, ratings: list[int]) -> list[dict]:
        steps = annotation.solution.steps.order_by("index")
        return [{"step_id": s.pk, "rating": r} for s, r in zip(steps, ratings, strict=True)]


@pytest.fixture
def world(settings) -> World:
    settings.METRICS_LIVE_MAX_ANNOTATIONS = 1_000
    return World()


def _fresh(project) -> dict:
    return json.loads(json.dumps(project_metrics_by_domain(project), cls=DjangoJSONEncoder))


def _across(world: World, write, *, logged: bool = False) -> tuple[dict, dict]:
    """(the metrics before, after) `write()`, checking that the read before was served from
    the snapshot and the read after was computed again, equal to a fresh computation.
    `logged`: the write logs every bump with its solutions (MetricsChange: the refresh after
    it recomputes their partial aggregates only, on PostgreSQL), checked."""
    project = world.project
    before = metrics_get(project=project)
    assert not before.cached  # computed and stored
    served = metrics_get(project=project)
    assert served.cached and served.data == before.data
    version = metrics_version_get(project_id=project.pk)
    write()
    moved = metrics_version_get(project_id=project.pk) - version
    assert moved > 0
    if logged and connection.vendor == "postgresql":
        log = MetricsChange.objects.filter(project=project)
        assert log.count() == moved and not log.filter(solution_id__isnull=True).exists()
    # The project's stats, read at the version beside the metrics, are counted again too.
    assert project_stats_get(project=project).stats == project_stats(project=project)
    after = metrics_get(project=project)
    assert not after.cached, "the write moved no version: the stale snapshot was served"
    assert after.data == _fresh(project)
    return before.data, after.data


def test_a_cached_read_is_one_statement(world, django_assert_num_queries):
    metrics_get(project=world.project)
    with django_assert_num_queries(1):
        answer = metrics_get(project=world.project)
    assert answer.cached and answer.data == _fresh(world.project)
    with django_assert_num_queries(1):  # the project's stats: the same snapshot
        stats = project_stats_get(project=world.project)
    assert stats.stats == project_stats(project=world.project) and stats.computed_at is None


@pytest.mark.parametrize("way", ["split", "merge"])
def test_resegmenting(world, way):
    Project.objects.filter(pk=world.project.pk).update(allow_resegment=True)
    now = timezone.now()
    lock_take(solution_id=world.open_one.pk, user=world.c, ttl=600, now=now)
    draft = annotation_new(solution_id=world.open_one.pk, user=world.c, now=now)
    step = world.open_one.steps.get(index=0)
    if way == "split":
        step.text = "one two"
        step.save(update_fields=["text"])

    def write() -> None:
        if way == "split":
            step_split(annotation=draft, user=world.c, version=1, step_id=step.pk, offset=4)
        else:
            step_merge(annotation=draft, user=world.c, version=1, step_id=step.pk)

    before = project_stats(project=world.project)["steps"]
    _across(world, write, logged=True)
    assert project_stats(project=world.project)["steps"] == before + (1 if way == "split" else -1)


def test_a_submit_between_two_reads_changes_the_numbers(world):
    claim = task_claim_next(project=world.project, user=world.c)
    assert claim.annotation.solution_id == world.pair.pk  # the open pool: most labeled first

    def write() -> None:
        annotation_submit(
            annotation=claim.annotation,
            user=world.c,
            version=claim.annotation.version,
            labels=world.labels(claim.annotation, [1, 1, 1]),
        )

    before, after = _across(world, write)
    assert before["step_ratings"]["steps"] == 3 and before["coverage"]["two_plus"] == 1
    assert after["step_ratings"] != before["step_ratings"]
    assert [p["b"] for p in after["pairs"]] == ["mv-b", "mv-c", "mv-c"]


def test_skip(world):
    claim = task_claim_next(project=world.project, user=world.c)
    before, after = _across(
        world, lambda: annotation_skip(annotation=claim.annotation, user=world.c)
    )
    skipped = {row["annotator"]: row["skipped"] for row in after["annotators"]}
    assert skipped["mv-c"] == 1 and "mv-c" not in {r["annotator"] for r in before["annotators"]}


def test_resubmit(world):
    claim = task_claim_next(project=world.project, user=world.c)
    mine = annotation_submit(
        annotation=claim.annotation,
        user=world.c,
        version=claim.annotation.version,
        labels=world.labels(claim.annotation, [1, 1, 1]),
    )
    before, after = _across(
        world,
        lambda: annotation_resubmit(
            annotation=mine,
            user=world.c,
            version=mine.version,
            labels=world.labels(mine, [1, 1, -1]),
        ),
    )
    assert after["step_ratings"] != before["step_ratings"]


def test_reject(world):
    before, after = _across(
        world,
        lambda: review_reject(annotation=world.second, reviewer=world.reviewer, comment="no"),
    )
    assert before["coverage"]["two_plus"] == 1 and after["coverage"]["one"] == 1


def test_accept(world):
    before, after = _across(
        world, lambda: review_accept(annotation=world.first, reviewer=world.reviewer)
    )
    assert (before["review"]["resolved"], after["review"]["resolved"]) == (0, 1)


def test_adjudicate(world):
    labels = world.labels(world.first, [1, 1, 1])
    before, after = _across(
        world,
        lambda: review_adjudicate(solution=world.pair, reviewer=world.reviewer, labels=labels),
    )
    assert after["review"]["resolved"] == 1


def test_a_resolution_withdrawn(world):
    resolution = review_accept(annotation=world.first, reviewer=world.reviewer)

    def write() -> None:
        with transaction.atomic():
            resolution_withdraw(resolution=resolution, user=world.reviewer)

    before, after = _across(world, write)
    assert (before["review"]["resolved"], after["review"]["resolved"]) == (1, 0)


def test_a_resolution_from_machine_consensus(world):
    for step in world.pair.steps.all():
        Suggestion.objects.create(step=step, source="consensus", agent="c", value=1)
    before, after = _across(world, lambda: resolution_from_suggestions(solution=world.pair))
    assert after["review"]["resolved"] == 1


@pytest.mark.parametrize("way", ["set", "unset"])
def test_gold(world, way):
    steps = world.pair.steps.order_by("index")
    gold = [{"step_id": s.pk, "rating": 1} for s in steps]
    if way == "set":
        before, after = _across(
            world, lambda: gold_set(solution=world.pair, labels=gold), logged=True
        )
        assert before["gold"] == [] and after["gold"]
    else:
        gold_set(solution=world.pair, labels=gold)
        before, after = _across(world, lambda: gold_unset(solution=world.pair), logged=True)
        assert before["gold"] and after["gold"] == []


@pytest.mark.parametrize("action", ["requeue", "send_to_review"])
def test_the_explorers_bulk_actions(world, action):
    if action == "send_to_review":
        review_accept(annotation=world.first, reviewer=world.reviewer)
    else:  # complete at an overlap of 2: a requeue raises its extra overlap
        Project.objects.filter(pk=world.project.pk).update(overlap=2)
        world.project.refresh_from_db()
    changed = []
    _across(
        world,
        lambda: changed.append(
            explorer_bulk(
                project=world.project, action=action, user=world.reviewer, ids=[world.pair.pk]
            )["changed"]
        ),
        logged=True,
    )
    assert changed == [1]


def test_an_import_with_labels(world):
    before, after = _across(
        world,
        lambda: import_file(
            project=world.project,
            path=DATA / "prm800k_sample.jsonl",
            labels_as="annotations",
        ),
        logged=True,
    )
    assert after["coverage"]["solutions"] > before["coverage"]["solutions"]


def test_uploaded_predictions(world):
    body = b'{"id": "pair", "name": "my-prm", "version": "1", "labels": [1, 1, -1]}\n'
    before, after = _across(
        world,
        lambda: predictions_upload(
            project=world.project, source=io.BytesIO(body), filename="p.jsonl"
        ),
        logged=True,
    )
    assert before["auto_sources"] == [] and after["auto_sources"]


def test_machine_suggestions(world):
    result = EngineResult(
        source="symbolic", agent="v1", suggestions=[StepSuggestion(step_index=1, value=-1)]
    )

    def write() -> None:
        with transaction.atomic():
            suggestions_upsert(solution=world.pair, result=result)

    before, after = _across(world, write, logged=True)
    assert before["auto_sources"] == [] and after["auto_sources"]


def test_generated_solutions(world):
    problem = world.pair.problem
    made = [GeneratedSolution(text="1\n2", steps=("1", "2"), final_answer="2")]
    before, after = _across(
        world,
        lambda: generated_write(world.project, problem, made, "gen", {"n": 1}),
        logged=True,
    )
    assert after["coverage"]["solutions"] == before["coverage"]["solutions"] + 1


def test_project_settings(world):
    _, after = _across(world, lambda: project_update(project=world.project, overlap=2))
    assert after == _fresh(world.project)


def test_the_stored_reasons_filled(world):
    # A project from before the stored reasons: masks all 0 until the fill.
    Project.objects.filter(pk=world.project.pk).update(review_reasons_stored=False)
    Solution.objects.filter(pk=world.pair.pk).update(review_reasons=0)
    _across(world, lambda: review_reasons_fill(project=world.project))


def test_a_snapshot_outlives_no_write_while_writes_are_computed_in(world):
    """A write committed after the version was read but during the computation leaves the
    snapshot at the older version: the next read computes again."""
    metrics_get(project=world.project)
    claim = task_claim_next(project=world.project, user=world.c)
    annotation_submit(
        annotation=claim.annotation,
        user=world.c,
        version=claim.annotation.version,
        labels=world.labels(claim.annotation, [1, 1, 1]),
    )
    stale = metrics_version_get(project_id=world.project.pk) - 1
    MetricsSnapshot.objects.filter(project=world.project).update(labels_version=stale)
    answer = metrics_get(project=world.project)
    assert not answer.cached and answer.data == _fresh(world.project)
    assert Annotation.objects.filter(status=AnnotationStatus.SUBMITTED).count() == 3
