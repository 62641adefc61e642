"""Metrics on the real PRM800K rows in shared/data (nine rows from six labelers, 2022).

No solution in the sample was labeled by two PRM800K labelers (each row is a different
problem), so the per-labeler numbers are what these rows can check: throughput per labeler
and per day against `label.total_time` and `timestamp` read straight from the file, and the
label distribution of the phase-2 rows against their pre-generated steps' ratings.
"""

import json
from collections import defaultdict
from datetime import datetime
from statistics import median

import pytest

from labeling.metrics.activity import label_distribution, throughput
from labeling.metrics.queries import first_error_agreement
from labeling.services.imports import import_file
from tests.conftest import SHARED_DATA
from tests.factories import ProjectFactory

pytestmark = pytest.mark.django_db

PRM800K = SHARED_DATA / "prm800k_sample.jsonl"


@pytest.fixture
def real():
    rows = [json.loads(line) for line in PRM800K.read_text().splitlines()]
    project = ProjectFactory(name="PRM800K sample")
    import_file(project=project, path=PRM800K, fmt="prm800k", labels_as="annotations")
    return project, rows


def test_throughput_per_labeler_matches_the_file(real):
    project, rows = real
    times: dict[str, list[int]] = defaultdict(list)
    for row in rows:
        times[row["labeler"]].append(row["label"]["total_time"])
    got = {r["annotator"]: r for r in throughput(project)["by_annotator"]}
    assert set(got) == set(times)  # six labelers
    for labeler, ms in times.items():
        assert got[labeler]["solutions"] == len(ms)
        assert got[labeler]["hours"] == pytest.approx(sum(ms) / 3_600_000, abs=1e-4)
        assert got[labeler]["median_seconds_per_solution"] == pytest.approx(median(ms) / 1000)
        assert got[labeler]["solutions_per_hour"] == pytest.approx(len(ms) * 3_600_000 / sum(ms))
    # e90a38f3 labeled three rows (lines 1, 3, 6): 293.25 s, 707.383 s, 92.405 s.
    e90 = got["e90a38f3-3135-4465-87af-3e6322e3d772"]
    assert e90["median_seconds_per_solution"] == pytest.approx(293.25)


def test_throughput_per_day_matches_the_file(real):
    project, rows = real
    per_day: dict[str, int] = defaultdict(int)
    for row in rows:
        per_day[datetime.fromisoformat(row["timestamp"]).date().isoformat()] += 1
    got = {str(r["day"]): r["solutions"] for r in throughput(project)["by_day"]}
    assert got == per_day
    assert got["2022-07-28"] == 2  # debabc6d's two rows, three minutes apart


def test_phase2_label_distribution_matches_pre_generated_ratings(real):
    project, rows = real
    dist = {r["annotator"]: r for r in label_distribution(project)}
    for row in rows[6:8]:  # lines 7 and 8: phase-2 found_error rows
        steps = row["label"]["steps"]
        # The rating of the pre-generated step is that of its completion with the same text.
        pre = row["question"]["pre_generated_steps"]
        ratings = [
            next(c["rating"] for c in step["completions"] if c["text"] == pre[i])
            for i, step in enumerate(steps)
        ]
        got = dist[row["labeler"]]
        assert (got["wrong"], got["neutral"], got["correct"]) == (
            ratings.count(-1),
            ratings.count(0),
            ratings.count(1),
        )
        assert ratings[-1] == -1  # found_error: the last labeled step is the first error


def test_single_labeled_solutions_give_no_first_error_agreement(real):
    project, _ = real
    assert first_error_agreement(project) == {
        "solutions": 0,
        "alpha_nominal": None,
        "pairwise_agreement": None,
    }
