"""Large /api/ JSON answers are gzipped for clients that accept it (annotate/compression.py);
small ones, answers carrying a secret or setting a cookie (BREACH), streamed downloads and
clients that do not accept gzip get the bytes as they are."""

from __future__ import annotations

import gzip
import json
import time

import pytest
from rest_framework.test import APIClient

from annotate.compression import ApiGzipMiddleware, accepts_gzip, gzipped
from labeling.models import Step
from labeling.services.exports.snapshots import export_build, export_create
from labeling.services.people.tokens import token_create
from tests.factories import MembershipFactory, ProjectFactory, SolutionFactory, UserFactory

pytestmark = pytest.mark.django_db

STEPS = 5000
BROWSER = "gzip, deflate, br, zstd"  # what Chromium sends


@pytest.fixture
def long_claim():
    project = ProjectFactory(name="Long")
    solution = SolutionFactory(problem__project=project, steps=1)
    Step.objects.filter(solution=solution).delete()
    Step.objects.bulk_create(
        Step(solution=solution, index=i, text=f"Step {i + 1}: we compute $x_{{{i}}} = {i} + 1$.")
        for i in range(STEPS)
    )
    user = UserFactory(username="long-reader")
    MembershipFactory(project=project, user=user)
    client = APIClient()
    client.force_authenticate(user)
    return project, client


def test_a_large_claim_arrives_gzipped_and_decompresses_to_the_same_json(long_claim):
    project, client = long_claim
    started = time.perf_counter()
    claimed = client.post(f"/api/projects/{project.pk}/queue/next/", HTTP_ACCEPT_ENCODING=BROWSER)
    took = time.perf_counter() - started
    assert claimed.status_code == 200
    assert claimed["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in claimed["Vary"]
    assert int(claimed["Content-Length"]) == len(claimed.content)
    task = json.loads(gzip.decompress(claimed.content))
    assert len(task["solution"]["steps"]) == STEPS

    # The same task read again: with gzip and without, byte for byte the same JSON.
    url = f"/api/annotations/{task['annotation']['id']}/"
    plain = client.get(url)
    assert plain.status_code == 200 and not plain.has_header("Content-Encoding")
    assert "Accept-Encoding" in plain["Vary"]  # a cache keeps both forms apart
    packed = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
    assert packed["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.content) == plain.content
    assert len(plain.content) > 800_000  # the issue measured 1.6 MB with suggestions
    assert len(packed.content) < len(plain.content) / 5, (len(packed.content), len(plain.content))
    print(
        f"{STEPS} steps: {len(plain.content)} B JSON -> {len(packed.content)} B gzipped; "
        f"claim answered in {took * 1000:.0f} ms"
    )


@pytest.mark.parametrize("header", [None, "", "identity", "gzip;q=0", "br", "*;q=0, gzip;q=0"])
def test_clients_that_do_not_accept_gzip_get_plain_json(long_claim, header):
    project, client = long_claim
    extra = {} if header is None else {"HTTP_ACCEPT_ENCODING": header}
    answer = client.post(f"/api/projects/{project.pk}/queue/next/", **extra)
    assert answer.status_code == 200 and not answer.has_header("Content-Encoding")
    assert len(answer.json()["solution"]["steps"]) == STEPS


def test_a_small_answer_is_not_compressed(long_claim):
    project, client = long_claim
    answer = client.get(f"/api/projects/{project.pk}/progress/", HTTP_ACCEPT_ENCODING="gzip")
    assert answer.status_code == 200 and len(answer.content) < 4096
    assert not answer.has_header("Content-Encoding")
    assert answer.json()["remaining"] == 1


def test_answers_with_a_secret_or_a_cookie_are_never_compressed(long_claim, settings):
    """With the threshold at one byte: a new API token, a sign-in (it sets the session and CSRF
    cookies) and an invite link are sent as they are."""
    settings.API_GZIP_MIN_BYTES = 1
    project, client = long_claim
    token = client.post(
        "/api/auth/tokens/", {"name": "a script"}, format="json", HTTP_ACCEPT_ENCODING="gzip"
    )
    assert token.status_code == 201, token.content
    assert not token.has_header("Content-Encoding") and token.json()["token"]

    browser = APIClient()
    signed_in = browser.post(
        "/api/auth/login/",
        {"username": "long-reader", "password": "pw-for-tests"},
        format="json",
        HTTP_ACCEPT_ENCODING="gzip",
    )
    assert signed_in.status_code == 200 and signed_in.cookies
    assert not signed_in.has_header("Content-Encoding")

    admin = UserFactory(username="long-admin")
    MembershipFactory(project=project, user=admin, role="admin")
    client.force_authenticate(admin)
    invite = client.post(
        f"/api/projects/{project.pk}/invites/",
        {"role": "annotator"},
        format="json",
        HTTP_ACCEPT_ENCODING="gzip",
    )
    assert invite.status_code == 201, invite.content
    assert not invite.has_header("Content-Encoding") and invite.json()["url"]


@pytest.mark.parametrize(
    "path, cookie, compressed",
    [
        ("/api/auth/me/", False, True),  # an ordinary view
        ("/api/auth/me/", True, False),  # ... that sets a cookie
        ("/api/auth/tokens/", False, False),  # views marked response_reflects_secret
        ("/api/auth/token/", False, False),
        ("/api/auth/login/", False, False),
        ("/api/auth/hub-token/", False, False),
        ("/api/invites/abc/", False, False),
        ("/api/projects/1/users/", False, False),
        ("/api/projects/1/members/2/temporary-password/", False, False),
        ("/static/app.json", False, False),  # not the API
    ],
)
def test_the_middleware_skips_secrets_and_cookies_at_any_size(path, cookie, compressed, settings):
    """The same large JSON answer through the middleware, as each view's: only views that carry
    no secret and set no cookie get it gzipped (large enough that gzip always pays)."""
    from django.http import JsonResponse
    from django.test import RequestFactory
    from django.urls import Resolver404, resolve

    body = {"rows": [{"id": i, "text": "the same words again"} for i in range(2000)]}

    def view(_request):
        response = JsonResponse(body)
        if cookie:
            response.set_cookie("csrftoken", "x" * 32)
        return response

    request = RequestFactory().get(path, HTTP_ACCEPT_ENCODING="gzip")
    try:
        request.resolver_match = resolve(path)
    except Resolver404:
        request.resolver_match = None
    response = ApiGzipMiddleware(view)(request)
    assert response.has_header("Content-Encoding") is compressed
    content = gzip.decompress(response.content) if compressed else response.content
    assert json.loads(content) == body


def test_a_streamed_export_download_is_left_as_it_is(long_claim, settings):
    settings.API_GZIP_MIN_BYTES = 1
    project, _ = long_claim
    admin = UserFactory(username="exporter")
    MembershipFactory(project=project, user=admin, role="admin")
    export = export_build(
        export=export_create(
            project=project, created_by=admin, format="trl", filters={"label_source": "human"}
        )
    )
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_create(user=admin).key}")
    plain = client.get(f"/api/exports/{export.pk}/download/")
    asked = client.get(f"/api/exports/{export.pk}/download/", HTTP_ACCEPT_ENCODING="gzip")
    assert plain.status_code == asked.status_code == 200
    assert asked.streaming and not asked.has_header("Content-Encoding")
    assert b"".join(asked.streaming_content) == b"".join(plain.streaming_content)


@pytest.mark.parametrize(
    "header, accepted",
    [
        ("gzip", True),
        ("GZIP", True),
        ("deflate, gzip;q=0.5", True),
        ("x-gzip", True),
        ("*", True),
        ("gzip;q=0", False),
        ("gzip;q=0.0, *", False),
        ("br;q=1, *;q=0", False),
        ("identity", False),
        ("gzip;q=nonsense", False),
        ("", False),
    ],
)
def test_accept_encoding_is_read_with_its_qualities(header, accepted):
    assert accepts_gzip(header) is accepted


def test_gzipped_sizes_vary_and_decompress():
    data = json.dumps([{"step": i} for i in range(500)]).encode()
    outputs = {gzipped(data, level=4) for _ in range(20)}
    assert len({len(o) for o in outputs}) > 1  # random header padding: BREACH's sizes blur
    assert all(gzip.decompress(o) == data for o in outputs)
