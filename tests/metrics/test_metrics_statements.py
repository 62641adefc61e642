"""The dashboard's live metrics read the labels fewer times and give the same numbers.

A small project's metrics are computed on every dashboard load (under
METRICS_LIVE_MAX_ANNOTATIONS), so each statement that reads its labels is paid per load
(bench/scale_bench.py: 2 s at 10k solutions). The rater-pair self-join is read once for pairs
and annotators, throughput's three breakdowns and medians and the label distribution are
one statement, and coverage's three counts one. The answers
are pinned against the statements they replaced (kept here, as they were), on a generated
project with the cases that matter: people and imported raters (one sharing a person's
name), unrated and unsure labels, drafts and skips, bad-problem submissions, gold, machine
suggestions, several days and several domains.
"""

import json
import random
from collections import defaultdict
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, transaction
from django.db.models import Aggregate, Count, F, FloatField, OuterRef, Q, Subquery, Sum
from django.db.models.functions import Coalesce, TruncDate

from labeling.metrics import activity, coverage, domains, queries, selection
from labeling.models import (
    Annotation,
    AnnotationStatus,
    Domain,
    FinishReason,
    GoldLabel,
    Solution,
    StepLabel,
    Suggestion,
)
from labeling.services.projects.metrics_parts import metrics_parts_update
from tests.factories import ProjectFactory, SolutionFactory, UserFactory

pytestmark = pytest.mark.django_db

START = datetime(2026, 3, 2, 9, tzinfo=UTC)


def _generated(domain: str, seed: int = 26):
    rng = random.Random(seed)
    project = ProjectFactory(overlap=3, domain=domain)
    people = [UserFactory(username=f"gen{i}") for i in range(4)]
    imported = ["gen1", "prm800k-a", "prm800k-b"]  # "gen1" is also a person's name
    domains_ = ["algebra", "geometry", ""]
    for n in range(40):
        solution = SolutionFactory(
            problem__project=project,
            problem__domain=domains_[n % 3],
            steps=rng.randint(2, 6),
            is_gold=n % 10 == 0,
        )
        steps = list(solution.steps.order_by("index"))
        if solution.is_gold:
            GoldLabel.objects.bulk_create(
                GoldLabel(step=s, rating=rng.choice([-1, 0, 1, 1])) for s in steps
            )
        for step in steps:
            if rng.random() < 0.5:
                Suggestion.objects.create(
                    step=step,
                    source=rng.choice(["symbolic", "prm"]),
                    agent="gen",
                    value=rng.choice([-1, 0, 1, None]),
                )
        raters = rng.sample(people, rng.randint(0, 3)) + rng.sample(imported, rng.randint(0, 2))
        for rater in raters:
            person = not isinstance(rater, str)
            status = rng.choice([AnnotationStatus.SUBMITTED] * 6 + ["draft", "discarded"])
            annotation = Annotation.objects.create(
                solution=solution,
                annotator=rater if person else None,
                external_annotator="" if person else rater,
                imported=not person,
                status=status,
                finish_reason=FinishReason.BAD_PROBLEM if rng.random() < 0.1 else "",
                time_spent_ms=rng.randint(0, 400) * 1000,
                submitted_at=START + timedelta(hours=rng.randint(0, 60))
                if status == AnnotationStatus.SUBMITTED and rng.random() < 0.95
                else None,
            )
            StepLabel.objects.bulk_create(
                StepLabel(
                    annotation=annotation,
                    step=s,
                    rating=rng.choice([-1, 0, 1, 1, 1, None]),
                    unsure=rng.random() < 0.1,
                )
                for s in steps
            )
    return project


# The statements replaced, as they were (before h26-dashboard).


class _Median(Aggregate):
    function = "PERCENTILE_CONT"
    template = "%(function)s(0.5) WITHIN GROUP (ORDER BY %(expressions)s)"
    output_field = FloatField()


def _orm_pair_confusions(project) -> dict[tuple[str, str], np.ndarray]:
    values = list(project.rating_values)
    other = "step__labels__"
    keys = (
        "annotation__annotator_id",
        "annotation__external_annotator",
        f"{other}annotation__annotator_id",
        f"{other}annotation__external_annotator",
        "rating",
        f"{other}rating",
    )
    rows = list(
        selection.submitted_labels(project)
        .filter(
            **{
                f"{other}annotation__status": AnnotationStatus.SUBMITTED,
                f"{other}rating__isnull": False,
                f"{other}annotation_id__gt": F("annotation_id"),
            }
        )
        .values_list(*keys)
        .annotate(n=Count("id"))
    )
    names = queries._rater_names({r[0] for r in rows if r[0]} | {r[2] for r in rows if r[2]})
    out = defaultdict(lambda: np.zeros((len(values), len(values))))
    for id_a, ext_a, id_b, ext_b, rating_a, rating_b, n in rows:
        a = names[id_a] if id_a else ext_a
        b = names[id_b] if id_b else ext_b
        if a == b:
            continue
        if a > b:
            a, b, rating_a, rating_b = b, a, rating_b, rating_a
        out[(a, b)][values.index(rating_a), values.index(rating_b)] += n
    return dict(out)


def _orm_label_distribution(project) -> list[dict]:
    rows = (
        StepLabel.objects.filter(
            annotation__solution__project=project, annotation__status=AnnotationStatus.SUBMITTED
        )
        .order_by()
        .annotate(rater=selection._rater("annotation__"))
        .values("rater")
        .annotate(
            wrong=Count("id", filter=Q(rating=-1)),
            neutral=Count("id", filter=Q(rating=0)),
            correct=Count("id", filter=Q(rating=1)),
            unrated=Count("id", filter=Q(rating__isnull=True)),
            unsure=Count("id", filter=Q(unsure=True)),
        )
    )
    return sorted(({"annotator": r.pop("rater"), **r} for r in rows), key=lambda r: r["annotator"])


def _orm_activity(project) -> dict:
    return {
        "throughput": _orm_throughput(project),
        "label_distribution": _orm_label_distribution(project),
    }


def _orm_coverage(project) -> dict:
    per_solution = selection.submitted_annotations(project).values("solution_id")
    per_solution = per_solution.annotate(n=Count("id"))
    one = per_solution.filter(n=1).count()
    many = per_solution.filter(n__gte=2).count()
    total = Solution.objects.filter(project=project).count()
    return {"solutions": total, "none": total - one - many, "one": one, "two_plus": many}


def _orm_throughput(project) -> dict:
    base = selection.submitted_annotations(project).filter(submitted_at__isnull=False)
    rated = StepLabel.objects.filter(annotation_id=OuterRef("pk"), rating__isnull=False)
    annotated = base.annotate(
        rater=selection._rater(),
        day=TruncDate("submitted_at"),
        rated_steps=Coalesce(
            Subquery(rated.order_by().values("annotation_id").annotate(c=Count("id")).values("c")),
            0,
        ),
    )
    out = {}
    for name, keys in (
        ("by_annotator", ("rater",)),
        ("by_day", ("day",)),
        ("by_annotator_day", ("rater", "day")),
    ):
        rows = annotated.values(*keys).annotate(
            solutions=Count("id"), steps=Sum("rated_steps"), time_ms=Sum("time_spent_ms")
        )
        if connection.vendor == "postgresql":
            medians = {
                tuple(r[k] for k in keys): r["med"]
                for r in annotated.values(*keys).annotate(med=_Median("time_spent_ms"))
            }
        else:  # as it was: SQLite has no PERCENTILE_CONT
            medians = activity._median_times(annotated, keys)
        out[name] = sorted(
            (
                {
                    **{("annotator" if k == "rater" else k): row[k] for k in keys},
                    **activity._rates(row, medians.get(tuple(row[k] for k in keys))),
                }
                for row in rows
            ),
            key=lambda r: tuple(str(r.get(k, "")) for k in ("annotator", "day")),
        )
    return out


def _same(a, b) -> bool:
    """Equal, and of the same types all the way down (an int stays an int in the JSON)."""
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(map(_same, a, b))
    return type(a) is type(b) and a == b


@pytest.fixture
def generated(db):
    ProjectFactory()  # another project's labels never leak in
    return _generated(Domain.MIXED)


def test_pair_confusions_are_the_self_joins_numbers(generated):
    new, old = queries.rater_pair_confusions(generated), _orm_pair_confusions(generated)
    assert new.keys() == old.keys() and len(new) >= 6
    for pair in old:
        assert np.array_equal(new[pair], old[pair]), pair


def test_throughput_and_distribution_are_the_seven_statements_numbers(
    generated, django_assert_num_queries
):
    if connection.vendor == "postgresql":
        with django_assert_num_queries(1):
            new = activity.activity(generated)
    else:  # SQLite runs them apart, as before
        new = activity.activity(generated)
    assert _same(new, _orm_activity(generated))
    assert len(new["throughput"]["by_annotator"]) == 6 and len(new["throughput"]["by_day"]) >= 3
    assert len(new["label_distribution"]) == 6


def test_the_dashboards_metrics_are_the_same_numbers(generated, monkeypatch):
    new = domains.project_metrics_by_domain(generated)
    monkeypatch.setattr(domains, "rater_pair_confusions", _orm_pair_confusions)
    monkeypatch.setattr(coverage, "rater_pair_confusions", _orm_pair_confusions)
    monkeypatch.setattr(queries, "rater_pair_confusions", _orm_pair_confusions)
    monkeypatch.setattr(queries, "activity", _orm_activity)
    monkeypatch.setattr(domains, "annotation_coverage", _orm_coverage)
    old = domains.project_metrics_by_domain(generated)
    assert _same(new, old)
    assert new["step_ratings"]["alpha_ordinal"] is not None and len(new["domains"]) == 3
    assert new["coverage"]["one"] and new["coverage"]["two_plus"] and new["coverage"]["none"]


def test_live_metrics_read_the_labels_fewer_times(db, django_assert_num_queries):
    """One project (not many-domains): 22 statements before, each pass over the labels paid
    on every dashboard load of a small project."""
    if connection.vendor != "postgresql":
        pytest.skip("one statement where PostgreSQL has GROUPING SETS and PERCENTILE_CONT")
    project = _generated(Domain.MATH, seed=7)
    with django_assert_num_queries(12):
        domains.project_metrics_by_domain(project)


def _json(data: dict) -> dict:
    return json.loads(json.dumps(data, cls=DjangoJSONEncoder))


def test_the_partial_aggregates_give_the_same_numbers(generated):
    """The refresh's partial aggregates (services/projects/metrics_parts.py) built on the
    generated project: the dashboard's answer from them is the full statements', value and
    type, per domain too."""
    if connection.vendor != "postgresql":
        pytest.skip("the partial aggregates are PostgreSQL's")
    with transaction.atomic():
        update = metrics_parts_update(project=generated, snapshot=None)
    parts = domains.project_metrics_by_domain(generated, update.totals)
    assert _same(_json(parts), _json(domains.project_metrics_by_domain(generated)))
    assert len(parts["domains"]) == 3 and parts["pairs"]


def test_metrics_from_the_partial_aggregates_read_the_labels_fewer_times(
    db, django_assert_num_queries
):
    """From the parts: 7 statements where the full computation runs 12, and seven passes
    over the labels fewer: the pair self-join, profiles, activity's join, first errors,
    machine sources and gold accuracy's two are the stored totals, the stored per-annotation
    rows and the raters' names; the coverage is the stored totals too."""
    if connection.vendor != "postgresql":
        pytest.skip("the partial aggregates are PostgreSQL's")
    project = _generated(Domain.MATH, seed=7)
    with transaction.atomic():
        update = metrics_parts_update(project=project, snapshot=None)

    def label_passes(queries) -> int:
        return sum("labeling_steplabel" in q["sql"] for q in queries.captured_queries)

    with django_assert_num_queries(12) as full:
        domains.project_metrics_by_domain(project)
    with django_assert_num_queries(7) as parts:
        domains.project_metrics_by_domain(project, update.totals)
    assert label_passes(parts) == label_passes(full) - 7
