"""Project metrics from the database on a small fixture whose values were worked by hand
(the arithmetic is spelled out in tests/metrics/test_agreement_math.py)."""

from datetime import UTC, datetime

import pytest

from labeling.metrics.activity import label_distribution, throughput
from labeling.metrics.queries import (
    auto_source_agreement,
    first_error_agreement,
    gold_accuracy,
    project_metrics,
    rater_pairs,
    step_rating_agreement,
    step_rating_profiles,
)
from labeling.models import GoldLabel
from tests.factories import ProjectFactory, SolutionFactory, SuggestionFactory, UserFactory
from tests.review.test_review_queue import submitted

pytestmark = pytest.mark.django_db

DAY1 = datetime(2026, 1, 5, 12, tzinfo=UTC)
DAY2 = datetime(2026, 1, 6, 12, tzinfo=UTC)


def _timed(solution, user, ratings, seconds, at):
    ann = submitted(solution, user, ratings, at=at)
    ann.time_spent_ms = seconds * 1000
    ann.save(update_fields=["time_spent_ms"])
    return ann


@pytest.fixture
def mw(db):
    project = ProjectFactory(overlap=3)
    a, b, c = (UserFactory(username=n) for n in ("ma", "mb", "mc"))
    s1 = SolutionFactory(problem__project=project, steps=3)
    s2 = SolutionFactory(problem__project=project, steps=2)
    s3 = SolutionFactory(problem__project=project, steps=2)
    _timed(s1, a, [1, 1, -1], 60, DAY1)
    _timed(s1, b, [1, 1, -1], 100, DAY1)
    _timed(s1, c, [1, 0, -1], 40, DAY1)
    _timed(s2, a, [1, 1], 120, DAY1)
    _timed(s2, b, [1, -1], 20, DAY1)
    _timed(s3, a, [1, -1], 30, DAY2)
    _timed(s3, b, [1, -1], 50, DAY2)
    _timed(s3, c, [1, -1], 90, DAY2)
    other = ProjectFactory()  # labels elsewhere never leak in
    _timed(SolutionFactory(problem__project=other, steps=3), a, [-1, -1, 0], 5, DAY1)
    return {"project": project, "s1": s1, "s2": s2, "s3": s3}


def test_profiles_are_grouped_in_sql(mw, django_assert_num_queries):
    with django_assert_num_queries(1):
        profiles, weights = step_rating_profiles(mw["project"])
    got = sorted(
        zip(map(tuple, profiles.astype(int).tolist()), weights.astype(int).tolist(), strict=True)
    )
    assert got == [
        ((0, 0, 2), 1),
        ((0, 0, 3), 2),
        ((0, 1, 2), 1),
        ((1, 0, 1), 1),
        ((3, 0, 0), 2),
    ]


def test_step_rating_agreement(mw):
    result = step_rating_agreement(mw["project"])
    assert result["steps"] == 7
    assert result["alpha_ordinal"] == pytest.approx(40 / 57)
    assert result["fleiss_kappa"] == pytest.approx(47 / 62)
    assert (result["fleiss_raters"], result["fleiss_steps"]) == (3, 5)
    assert result["pairwise_agreement"] == pytest.approx(28 / 34)


def test_rater_pairs_cohen(mw):
    pairs = {(p["a"], p["b"]): p for p in rater_pairs(mw["project"])}
    assert set(pairs) == {("ma", "mb"), ("ma", "mc"), ("mb", "mc")}
    assert pairs[("ma", "mb")]["steps"] == 7
    assert pairs[("ma", "mb")]["agreement"] == pytest.approx(6 / 7)
    assert pairs[("ma", "mb")]["cohen_kappa"] == pytest.approx(16 / 23)
    assert pairs[("ma", "mc")]["steps"] == 5
    assert pairs[("ma", "mc")]["cohen_kappa"] == pytest.approx(2 / 3)
    assert pairs[("mb", "mc")]["agreement"] == pytest.approx(0.8)


def test_first_error_agreement(mw):
    # s1: all at step 2; s2: none vs 1; s3: all at 1 -> pairs 12/14, nominal alpha 12/19.
    result = first_error_agreement(mw["project"])
    assert result["solutions"] == 3
    assert result["pairwise_agreement"] == pytest.approx(6 / 7)
    assert result["alpha_nominal"] == pytest.approx(12 / 19)


def test_gold_accuracy(mw):
    s1 = mw["s1"]
    s1.is_gold = True
    s1.save()
    for step, rating in zip(s1.steps.order_by("index"), [1, 1, -1], strict=True):
        GoldLabel.objects.create(step=step, rating=rating)
    rows = {r["annotator"]: r for r in gold_accuracy(mw["project"])}
    assert rows["ma"] == {
        "annotator": "ma",
        "steps": 3,
        "step_accuracy": 1.0,
        "solutions": 1,
        "first_error_accuracy": 1.0,
    }
    assert rows["mc"]["step_accuracy"] == pytest.approx(2 / 3)
    assert rows["mc"]["first_error_accuracy"] == 1.0
    GoldLabel.objects.filter(step__solution=s1, step__index=2).update(rating=1)
    rows = {r["annotator"]: r for r in gold_accuracy(mw["project"])}
    assert rows["mb"]["first_error_accuracy"] == 0.0  # gold now has no error


def test_auto_source_agreement(mw):
    SuggestionFactory(step=mw["s2"].steps.get(index=1), source="symbolic", value=-1)
    SuggestionFactory(step=mw["s1"].steps.get(index=1), source="rollout", agent="r", value=1)
    SuggestionFactory(step=mw["s1"].steps.get(index=2), source="rollout", agent="r", value=1)
    SuggestionFactory(step=mw["s1"].steps.get(index=0), source="judge", value=None)  # abstains
    # A symbolic "checks out" is evidence, not a rating: no rater is compared with it.
    SuggestionFactory(
        step=mw["s1"].steps.get(index=0),
        source="symbolic",
        agent="sympy/symbolic-1.0",
        value=None,
        score=None,
        evidence={"kind": "checks out"},
    )
    rows = {(r["annotator"], r["source"]): r for r in auto_source_agreement(mw["project"])}
    assert set(rows) == {
        ("ma", "symbolic"),
        ("mb", "symbolic"),
        ("ma", "rollout"),
        ("mb", "rollout"),
        ("mc", "rollout"),
    }
    assert rows[("ma", "symbolic")]["agreement"] == 0.0
    assert rows[("mb", "symbolic")]["agreement"] == 1.0
    assert rows[("mb", "symbolic")]["cohen_kappa"] is None
    assert rows[("ma", "rollout")]["steps"] == 2
    assert rows[("ma", "rollout")]["agreement"] == 0.5
    assert rows[("ma", "rollout")]["cohen_kappa"] == pytest.approx(0.0)
    assert rows[("mc", "rollout")]["agreement"] == 0.0


def test_throughput(mw):
    result = throughput(mw["project"])
    a = next(r for r in result["by_annotator"] if r["annotator"] == "ma")
    assert (a["solutions"], a["steps"]) == (3, 7)
    assert a["hours"] == pytest.approx(210 / 3600, abs=1e-4)
    assert a["solutions_per_hour"] == pytest.approx(3 * 3600 / 210)
    assert a["steps_per_hour"] == pytest.approx(7 * 3600 / 210)
    assert a["median_seconds_per_solution"] == 60
    days = {str(r["day"]): r for r in result["by_day"]}
    assert days["2026-01-05"]["solutions"] == 5 and days["2026-01-05"]["steps"] == 13
    assert days["2026-01-05"]["median_seconds_per_solution"] == 60
    assert days["2026-01-06"]["steps_per_hour"] == pytest.approx(6 * 3600 / 170)
    assert days["2026-01-06"]["median_seconds_per_solution"] == 50
    ma_day1 = next(
        r
        for r in result["by_annotator_day"]
        if r["annotator"] == "ma" and str(r["day"]) == "2026-01-05"
    )
    assert ma_day1["solutions"] == 2 and ma_day1["median_seconds_per_solution"] == 90


def test_label_distribution_and_everything(mw):
    dist = {r["annotator"]: r for r in label_distribution(mw["project"])}
    assert dist["mc"] == {
        "annotator": "mc",
        "wrong": 2,
        "neutral": 1,
        "correct": 2,
        "unrated": 0,
        "unsure": 0,
    }
    everything = project_metrics(mw["project"])
    assert set(everything) == {
        "step_ratings",
        "pairs",
        "first_error",
        "gold",
        "auto_sources",
        "throughput",
        "label_distribution",
    }


def test_empty_project_has_no_numbers(db):
    result = project_metrics(ProjectFactory())
    assert result["step_ratings"]["alpha_ordinal"] is None
    assert result["step_ratings"]["fleiss_kappa"] is None
    assert result["pairs"] == [] and result["first_error"]["solutions"] == 0
