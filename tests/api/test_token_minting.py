"""A token cannot mint a token that outlives it (issue 24: a 1-day token minted a token that
never expired). A minted token expires no later than its parent and is revoked with it."""

from datetime import timedelta

import pytest
from rest_framework.test import APIClient

from labeling.models import ApiToken
from labeling.services.people.tokens import token_create
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _with(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def _mint(key: str, expires_in_days=None):
    body = {"name": "child", "expires_in_days": expires_in_days}
    response = _with(key).post("/api/auth/tokens/", body, format="json")
    assert response.status_code == 201, response.content
    return response.json()


@pytest.mark.parametrize("asked", [None, 30, 3650])
def test_a_minted_token_expires_no_later_than_its_parent(asked):
    user = UserFactory()
    parent = token_create(user=user, name="short", expires_in_days=1)
    child = _mint(parent.key, asked)
    assert child["expires_at"] is not None
    child_row = ApiToken.objects.get(pk=child["id"])
    assert child_row.expires_at <= parent.token.expires_at
    assert child_row.minted_by_id == parent.token.pk


def test_a_shorter_expiry_than_the_parent_is_kept():
    parent = token_create(user=UserFactory(), name="p", expires_in_days=30)
    child = ApiToken.objects.get(pk=_mint(parent.key, 2)["id"])
    assert child.expires_at < parent.token.expires_at - timedelta(days=27)


def test_grandchildren_are_bounded_too_and_die_with_the_root():
    parent = token_create(user=UserFactory(), name="p", expires_in_days=1)
    child = _mint(parent.key)
    grandchild = _mint(child["token"])
    assert ApiToken.objects.get(pk=grandchild["id"]).expires_at <= parent.token.expires_at
    assert _with(grandchild["token"]).get("/api/auth/tokens/").status_code == 200

    revoked = _with(parent.key).delete(f"/api/auth/tokens/{parent.token.pk}/")
    assert revoked.status_code == 204
    for key in (parent.key, child["token"], grandchild["token"]):
        assert _with(key).get("/api/auth/tokens/").status_code == 401


def test_revoking_a_child_leaves_its_parent():
    parent = token_create(user=UserFactory(), name="p", expires_in_days=1)
    child = _mint(parent.key)
    assert _with(parent.key).delete(f"/api/auth/tokens/{child['id']}/").status_code == 204
    assert _with(parent.key).get("/api/auth/tokens/").status_code == 200
    assert _with(child["token"]).get("/api/auth/tokens/").status_code == 401


def test_a_signed_in_session_still_makes_a_token_that_never_expires():
    client = APIClient()
    client.force_authenticate(UserFactory())
    created = client.post("/api/auth/tokens/", {"name": "ci"}, format="json").json()
    assert created["expires_at"] is None
    assert ApiToken.objects.get(pk=created["id"]).minted_by is None
