"""POST/GET /api/projects/<id>/predictions/: permissions, JSON errors, streaming."""

import gzip
import json

import pytest
from rest_framework.test import APIClient

from labeling.models import Problem, Solution, Step, Suggestion
from tests.factories import MembershipFactory, UserFactory
from tests.predictions.conftest import jsonl

NDJSON = "application/x-ndjson"
LINE = {"id": "s0", "name": "my-prm", "version": "v3", "labels": [1, -1], "scores": [0.9, 0.2]}


@pytest.fixture
def clients(solutions):
    project = solutions["project"]
    made = {}
    for role in ("admin", "reviewer", "annotator"):
        user = UserFactory(username=f"p-{role}")
        MembershipFactory(project=project, user=user, role=role)
        made[role] = APIClient()
        made[role].force_authenticate(user)
    made["outsider"] = APIClient()
    made["outsider"].force_authenticate(UserFactory(username="p-outsider"))
    made["anonymous"] = APIClient()
    return made


def _post(client, project_id, body: bytes, content_type=NDJSON, query=""):
    return client.generic(
        "POST", f"/api/projects/{project_id}/predictions/{query}", body, content_type=content_type
    )


def _error(response, status: int) -> dict:
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/json")
    return response.json()["error"]


def test_admin_uploads_and_lists_sources(solutions, clients):
    project = solutions["project"]
    response = _post(clients["admin"], project.pk, jsonl([LINE, {**LINE, "id": "s1"}]))
    assert response.status_code == 200, response.content
    assert response.json() == {
        "solutions": 2,
        "steps_written": 4,
        "steps_created": 4,
        "steps_updated": 0,
        "steps_removed": 0,
        "sources": ["my-prm@v3"],
    }
    again = _post(clients["admin"], project.pk, jsonl([LINE]))
    assert again.json()["steps_updated"] == 2
    body = b'[{"id": "s2", "labels": [0]}]'
    as_json = _post(
        clients["admin"], project.pk, body, "application/json", "?name=other&version=1.0"
    )
    assert as_json.status_code == 200, as_json.content
    listed = clients["admin"].get(f"/api/projects/{project.pk}/predictions/").json()
    assert listed["count"] == 2
    first, second = listed["results"]
    assert (first["name"], first["version"], first["steps"], first["solutions"]) == (
        "my-prm",
        "v3",
        4,
        2,
    )
    assert (second["agent"], second["steps"]) == ("other@1.0", 1)
    assert first["last_upload"]


@pytest.mark.parametrize(
    ("role", "status"),
    [("reviewer", 403), ("annotator", 403), ("outsider", 404), ("anonymous", 403)],
)
def test_only_project_admins(solutions, clients, role, status):
    project = solutions["project"]
    _error(_post(clients[role], project.pk, jsonl([LINE])), status)
    assert clients[role].get(f"/api/projects/{project.pk}/predictions/").status_code == status
    assert not Suggestion.objects.exists()


def test_another_projects_id_is_404(solutions, clients):
    other = solutions["other"].project
    _error(_post(clients["admin"], other.pk, jsonl([LINE])), 404)
    _error(_post(clients["admin"], 999_999, jsonl([LINE])), 404)


@pytest.mark.parametrize(
    ("body", "content_type", "status", "field"),
    [
        (jsonl([LINE, {**LINE, "id": "missing"}]), NDJSON, 400, "id"),
        (jsonl([{**LINE, "labels": "yes"}]), NDJSON, 400, "labels"),
        (jsonl([{**LINE, "scores": [0.1, "high"]}]), NDJSON, 400, "scores[1]"),
        (jsonl([["not", "an", "object"]]), NDJSON, 400, None),
        (b"\xff\xfe\x00garbage\n", NDJSON, 400, None),
        (b'{"id": "s0"', "application/json", 400, None),
        (
            b'[{"id": "s0", "name": "x", "version": "1", "labels": [1]}, 3]',
            "application/json",
            400,
            "[1]",
        ),
        (b"", NDJSON, 400, "body"),
        (b"id,labels\n", "text/csv", 415, None),
    ],
)
def test_bad_bodies_are_4xx_json_and_write_nothing(
    solutions, clients, body, content_type, status, field
):
    error = _error(_post(clients["admin"], solutions["project"].pk, body, content_type), status)
    assert error["message"]
    if field is not None:
        assert error["details"]["field"] == field, error
    assert not Suggestion.objects.exists()


def test_a_bad_line_is_named(solutions, clients):
    error = _error(
        _post(
            clients["admin"],
            solutions["project"].pk,
            jsonl([LINE, {**LINE, "id": "s1", "labels": [1, 5]}]),
        ),
        400,
    )
    assert error["details"] == {"file": "upload", "line": 2, "field": "labels[1]"}
    assert "expected -1, 0 or 1" in error["message"]


def test_huge_bodies_are_refused(solutions, clients, settings):
    settings.PREDICTIONS_MAX_BYTES = 2000
    project = solutions["project"]
    error = _error(_post(clients["admin"], project.pk, jsonl([LINE] * 100)), 413)
    assert error["code"] == "too_large"
    # A gzip that is small on the wire but expands past the bound.
    bomb = gzip.compress(jsonl([LINE]) + b" " * 100_000 + b"\n")
    assert len(bomb) < 2000
    assert _error(_post(clients["admin"], project.pk, bomb), 400)["message"]
    assert not Suggestion.objects.exists()


def test_query_bounds(solutions, clients):
    project = solutions["project"]
    error = _error(
        _post(clients["admin"], project.pk, jsonl([LINE]), query=f"?name={'x' * 65}"), 400
    )
    assert "name" in error["message"]


def test_throttled_like_other_writes(solutions, clients, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "predictions": "2/min",
        },
    }
    from django.core.cache import cache

    cache.clear()
    project = solutions["project"]
    for _ in range(2):
        assert _post(clients["admin"], project.pk, jsonl([LINE])).status_code == 200
    assert _error(_post(clients["admin"], project.pk, jsonl([LINE])), 429)


def test_a_big_jsonl_streams(db, clients, solutions):
    """5,000 solutions of 6 steps in one upload: all written, in a few queries per batch."""
    project = solutions["project"]
    problem = Problem.objects.create(project=project, text="Big", external_id="big")
    made = Solution.objects.bulk_create(
        Solution(project=project, problem=problem, external_id=f"b{i}") for i in range(5000)
    )
    Step.objects.bulk_create(
        Step(solution=s, index=j, text=f"step {j}") for s in made for j in range(6)
    )
    rows = [
        {
            "id": f"b{i}",
            "labels": [1, 1, 1, 1, -1 if i % 2 else 1, None],
            "scores": [0.9, 0.9, 0.8, 0.7, 0.3, 0.5],
        }
        for i in range(5000)
    ]
    body = jsonl(rows)
    response = _post(clients["admin"], project.pk, body, query="?name=big-prm&version=2026.12")
    assert response.status_code == 200, response.content[:500]
    assert response.json()["steps_written"] == 30_000
    assert Suggestion.objects.filter(agent="big-prm@2026.12").count() == 30_000
    assert Suggestion.objects.filter(agent="big-prm@2026.12", value=None, score=0.5).count() == 5000
    assert json.loads(json.dumps(response.json()))["solutions"] == 5000
