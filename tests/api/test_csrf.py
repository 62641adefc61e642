"""Session-authenticated writes need the CSRF token; token-authenticated scripts need none."""

import pytest
from rest_framework.test import APIClient

from labeling.services.tokens import token_create

pytestmark = pytest.mark.django_db

# (method, url(world), json body(world)): writes of each kind a browser makes.
WRITES = [
    ("post", lambda w: f"/api/projects/{w['project'].pk}/queue/next/", lambda w: {}),
    ("patch", lambda w: f"/api/projects/{w['project'].pk}/", lambda w: {"overlap": 2}),
    ("put", lambda w: f"/api/annotations/{w['annotation'].pk}/draft/", lambda w: {"version": 1}),
    (
        "delete",
        lambda w: f"/api/projects/{w['project'].pk}/members/{w['users']['spare'].pk}/",
        lambda w: {},
    ),
    ("post", lambda w: f"/api/projects/{w['project'].pk}/exports/", lambda w: {"format": "trl"}),
    ("post", lambda w: "/api/auth/tokens/", lambda w: {"name": "csrf"}),
    (
        "delete",
        lambda w: f"/api/auth/tokens/{token_create(user=w['users']['admin']).token.pk}/",
        lambda w: {},
    ),
    ("post", lambda w: "/api/auth/logout/", lambda w: {}),
]
IDS = [f"{m}-{i}" for i, (m, *_rest) in enumerate(WRITES)]


def _session(world, username: str) -> APIClient:
    client = APIClient(enforce_csrf_checks=True)
    assert client.login(username=username, password="pw-for-tests")
    return client


@pytest.mark.parametrize("method,url,body", WRITES, ids=IDS)
def test_session_write_without_csrf_token_is_refused(world, method, url, body):
    user = "padmin" if "members" in url(world) or "/api/projects/" in url(world) else "annotator"
    client = _session(world, user)
    response = getattr(client, method)(url(world), body(world), format="json")
    assert response.status_code == 403, response.content
    error = response.json()["error"]
    assert "CSRF" in error["message"]


@pytest.mark.parametrize("method,url,body", WRITES, ids=IDS)
def test_token_write_needs_no_csrf_token(world, method, url, body):
    user = world["users"]["admin"]
    if "/annotations/" in url(world):
        user = world["users"]["annotator"]
    client = APIClient(enforce_csrf_checks=True)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_create(user=user).key}")
    response = getattr(client, method)(url(world), body(world), format="json")
    assert response.status_code != 403, response.content
    assert response.status_code < 500


def test_session_write_with_csrf_token_passes(world):
    client = _session(world, "annotator")
    client.get("/")  # the SPA page sets the csrftoken cookie
    token = client.cookies["csrftoken"].value
    response = client.post(
        f"/api/projects/{world['project'].pk}/queue/next/",
        {},
        format="json",
        HTTP_X_CSRFTOKEN=token,
    )
    assert response.status_code == 200
