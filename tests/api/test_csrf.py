"""Session-authenticated writes need the CSRF token; token-authenticated scripts need none."""

import pytest
from rest_framework.test import APIClient

from labeling.services.people.tokens import token_create

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


ANONYMOUS_WRITES = [
    ("/api/auth/login/", {"username": "annotator", "password": "pw-for-tests"}),
    ("/api/auth/password/reset/", {"email": "someone@example.org"}),
    ("/api/auth/password/reset/confirm/", {"uid": "x", "token": "y", "new_password": "z"}),
    ("/api/invites/some-token/accept/", {"username": "mallory", "password": "x"}),
]


@pytest.mark.parametrize("url,body", ANONYMOUS_WRITES, ids=[u for u, _ in ANONYMOUS_WRITES])
def test_anonymous_session_writes_need_the_csrf_token_too(world, url, body):
    """Issue 24, login CSRF: a cross-site form post signed its visitor in to the attacker's
    account. Sign-in, password reset and invite acceptance refuse a post without the token."""
    client = APIClient(enforce_csrf_checks=True)
    response = client.post(url, body, format="json")
    assert response.status_code == 403, response.content
    assert "CSRF" in response.json()["error"]["message"]
    assert "_auth_user_id" not in client.session


def test_sign_in_with_the_csrf_token_from_the_page_works(world):
    client = APIClient(enforce_csrf_checks=True)
    client.get("/login")  # the SPA page sets the csrftoken cookie
    token = client.cookies["csrftoken"].value
    response = client.post(
        "/api/auth/login/",
        {"username": "annotator", "password": "pw-for-tests"},
        format="json",
        HTTP_X_CSRFTOKEN=token,
    )
    assert response.status_code == 200, response.content
    assert client.session["_auth_user_id"] == str(world["users"]["annotator"].pk)
