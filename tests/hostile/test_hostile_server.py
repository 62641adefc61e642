"""A hostile client against a production-settings server: gunicorn with
annotate.settings.production, the test PostgreSQL database and a private Redis (the broker and
the cache, so the production throttles count for real).

1. Schemathesis over the schema that server serves (`/api/schema/`), as a project admin with
   a token: positive AND negative data for every operation (HOSTILE_EXAMPLES each, default 2;
   operations that delete go last), then the stateful phase over the schema's links. Checks:
   no 5xx, and every /api/ answer of 400 or more is `application/json` in the one error shape
   {"error": {"code", "message", "details"}}.
2. Hand-made hostile requests with httpx: JSON nested 100,000 deep, 2^63, 10^30, -0, 1e400,
   a 12 MB body (a JSON 413), odd Unicode (an escaped lone surrogate, NUL, RTL overrides,
   10,000 combining marks) in every string field of project create, comments, login, token
   create and an import line, invalid UTF-8, odd query strings, a wrong Content-Type and a body
   on a GET. Each answers below 500, and JSON under /api/.
"""

import contextlib
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
import schemathesis
from django.contrib.auth import get_user_model
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.errors import FlakyStrategyDefinition, Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error

from labeling.models import ProjectMembership
from labeling.services.people.tokens import token_create
from tests.factories import ProjectFactory, SolutionFactory
from tests.faults.private_stack import production_hash, production_server

pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]
EXAMPLES = int(os.environ.get("HOSTILE_EXAMPLES", "2"))
PASSWORD = "hostile-password-1"
ODD = [
    "\ud800",  # a lone surrogate: json.dumps escapes it as \ud800
    "a\u0000b",
    "\u202eevil\u202dtxt\u2066x\u2069",
    "e" + "\u0301" * 10_000,
]


@dataclass
class Server:
    base: str
    project: int
    solution: int
    step: int
    token: str  # a project admin's (and staff) API token
    log: Path


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    project = ProjectFactory(name="Hostile")
    solution = SolutionFactory(problem__project=project, steps=3)
    SolutionFactory(problem__project=project, steps=2)
    hashed = production_hash(PASSWORD)
    admin = get_user_model().objects.create(username="hostile", password=hashed, is_staff=True)
    ProjectMembership.objects.create(project=project, user=admin, role="admin")
    annotator = get_user_model().objects.create(username="ann", password=hashed)
    ProjectMembership.objects.create(project=project, user=annotator, role="annotator")
    token_create(user=annotator)
    with production_server(tmp_path, name="hostile") as live:
        yield Server(
            live.base,
            project.pk,
            solution.pk,
            solution.steps.order_by("index").first().pk,
            token_create(user=admin).key,
            live.log,
        )


def _header(response, name: str) -> str:
    value = response.headers.get(name) or response.headers.get(name.lower()) or ""
    return value[0] if isinstance(value, list) else value


def _assert_json_error(path: str, status: int, content_type: str, body: bytes) -> None:
    """Under /api/: below 500; at 400 or more, JSON in the one error shape."""
    assert status < 500, (path, status, body[:300])
    if not path.startswith("/api/") or status < 400:
        return
    assert content_type.startswith("application/json"), (path, status, body[:300])
    error = json.loads(body)["error"]
    assert {"code", "message", "details"} <= set(error), (path, status, body[:300])


def json_error_shape(ctx, response, case) -> bool | None:
    path = httpx.URL(response.request.url).path
    _assert_json_error(path, response.status_code, _header(response, "content-type"),
                       response.content)  # fmt: skip
    return None


def _ordered(schema) -> list:
    operations = [r.ok() for r in schema.get_all_operations()]
    # Deleting the project or the admin's own token would leave later operations nothing to do.
    return sorted(operations, key=lambda op: (op.method.upper() == "DELETE", op.label))


def test_schemathesis_finds_no_5xx_and_no_html_on_a_production_server(server: Server):
    auth = {"Authorization": f"Token {server.token}"}
    schema = schemathesis.openapi.from_url(f"{server.base}/api/schema/", headers=auth)
    checks = [not_a_server_error, json_error_shape]
    failures: list[str] = []
    unsatisfiable: list[str] = []  # nothing to negate (no parameters, no body): fine
    for operation in _ordered(schema):
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):

            @settings(max_examples=EXAMPLES, deadline=None, database=None,
                      suppress_health_check=list(HealthCheck))  # fmt: skip
            @given(case=operation.as_strategy(generation_mode=mode))
            def run(case) -> None:
                case.call_and_validate(base_url=server.base, headers=auth, checks=checks)

            try:
                run()
            except Unsatisfiable:
                unsatisfiable.append(f"{operation.label} [{mode.value}]")
            except (
                Exception,
                BaseExceptionGroup,
            ) as exc:  # collect every operation's failure, then report them all
                failures.append(f"{operation.label} [{mode.value}]: {str(exc)[:1500]}")
    log = server.log.read_text()
    assert not failures, "\n\n".join(failures)
    # Negative data exists for almost every operation; only the ones without input are left.
    assert len(unsatisfiable) < len(list(schema.get_all_operations())) // 4, unsatisfiable
    assert "Internal Server Error" not in log, log[-3000:]


def test_stateful_phase_over_the_schema_links(server: Server):
    auth = {"Authorization": f"Token {server.token}"}
    schema = schemathesis.openapi.from_url(f"{server.base}/api/schema/", headers=auth)
    machine = schema.as_state_machine()
    checks = [not_a_server_error, json_error_shape]

    class Hostile(machine):  # type: ignore[misc,valid-type]
        def get_call_kwargs(self, case):
            return {"base_url": server.base, "headers": auth}

        def validate_response(self, response, case, additional_checks=(), **kwargs):
            case.validate_response(response, checks=checks)

    stateful = settings(max_examples=EXAMPLES * 5, stateful_step_count=6, deadline=None,
                        database=None, phases=[Phase.generate],
                        suppress_health_check=list(HealthCheck))  # fmt: skip
    # Which links can fire depends on what the server answered before (ids created and
    # deleted), which Hypothesis' choice tree may call inconsistent after many runs. That ends
    # the exploration early; it is not an answer of the app's. A failed check raises its own.
    with contextlib.suppress(FlakyStrategyDefinition):
        Hostile.run(settings=stateful)
    log = server.log.read_text()
    assert "Internal Server Error" not in log, log[-3000:]


def _send(client: httpx.Client, method: str, path: str, **kwargs) -> httpx.Response:
    if path == "/api/auth/login/":  # a session sign-in: the SPA's CSRF cookie and header
        csrf = client.get("/").cookies["csrftoken"]
        headers = {**kwargs.pop("headers", {}), "X-CSRFToken": csrf, "Cookie": f"csrftoken={csrf}"}
        kwargs["headers"] = headers
    response = client.request(method, path, **kwargs)
    _assert_json_error(path.split("?")[0], response.status_code,
                       response.headers.get("content-type", ""), response.content)  # fmt: skip
    return response


def test_hand_made_hostile_requests(server: Server):
    auth = {"Authorization": f"Token {server.token}"}
    client = httpx.Client(base_url=server.base, timeout=60, headers=auth)
    pid, sid = server.project, server.solution
    raw = {"Content-Type": "application/json"}
    writes = [
        ("POST", "/api/projects/", lambda v: {"name": v, "description": v}),
        ("POST", f"/api/solutions/{sid}/comments/", lambda v: {"body": v}),
        ("POST", "/api/auth/login/", lambda v: {"username": v, "password": v}),
        ("POST", "/api/auth/token/", lambda v: {"username": v, "password": v}),
        ("POST", "/api/auth/tokens/", lambda v: {"name": v}),
    ]
    # Deep JSON, 100,000 levels, on every write endpoint.
    deep = ("[" * 100_000 + "]" * 100_000).encode()
    deep_obj = ('{"a":' * 100_000 + "1" + "}" * 100_000).encode()
    for method, path, _ in writes:
        for body in (deep, deep_obj):
            assert _send(client, method, path, content=body, headers=raw).status_code == 400
    # Numbers no column holds, and numbers JSON itself cannot carry.
    for number in ("9223372036854775808", "1" + "0" * 30, "-0", "1e400", "-1e400", "NaN"):
        for method, path, body in writes + [
            ("PATCH", f"/api/projects/{pid}/", lambda v: {"name": "x", "version": v}),
        ]:
            text = json.dumps(body("PLACEHOLDER")).replace('"PLACEHOLDER"', number)
            _send(client, method, path, content=text.encode(), headers=raw)
        _send(client, "POST", f"/api/solutions/{sid}/comments/",
              content=f'{{"body": "x", "step_id": {number}}}'.encode(), headers=raw)  # fmt: skip
    # A 12 MB body: a JSON 413.
    big = json.dumps({"name": "x" * 12_000_000}).encode()
    response = _send(client, "POST", "/api/projects/", content=big, headers=raw)
    assert response.status_code == 413, response.status_code
    # Odd Unicode in every string field.
    for value in ODD:
        for method, path, body in writes:
            _send(client, method, path, content=json.dumps(body(value)).encode(), headers=raw)
        line = json.dumps(
            {
                "id": value,
                "problem": value,
                "steps": [value, value],
                "label": -1,
                "final_answer_correct": True,
                "generator": value,
            }
        )
        # Form fields and file names carry the raw bytes (a lone surrogate's CESU bytes).
        raw_value = value.encode("utf-8", "surrogatepass")
        _send(client, "POST", f"/api/projects/{pid}/imports/",
              data={"format": "processbench", "labels_as": raw_value},
              files={"file": (raw_value[:100].decode("latin-1") + ".jsonl", line.encode(),
                              "application/jsonl")})  # fmt: skip
    # Invalid UTF-8, as JSON and as form data.
    for method, path, _ in writes:
        _send(client, method, path, content=b'{"name": "\xff\xfe\xc3("}', headers=raw)
        _send(client, method, path, content=b"name=\xff\xfe",
              headers={"Content-Type": "application/x-www-form-urlencoded"})  # fmt: skip
    # Odd query strings on the list pages.
    for path in (f"/api/projects/{pid}/solutions/", "/api/projects/", "/api/auth/tokens/",
                 f"/api/projects/{pid}/exports/", f"/api/projects/{pid}/imports/"):  # fmt: skip
        for query in ("step=%C2%B2", "limit=%00", "offset=%00", "q=" + "a" * 5000,
                      "limit=" + "9" * 5000, "page_size=%C2%B2", "status=%ff%fe",
                      "ordering=" + "%E2%80%AE" * 200):  # fmt: skip
            _send(client, "GET", f"{path}?{query}")
    # Odd Unicode in a free-form JSON value and key, and in the Idempotency-Key header.
    for value in ODD:
        body = {"sources": ["answer"], "params": {value: value, "chunk_size": 10}}
        _send(client, "POST", f"/api/projects/{pid}/autolabel-runs/",
              content=json.dumps(body).encode(), headers=raw)  # fmt: skip
    for key in ("k" * 5000, "\u202e" * 10, "a\u0301" * 100):
        _send(client, "POST", f"/api/projects/{pid}/exports/", content=b'{"format": "trl"}',
              headers={**raw, "Idempotency-Key": key.encode("utf-8")})  # fmt: skip
    for query in ("q=%ED%A0%80", "limit=%F0%9F", "status=%C0%AF"):
        _send(client, "GET", f"/api/projects/{pid}/solutions/?{query}")
    # A wrong Content-Type, and a body on a GET.
    for content_type in ("text/plain", "application/xml", "multipart/form-data",
                         "application/json; charset=utf-16", "image/png"):  # fmt: skip
        _send(client, "POST", "/api/projects/", content=b'{"name": "ct"}',
              headers={"Content-Type": content_type})  # fmt: skip
    for path in ("/api/projects/", f"/api/projects/{pid}/", "/api/auth/me/"):
        for body in (b'{"name": "get"}', deep):
            # A fresh connection each: a kept-alive one that carried an unread body may be
            # closed by gunicorn, which httpx reports as a disconnect, not an answer.
            with httpx.Client(base_url=server.base, timeout=60, headers=auth) as fresh:
                try:
                    response = _send(fresh, "GET", path, content=body, headers=raw)
                except httpx.HTTPError as exc:
                    raise AssertionError((path, len(body), server.log.read_text()[-2000:])) from exc
            assert response.status_code < 500
    log = server.log.read_text()
    assert "Internal Server Error" not in log, log[-3000:]
