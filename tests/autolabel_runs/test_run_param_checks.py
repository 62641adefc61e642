"""Every parameter of every engine and run is checked when the run is created: a 400 naming
`params.<source>.<key>` (or `filter.<key>`) and nothing stored (issue 24: chunk_size 0 left a run
"running" forever; 2^63 was accepted)."""

import pytest
from rest_framework.test import APIClient

from autolabel.engines.checks import CHECKS, chunk_size_of
from autolabel.models import AutolabelRun
from autolabel.registry import BUILTIN_ENGINES

pytestmark = pytest.mark.django_db

BACKEND = {"kind": "scripted", "responses": ["The answer is 1."]}


def _post(project, body):
    client = APIClient()
    client.force_authenticate(project.admin)
    return client.post(f"/api/projects/{project.pk}/autolabel-runs/", body, format="json")


def _refused(project, body, field: str):
    response = _post(project, body)
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["message"].startswith(field), error
    assert AutolabelRun.objects.count() == 0


def test_every_engine_has_a_creation_check():
    assert set(CHECKS) == set(BUILTIN_ENGINES)


@pytest.mark.parametrize("size", [0, -1, 2**63, 10**30, 501, "5", True, 2.5])
def test_chunk_size_is_bounded(pb_project, size):
    _refused(
        pb_project, {"sources": ["symbolic"], "params": {"chunk_size": size}}, "params.chunk_size"
    )


def test_a_good_chunk_size_is_taken(pb_project):
    response = _post(pb_project, {"sources": ["symbolic"], "params": {"chunk_size": 500}})
    assert response.status_code == 202, response.content


@pytest.mark.parametrize(
    ("source", "params", "field"),
    [
        ("symbolic", {"timeout_s": 0}, "params.symbolic"),
        ("symbolic", {"timeout_s": 1e300}, "params.symbolic"),
        ("symbolic", {"timeouts": 1}, "params.symbolic"),
        ("answer", {"timeout_s": "3"}, "params.answer"),
        ("rollout", {"backend": BACKEND, "n": 2**63}, "params.rollout"),
        ("rollout", {"backend": BACKEND, "n": 0}, "params.rollout"),
        ("rollout", {"backend": BACKEND, "temperature": -1}, "params.rollout"),
        ("rollout", {"backend": BACKEND, "max_tokens": 10**30}, "params.rollout"),
        ("rollout", {"backend": BACKEND, "method": "guess"}, "params.rollout"),
        ("rollout", {"backend": BACKEND, "seed": 2**64}, "params.rollout"),
        ("rollout", {"backend": BACKEND, "cache": "yes"}, "params.rollout"),
        ("code", {"memory_mb": 2**63}, "params.code"),
        ("code", {"timeout_s": 10**9}, "params.code"),
        ("code", {"compare": "fuzzy"}, "params.code"),
        ("consensus", {"required": []}, "params.consensus"),
        ("graph", {"depth": 3}, "params.graph"),
    ],
)
def test_engine_params_are_checked_at_creation(pb_project, source, params, field):
    pb_project.domain = "mixed"
    pb_project.save(update_fields=["domain"])
    _refused(pb_project, {"sources": [source], "params": {source: params}}, field)


def test_an_unknown_run_key_is_refused(pb_project):
    _refused(pb_project, {"sources": ["symbolic"], "params": {"chunksize": 5}}, "params")


@pytest.mark.parametrize(
    ("filter_", "field"),
    [
        ({"solution_ids": [2**63]}, "filter.solution_ids"),
        ({"solution_ids": ["1"]}, "filter.solution_ids"),
        ({"solution_ids": 5}, "filter.solution_ids"),
        ({"only_unlabeled": "no"}, "filter.only_unlabeled"),
        ({"source": ["a"]}, "filter.source"),
        ({"where": "1=1"}, "filter.where"),
    ],
)
def test_the_run_filter_is_checked(pb_project, filter_, field):
    _refused(pb_project, {"sources": ["symbolic"], "filter": filter_}, field)


def test_a_stored_run_with_a_bad_chunk_size_still_finishes():
    assert chunk_size_of({"chunk_size": 0}) == 1
    assert chunk_size_of({"chunk_size": 2**63}) == 500
    assert chunk_size_of({"chunk_size": "7"}) == 20
    assert chunk_size_of({}) == 20
