"""The bad inputs issue 24 found, each a 4xx in the one JSON error shape that names the field."""

import json

import pytest

from labeling.api.bounds import MAX_TIME_SPENT_MS

pytestmark = pytest.mark.django_db


def _error(response, status: int) -> dict:
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"].startswith("application/json")
    return response.json()["error"]


def _labels(world) -> list[dict]:
    steps = world["annotation"].solution.steps.order_by("index").values_list("id", flat=True)
    return [{"step_id": s, "rating": 1} for s in steps]


@pytest.mark.parametrize("what", ["draft", "submit"])
@pytest.mark.parametrize("spent", [10**30, 2**63, 2**63 - 1, MAX_TIME_SPENT_MS + 1, -1])
def test_time_spent_is_at_most_a_day(world, client_for, what, spent):
    client = client_for("annotator")
    a = world["annotation"]
    body = {"version": a.version, "labels": _labels(world), "time_spent_ms": spent}
    send = client.put if what == "draft" else client.post
    error = _error(send(f"/api/annotations/{a.pk}/{what}/", body, format="json"), 400)
    assert error["message"].startswith("time_spent_ms")
    a.refresh_from_db()
    assert a.time_spent_ms < MAX_TIME_SPENT_MS


def test_a_day_of_work_is_accepted(world, client_for):
    a = world["annotation"]
    body = {"version": a.version, "labels": _labels(world), "time_spent_ms": MAX_TIME_SPENT_MS}
    response = client_for("annotator").post(f"/api/annotations/{a.pk}/submit/", body, format="json")
    assert response.status_code == 200, response.content


@pytest.mark.parametrize("version", [2**31, 2**63, 10**30])
def test_version_is_bounded(world, client_for, version):
    a = world["annotation"]
    body = {"version": version, "labels": _labels(world)}
    response = client_for("annotator").put(f"/api/annotations/{a.pk}/draft/", body, format="json")
    assert _error(response, 400)["message"].startswith("version")


@pytest.mark.parametrize("step", ["²", "1e3", "-1", "0", str(2**63), "x"])
def test_a_query_parameter_it_cannot_parse_is_a_400(world, client_for, step):
    solution = world["annotation"].solution_id
    response = client_for("reviewer").get(f"/api/solutions/{solution}/comments/", {"step": step})
    assert _error(response, 400)["message"].startswith("step")


def test_deep_json_is_a_400_everywhere_even_unauthenticated(client_for):
    deep = "[" * 100_000 + "]" * 100_000
    for url in ("/api/auth/token/", "/api/auth/login/"):
        response = client_for(None).post(url, deep, content_type="application/json")
        assert "nested deeper" in _error(response, 400)["message"]


def test_moderately_deep_json_is_refused_before_a_view_sees_it(world, client_for):
    body = {"version": 1, "labels": _labels(world)}
    nested: object = body
    for _ in range(40):
        nested = {"x": nested}
    a = world["annotation"]
    response = client_for("annotator").put(
        f"/api/annotations/{a.pk}/draft/", json.dumps(nested), content_type="application/json"
    )
    assert "nested deeper" in _error(response, 400)["message"]


def test_an_oversized_body_is_a_json_413(world, client_for, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1024
    a = world["annotation"]
    body = json.dumps({"version": a.version, "labels": _labels(world), "pad": "x" * 4096})
    response = client_for("annotator").put(
        f"/api/annotations/{a.pk}/draft/", body, content_type="application/json"
    )
    assert _error(response, 413)["code"] == "too_large"


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({"limit": "100000"}, "limit"),
        ({"limit": "0"}, "limit"),
        ({"limit": "1" + "0" * 30}, "limit"),
        ({"offset": "1" + "0" * 30}, "offset"),
        ({"offset": "-1"}, "offset"),
        ({"limit": "²"}, "limit"),
    ],
)
def test_page_size_and_offset_are_bounded(world, client_for, query, field):
    project = world["project"].pk
    for url in ("/api/projects/", f"/api/projects/{project}/solutions/"):
        response = client_for("admin").get(url, query)
        assert _error(response, 400)["message"].startswith(field)


def test_the_largest_page_is_served(world, client_for, settings):
    project = world["project"].pk
    limit = settings.API_MAX_PAGE_SIZE
    response = client_for("admin").get(f"/api/projects/{project}/solutions/", {"limit": limit})
    assert response.status_code == 200
    assert len(response.json()["results"]) == 3


def test_api_errors_outside_drf_are_json(client):
    response = client.get("/api/no-such-thing/")
    assert _error(response, 404)["code"] == "not_found"


@pytest.mark.parametrize("path", ["/api/auth/login/", "/api/auth/token/"])
@pytest.mark.parametrize("username", ["\ud800", "a\udfffb", "a\u0000b"])
def test_a_lone_surrogate_or_nul_in_a_sign_in_is_a_400(client, path, username):
    """The per-username throttle hashes the name before the serializer sees it: an escaped lone
    surrogate once made that a UnicodeEncodeError, a 500 (found by tests/hostile/)."""
    body = json.dumps({"username": username, "password": username})
    response = client.post(path, data=body, content_type="application/json")
    assert response.status_code == 400, response.content
    assert response.json()["error"]["code"]


@pytest.mark.parametrize(
    ("route", "body"),
    [
        # An invalid choice echoed the value in its message: the renderer could not encode it.
        ("/api/projects/{pid}/autolabel-runs/", {"sources": ["\ud800"]}),
        ("/api/projects/{pid}/invites/", {"role": "\ud800"}),
        # In a key, nested, or in a free-form JSON value.
        ("/api/projects/{pid}/autolabel-runs/", {"sources": ["answer"], "params": {"\udfff": 1}}),
        ("/api/solutions/{sid}/comments/", {"body": ["x", {"y": "a\ud800b"}]}),
    ],
)
def test_a_lone_surrogate_anywhere_in_json_is_a_400(world, client_for, route, body):
    url = route.format(pid=world["project"].pk, sid=world["annotation"].solution_id)
    response = client_for("admin").post(url, json.dumps(body), content_type="application/json")
    assert "lone surrogates" in _error(response, 400)["message"]
