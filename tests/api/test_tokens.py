"""A user lists, creates and revokes their API token; a revoked token gets 401 at once."""

import pytest
from rest_framework.test import APIClient

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _with_token(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def test_create_use_and_revoke():
    user = UserFactory(username="ann")
    session = APIClient()
    session.force_authenticate(user)
    assert session.get("/api/auth/tokens/").json() == []

    created = session.post("/api/auth/tokens/")
    assert created.status_code == 201
    key = created.json()["token"]
    assert session.get("/api/auth/tokens/").json() == [
        {"prefix": key[:8], "created": created.json()["created"]}
    ]
    assert "token" not in session.get("/api/auth/tokens/").json()[0]  # shown only once

    scripted = _with_token(key)
    assert scripted.get("/api/auth/me/").json()["username"] == "ann"

    assert session.delete("/api/auth/tokens/").status_code == 204
    refused = scripted.get("/api/auth/me/")
    assert refused.status_code == 401
    assert refused["WWW-Authenticate"] == "Token"
    assert refused.json()["error"]["code"] == "not_authenticated"
    assert session.get("/api/auth/tokens/").json() == []


def test_a_new_token_replaces_the_old_one():
    user = UserFactory()
    session = APIClient()
    session.force_authenticate(user)
    old = session.post("/api/auth/tokens/").json()["token"]
    new = session.post("/api/auth/tokens/").json()["token"]
    assert old != new
    assert _with_token(old).get("/api/projects/").status_code == 401
    assert _with_token(new).get("/api/projects/").status_code == 200


def test_revoking_one_users_token_leaves_others():
    ann, bob = UserFactory(), UserFactory()
    keys = {}
    for user in (ann, bob):
        client = APIClient()
        client.force_authenticate(user)
        keys[user.pk] = (client, client.post("/api/auth/tokens/").json()["token"])
    keys[ann.pk][0].delete("/api/auth/tokens/")
    assert _with_token(keys[ann.pk][1]).get("/api/auth/me/").status_code == 401
    assert _with_token(keys[bob.pk][1]).get("/api/auth/me/").status_code == 200


def test_anonymous_cannot_manage_tokens():
    assert APIClient().post("/api/auth/tokens/").status_code == 403
