"""Every /api/ route, sent what a hostile client sends: deep JSON, huge numbers, odd query
parameters, an oversized body. Nothing may answer 5xx or anything but the one JSON error shape."""

import json
import re

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

pytestmark = pytest.mark.django_db

DEEP = "[" * 5000 + "]" * 5000
ODD_QUERY = {
    "step": "²",
    "limit": "1" + "0" * 30,
    "offset": "-1",
    "page": "٣",
    "page_size": "99999999999",
    "status": "\x00",
    "since": "not-a-date",
    "q": "a" * 5000,
    "refresh": "²",
    "solution": "1e400",
    "annotator": "-0",
}
HUGE_VALUES = [2**63, 10**30, -(2**63) - 1, 1e308, "²", None, [], {"a": {"b": {}}}]


def _api_routes() -> list[str]:
    out: list[str] = []

    def walk(patterns, prefix: str) -> None:
        for p in patterns:
            if isinstance(p, URLResolver):
                walk(p.url_patterns, prefix + str(p.pattern))
            elif isinstance(p, URLPattern):
                out.append(prefix + str(p.pattern))

    walk(get_resolver().url_patterns, "")
    return sorted(
        {r for r in out if r.startswith("api/") and "schema" not in r and "docs" not in r}
    )


def _fill(route: str, ids: dict[str, int]) -> str:
    def value(m: re.Match) -> str:
        conv, name = (m.group(1) or "str"), m.group(2)
        if conv == "int":
            return str(ids.get(name, ids["default"]))
        return ids.get(name, "x") if isinstance(ids.get(name), str) else "x"

    return "/" + re.sub(r"<(?:(\w+):)?(\w+)>", value, route)


ROUTES = _api_routes()


def _check(response, what: str) -> None:
    assert response.status_code < 500, (what, response.status_code, response.content[:300])
    if response.status_code >= 400:
        assert response["Content-Type"].startswith("application/json"), (
            what,
            response.content[:200],
        )
        body = response.json()
        assert set(body["error"]) >= {"code", "message", "details"}, (what, body)


@pytest.fixture
def ids(world):
    a = world["annotation"]
    return {
        "default": world["project"].pk,
        "project_id": world["project"].pk,
        "pk": world["project"].pk,
        "annotation_id": a.pk,
        "solution_id": a.solution_id,
    }


@pytest.mark.parametrize("route", ROUTES)
def test_odd_query_parameters(route, ids, client_for):
    client = client_for("admin")
    url = _fill(route, ids)
    _check(client.get(url, ODD_QUERY), f"GET {url}")


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("method", ["post", "put", "patch"])
def test_deep_json_and_huge_numbers(route, method, ids, client_for):
    client = client_for("admin")
    url = _fill(route, ids)
    send = getattr(client, method)
    _check(send(url, DEEP, content_type="application/json"), f"{method} {url} deep")
    for value in HUGE_VALUES:
        body = {
            k: value
            for k in (
                "time_spent_ms",
                "version",
                "limit",
                "chunk_size",
                "count",
                "overlap",
                "step_index",
                "rating",
                "n",
                "max_steps",
                "seed",
                "epochs",
                "labels",
                "steps",
                "fraction",
                "priority",
                "size",
                "batch_size",
                "rollouts",
            )
        }
        _check(
            send(url, json.dumps(body), content_type="application/json"),
            f"{method} {url} {value!r}",
        )
