"""Every /api/ route and every method its view allows, sent what a hostile client sends, as a
project admin, an annotator and anonymously: wrong types, huge and negative numbers, unicode
garbage, invalid JSON, a 10 MB body, bad query parameters (page=-1, page_size=10**9,
ordering=nonexistent), ids that do not exist or overflow a bigint, and the ids of another
project's objects. Never a 5xx; every error in the one JSON shape; nothing of a project the
caller is not in. (tests/api/test_bad_input_sweep.py sends deep JSON and odd parameters as an
admin; tests/api/test_permissions.py is the role matrix of each endpoint's normal use.)

The path's ids are real objects of the admin's and annotator's project (an export, runs, an
invite, a webhook endpoint, a stored image, ...), so the hostile input reaches the view's
validation instead of stopping at a 404."""

from __future__ import annotations

import json
import re
from urllib.parse import quote

import pytest
from django.urls import resolve
from rest_framework.test import APIClient

from tests.api.test_bad_input_sweep import DEEP, ROUTES, _check

pytestmark = pytest.mark.django_db

ROLES = [None, "annotator", "admin"]  # None: anonymous; the admin last (their deletes)
METHODS = ("get", "post", "put", "patch", "delete")
GARBAGE = "\u202e\u0000\ufeff\U0001f4a9\u0301\u200d" + "Ω" * 50 + "\udcff"
GARBAGE_JSON = json.dumps(GARBAGE)  # the lone surrogate travels escaped: "\udcff"
FIELDS = (
    "name",
    "labels",
    "version",
    "rating",
    "step_id",
    "offset",
    "role",
    "username",
    "password",
    "url",
    "events",
    "format",
    "filters",
    "sources",
    "params",
    "repo_id",
    "token",
    "comment",
    "ids",
    "filter",
    "action",
    "overlap",
    "strategy",
    "solution_ids",
    "user_ids",
    "days",
    "count",
    "base_model",
    "export_id",
    "priority",
    "text",
    "split",
)


def _bodies() -> list[tuple[str, str, str]]:
    """(what, content type, body) of the hostile writes."""
    every = {k: None for k in FIELDS}
    out = [
        ("not json", "application/json", "{'a': 1,"),
        ("a list", "application/json", "[1, 2, 3]"),
        ("a string", "application/json", '"x"'),
        ("a number", "application/json", "1e999"),
        ("null", "application/json", "null"),
        ("bad utf-8", "application/json", b'{"name": "\xff\xfe"}'.decode("latin-1")),
        ("deep", "application/json", DEEP),
        ("text/plain", "text/plain", "name=x"),
        ("form garbage", "application/x-www-form-urlencoded", "a=%ZZ&&=&%00=1"),
        ("multipart no boundary", "multipart/form-data", "--x\r\n\r\n"),
    ]
    for what, value in (
        ("nulls", None),
        ("huge", 10**40),
        ("negative", -(2**63) - 1),
        ("float", 1e308),
        ("nan", float("nan")),
        ("bool", True),
        ("list", [GARBAGE] * 3),
        ("dict", {"a": [{"b": GARBAGE}]}),
        ("garbage", GARBAGE),
        ("long", "x" * 200_000),
    ):
        body = json.dumps({k: value for k in every}, allow_nan=True)
        out.append((what, "application/json", body))
    # Lone surrogates and NUL escaped in JSON, where a JSON parser lets them through.
    out.append(
        (
            "escapes",
            "application/json",
            "{" + ",".join(f'"{k}": {GARBAGE_JSON}' for k in FIELDS) + "}",
        )
    )
    return out


BODIES = _bodies()
QUERIES = [
    {"page": "-1", "page_size": str(10**9)},
    {"page": "0", "page_size": "-5", "limit": "-1", "offset": str(10**30)},
    {"ordering": "nonexistent"},
    {"ordering": "-" * 300, "sort": "__class__", "order_by": "password"},
    {"cursor": GARBAGE[:-1], "after": "\x00", "before": "9" * 400},
    {"q": GARBAGE[:-1] * 40, "search": "%", "status": "[]", "id": "1 OR 1=1"},
    {"project": "-1", "user": str(2**63), "solution": "1.5", "annotation": "NaN"},
    {"since": "9999-99-99", "until": "0000-00-00T25:61", "days": "1e9"},
]


def _fill(route: str, ids: dict) -> str:
    def value(m: re.Match) -> str:
        name = m.group(2)
        if name == "run_id":
            name = "training_run" if route.startswith("api/training-runs") else "autolabel_run"
        return quote(str(ids[name]), safe="")

    return "/" + re.sub(r"<(?:(\w+):)?(\w+)>", value, route)


def _methods(url: str) -> list[str]:
    func = resolve(url).func
    view = getattr(func, "cls", None) or getattr(func, "view_class", None)
    return [m for m in METHODS if view is not None and hasattr(view, m)]


def _ordered(methods: list[str]) -> list[str]:
    """Deletes last: a sweep that deleted its project first would test only 404s."""
    return sorted(methods, key=lambda m: m == "delete")


@pytest.fixture
def objects(world):
    """Real objects behind every id a route names, in project Alpha (admin, annotator)."""
    from autolabel.models import AutolabelRun
    from labeling.models import Export, HubPush, ImportJob
    from labeling.services.media.images import media_save
    from labeling.services.people.accounts import invite_create
    from labeling.services.people.tokens import token_create
    from labeling.services.webhooks.endpoints import webhook_endpoint_create
    from tests.domains.test_media import png
    from training_runs.models import PrmModel, TrainingRun

    project, admin = world["project"], world["users"]["admin"]
    export = Export.objects.create(project=project, created_by=admin, format="trl", status="done")
    endpoint = webhook_endpoint_create(
        project=project, url="https://hooks.example.com/x", events=["export.ready"]
    )
    return {
        "project_id": project.pk,
        "annotation_id": world["annotation"].pk,
        "solution_id": world["annotation"].solution_id,
        "export_id": export.pk,
        "push_id": HubPush.objects.create(export=export, repo_id="team/x").pk,
        "import_id": ImportJob.objects.create(project=project, filename="x.jsonl").pk,
        "autolabel_run": AutolabelRun.objects.create(project=project, sources=["answer"]).pk,
        "training_run": TrainingRun.objects.create(
            project=project, export=export, base_model="/m"
        ).pk,
        "model_id": PrmModel.objects.create(project=project, name="sweep", path="/m").pk,
        "token_id": token_create(user=admin, name="sweep").token.pk,
        "user_id": world["users"]["annotator"].pk,
        "invite_id": invite_create(project=project, role="annotator", created_by=admin).invite.pk,
        "token": invite_create(project=project, role="annotator", created_by=admin).token,
        "endpoint_id": getattr(endpoint, "endpoint", endpoint).pk,
        "name": media_save(project=project, blob=png(), content_type="image/png")["media"],
    }


def _client(world, role: str | None) -> APIClient:
    client = APIClient()
    if role is not None:
        client.force_authenticate(world["users"][role])
    return client


@pytest.mark.parametrize("route", ROUTES)
def test_hostile_bodies(route, world, objects):
    """Each role in turn (the admin last, deletes last: what they delete is gone for no one
    after), every write method, every hostile body; then a 10 MB one as the admin."""
    url = _fill(route, objects)
    writes = _ordered([m for m in _methods(url) if m != "get"])
    for role in ROLES:
        client = _client(world, role)
        for method in writes:
            send = getattr(client, method)
            for what, content_type, body in BODIES:
                _check(send(url, body, content_type=content_type), f"{role} {method} {url} {what}")
            if role == "admin":
                big = json.dumps({"name": "x" * (10 * 1024 * 1024)})
                _check(send(url, big, content_type="application/json"), f"{method} {url} 10 MB")


@pytest.mark.parametrize("route", ROUTES)
def test_hostile_query_parameters(route, world, objects):
    url = _fill(route, objects)
    if "get" not in _methods(url):
        return
    for role in ROLES:
        client = _client(world, role)
        for query in QUERIES:
            _check(client.get(url, query), f"{role} GET {url} {query}")
        # The same parameter twice, and a raw query string that is not valid percent-encoding.
        _check(client.get(url + "?page=1&page=-1&page_size=0"), f"{role} GET {url} repeated")
        _check(client.get(url + "?%ZZ=%&page=%00"), f"{role} GET {url} raw")


BAD_IDS = ["0", str(2**31), str(2**63), "9" * 40]
BAD_NAMES = [GARBAGE[:-1], "x" * 5000, "..", "%00", "a/b"]


@pytest.mark.parametrize("route", [r for r in ROUTES if "<" in r])
def test_ids_that_do_not_exist_or_overflow(route, world, objects):
    client = _client(world, "admin")
    params = re.findall(r"<(?:(\w+):)?(\w+)>", route)
    for conv, name in params:
        for bad in BAD_IDS if conv == "int" else BAD_NAMES:
            key = {"run_id": "training_run" if "training-runs" in route else "autolabel_run"}
            ids = {**objects, key.get(name, name): bad}
            url = _fill(route, ids)
            try:
                methods = _methods(url)
            except Exception:  # noqa: BLE001 - the URL no longer resolves: any method 404s
                methods = ["get", "post"]
            for method in _ordered(methods):
                answer = getattr(client, method)(url, {}, format="json")
                _check(answer, f"{method} {url}")
                assert answer.status_code >= 400, (f"{method} {url}", answer.status_code)
    # A negative id is not an int the URL accepts: the JSON 404, never the HTML one.
    if "<int:" in route:
        url = "/" + re.sub(r"<int:\w+>", "-1", re.sub(r"<(?:str:)?\w+>", "x", route))
        answer = client.get(url)
        assert answer.status_code == 404 and answer.json()["error"]["code"] == "not_found"


# Routes whose ids are bearer secrets: whoever holds the link may read it (an invite).
SECRET_LINKS = ("api/invites/<str:token>/",)


@pytest.mark.parametrize("route", ROUTES)
def test_another_projects_objects_stay_out_of_reach(route, world, objects):
    """The outsider is a member of project Beta only: every method on Alpha's objects is refused
    (and nothing changes in Alpha); a route with no id never shows Alpha's rows."""
    if route in SECRET_LINKS:
        return
    client = _client(world, "outsider")
    url = _fill(route, objects)
    for method in _ordered(_methods(url)):
        answer = getattr(client, method)(url, {}, format="json")
        _check(answer, f"{method} {url}")
        if "<" in route:
            assert answer.status_code >= 400, (method, url, answer.status_code, answer.content)
        elif answer.status_code < 300 and answer.content:
            assert b"Alpha" not in answer.content, (method, url, answer.content[:300])


HEADERS = [
    {"HTTP_AUTHORIZATION": "Token " + "a" * 10_000},
    {"HTTP_AUTHORIZATION": "Token \u00ff\u00fe garbage"},
    {"HTTP_AUTHORIZATION": "Bearer"},
    {"HTTP_AUTHORIZATION": "Basic Og=="},
    {"HTTP_ACCEPT": "text/html"},
    {"HTTP_ACCEPT": "application/xml;q=1, */*;q=0"},
    {"HTTP_ACCEPT_ENCODING": "gzip;q=" + "9" * 400 + ", " * 200},
    {"HTTP_IDEMPOTENCY_KEY": "\u00ff" * 300},
    {"HTTP_X_FORWARDED_FOR": "not an address, " * 50},
    {"HTTP_IF_NONE_MATCH": '"' + "x" * 5000},
    {"HTTP_RANGE": "bytes=-1-99999999999999999999"},
]


@pytest.mark.parametrize("route", ROUTES)
def test_hostile_headers(route, world, objects):
    """Headers a client controls: a forged or oversized token, an Accept the API cannot render
    (errors still come as JSON), garbage Accept-Encoding, Idempotency-Key, ranges and ETags."""
    client = _client(world, "annotator")
    url = _fill(route, objects)
    for method in _ordered(_methods(url)):
        for headers in HEADERS:
            answer = getattr(client, method)(url, {}, format="json", **headers)
            _check(answer, f"{method} {url} {list(headers)}")
