"""Personal access tokens: several per user, named, optionally expiring, revoked one by one.

A revoked or expired token gets 401 at once with a message that says which; the database holds
only the secret's sha256; last_used_at is written at most once a minute; legacy DRF tokens are
converted by a data migration so old scripts keep working.
"""

import hashlib
import importlib
from datetime import timedelta

import pytest
from django.apps import apps as django_apps
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from labeling.models import ApiToken
from labeling.services.people.tokens import token_create
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

LIST_KEYS = {"id", "name", "prefix", "created_at", "expires_at", "last_used_at", "expired"}


def _with_token(key: str, keyword: str = "Token") -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"{keyword} {key}")
    return client


def _session(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _refused(response, message: str) -> None:
    assert response.status_code == 401, response.content
    assert response["WWW-Authenticate"] == "Token"
    error = response.json()["error"]
    assert error["code"] == "not_authenticated"
    assert error["message"] == message


def test_create_list_use_and_revoke():
    user = UserFactory(username="ann")
    session = _session(user)
    assert session.get("/api/auth/tokens/").json()["results"] == []

    created = session.post(
        "/api/auth/tokens/", {"name": "training box", "expires_in_days": 30}, format="json"
    )
    assert created.status_code == 201, created.content
    body = created.json()
    key = body["token"]
    assert key.startswith("stp_") and len(key) == 44 and key[4:].isalnum()
    assert body["name"] == "training box"
    assert body["prefix"] == key[:8]
    assert body["last_used_at"] is None and body["expired"] is False
    expires = timezone.datetime.fromisoformat(body["expires_at"])
    assert timedelta(days=29, hours=23) < expires - timezone.now() <= timedelta(days=30)

    listed = session.get("/api/auth/tokens/").json()["results"]
    assert len(listed) == 1
    assert set(listed[0]) == LIST_KEYS  # never the secret, never the hash
    assert {k: v for k, v in body.items() if k != "token"} == listed[0]

    assert _with_token(key).get("/api/auth/me/").json()["username"] == "ann"
    assert session.delete(f"/api/auth/tokens/{body['id']}/").status_code == 204
    _refused(_with_token(key).get("/api/auth/me/"), "This token was revoked.")
    assert session.get("/api/auth/tokens/").json()["results"] == []
    # Revoked is gone from the owner's view: a second revoke finds nothing.
    assert session.delete(f"/api/auth/tokens/{body['id']}/").status_code == 404


def test_bearer_and_token_keywords_are_both_accepted():
    user = UserFactory(username="kw")
    key = token_create(user=user, name="ci").key
    for keyword in ("Token", "Bearer", "bearer", "token"):
        response = _with_token(key, keyword).get("/api/auth/me/")
        assert response.status_code == 200, keyword
        assert response.json()["username"] == "kw"
    # Other schemes are not ours: the request is anonymous (403), not a wrong token (401).
    assert _with_token(key, "Basic").get("/api/projects/").status_code == 403
    assert _with_token(key, "Basic").get("/api/auth/me/").json()["authenticated"] is False


def test_revoking_one_of_two_leaves_the_other():
    user = UserFactory()
    session = _session(user)
    first = session.post("/api/auth/tokens/", {"name": "laptop"}, format="json").json()
    second = session.post("/api/auth/tokens/", {"name": "CI export"}, format="json").json()
    assert first["expires_at"] is None  # no expiry asked: never
    listed = session.get("/api/auth/tokens/").json()["results"]
    assert [t["name"] for t in listed] == ["CI export", "laptop"]

    assert session.delete(f"/api/auth/tokens/{first['id']}/").status_code == 204
    _refused(_with_token(first["token"]).get("/api/projects/"), "This token was revoked.")
    assert _with_token(second["token"]).get("/api/projects/").status_code == 200
    assert [t["id"] for t in session.get("/api/auth/tokens/").json()["results"]] == [second["id"]]


def test_another_users_token_cannot_be_revoked_or_seen():
    ann, bob = UserFactory(), UserFactory()
    bobs = token_create(user=bob, name="bob's")
    ann_session = _session(ann)
    assert ann_session.get("/api/auth/tokens/").json()["results"] == []
    assert ann_session.delete(f"/api/auth/tokens/{bobs.token.pk}/").status_code == 404
    assert ann_session.delete("/api/auth/tokens/999999/").status_code == 404
    assert _with_token(bobs.key).get("/api/auth/me/").status_code == 200


def test_an_expired_token_is_refused_with_its_date(monkeypatch):
    user = UserFactory()
    session = _session(user)
    body = session.post(
        "/api/auth/tokens/", {"name": "week", "expires_in_days": 7}, format="json"
    ).json()
    assert _with_token(body["token"]).get("/api/auth/me/").status_code == 200

    token = ApiToken.objects.get(pk=body["id"])
    later = token.expires_at + timedelta(seconds=1)
    monkeypatch.setattr(timezone, "now", lambda: later)
    day = token.expires_at.date().isoformat()  # TIME_ZONE is UTC
    _refused(_with_token(body["token"]).get("/api/auth/me/"), f"This token expired on {day}.")
    # Still listed, marked expired, so its owner sees why the script stopped.
    assert session.get("/api/auth/tokens/").json()["results"][0]["expired"] is True


def test_an_inactive_users_token_is_refused():
    user = UserFactory()
    key = token_create(user=user).key
    user.is_active = False
    user.save(update_fields=["is_active"])
    _refused(_with_token(key).get("/api/auth/me/"), "This token's user is inactive.")


def test_unknown_and_malformed_tokens_are_refused():
    _refused(_with_token("stp_nope").get("/api/auth/me/"), "Invalid token.")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Bearer")
    assert client.get("/api/auth/me/").status_code == 401
    client.credentials(HTTP_AUTHORIZATION="Token a b")
    assert client.get("/api/auth/me/").status_code == 401


def test_the_database_never_holds_the_secret():
    user = UserFactory()
    new = token_create(user=user, name="scan me")
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT * FROM {ApiToken._meta.db_table}")
        stored = [str(value) for row in cursor.fetchall() for value in row]
    assert not any(new.key in value for value in stored)
    row = ApiToken.objects.get(pk=new.token.pk)
    assert row.key_hash == hashlib.sha256(new.key.encode()).hexdigest()
    assert row.prefix == new.key[:8] and len(row.prefix) == 8
    assert not hasattr(row, "key")


def test_last_used_at_is_written_at_most_once_a_minute():
    user = UserFactory()
    new = token_create(user=user, name="busy")
    client = _with_token(new.key)
    table = ApiToken._meta.db_table

    def updates() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert client.get("/api/auth/me/").status_code == 200
        return sum(1 for q in queries if q["sql"].startswith("UPDATE") and table in q["sql"])

    assert updates() == 1
    first = ApiToken.objects.get(pk=new.token.pk).last_used_at
    assert first is not None and timezone.now() - first < timedelta(seconds=5)
    assert updates() == 0
    assert updates() == 0
    assert ApiToken.objects.get(pk=new.token.pk).last_used_at == first

    ApiToken.objects.filter(pk=new.token.pk).update(last_used_at=first - timedelta(seconds=61))
    assert updates() == 1
    assert ApiToken.objects.get(pk=new.token.pk).last_used_at > first
    listed = _session(user).get("/api/auth/tokens/").json()["results"][0]
    assert listed["last_used_at"] is not None


def test_legacy_drf_tokens_are_converted_with_the_same_secret():
    migration = importlib.import_module("labeling.migrations.0012_apitoken_from_authtoken")
    ann, bob = UserFactory(username="legacy-ann"), UserFactory(username="legacy-bob")
    legacy = {u.pk: Token.objects.create(user=u) for u in (ann, bob)}
    old_key = legacy[ann.pk].key
    # Before the conversion the old key is not an API token: nothing authenticates it.
    assert _with_token(old_key).get("/api/auth/me/").status_code == 401

    assert migration.convert_legacy_tokens(django_apps, None) == 2
    assert not Token.objects.exists()  # the plain-text secrets are gone
    converted = ApiToken.objects.get(user=ann)
    assert converted.name == "API token"
    assert converted.prefix == old_key[:8]
    assert converted.created_at == legacy[ann.pk].created
    assert converted.expires_at is None
    assert converted.key_hash == hashlib.sha256(old_key.encode()).hexdigest()
    assert _with_token(old_key).get("/api/auth/me/").json()["username"] == "legacy-ann"
    assert _with_token(legacy[bob.pk].key, "Bearer").get("/api/auth/me/").status_code == 200
    # Running it again converts nothing and doubles nothing.
    assert migration.convert_legacy_tokens(django_apps, None) == 0
    assert ApiToken.objects.count() == 2


def test_password_login_creates_a_named_expiring_token_each_time():
    UserFactory(username="script", password="pw-for-tests")
    creds = {"username": "script", "password": "pw-for-tests"}
    first = APIClient().post("/api/auth/token/", creds, format="json")
    second = APIClient().post("/api/auth/token/", creds, format="json")
    assert first.status_code == second.status_code == 200
    assert set(first.json()) == {"token"}  # the response shape scripts rely on
    keys = [first.json()["token"], second.json()["token"]]
    assert keys[0] != keys[1]
    for key in keys:
        assert _with_token(key).get("/api/auth/me/").json()["username"] == "script"
    tokens = ApiToken.objects.filter(user__username="script")
    assert {t.name for t in tokens} == {"API token (password login)"}
    for token in tokens:
        assert timedelta(days=29, hours=23) < token.expires_at - timezone.now() <= timedelta(30)

    named = APIClient().post(
        "/api/auth/token/", {**creds, "name": "nightly", "expires_in_days": None}, format="json"
    )
    assert named.status_code == 200
    token = ApiToken.objects.get(user__username="script", name="nightly")
    assert token.expires_at is None


def test_password_login_refuses_a_bad_expiry_after_checking_the_password():
    UserFactory(username="script2", password="pw-for-tests")
    bad = APIClient().post(
        "/api/auth/token/",
        {"username": "script2", "password": "pw-for-tests", "expires_in_days": 0},
        format="json",
    )
    assert bad.status_code == 400
    assert bad.json()["error"]["message"].startswith("expires_in_days:")
    assert not ApiToken.objects.exists()


@pytest.mark.parametrize(
    "payload,field",
    [
        ({}, "name"),
        ({"name": "   "}, "name"),
        ({"name": "x" * 101}, "name"),
        ({"name": "ok", "expires_in_days": 0}, "expires_in_days"),
        ({"name": "ok", "expires_in_days": 3651}, "expires_in_days"),
        ({"name": "ok", "expires_in_days": "soon"}, "expires_in_days"),
    ],
)
def test_bad_input_names_the_field(payload, field):
    session = _session(UserFactory())
    response = session.post("/api/auth/tokens/", payload, format="json")
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["code"] == "validation_error"
    assert field in error["details"]
    assert error["message"].startswith(f"{field}:")
    assert not ApiToken.objects.exists()


def test_the_service_validates_too():
    from labeling.errors import ValidationFailed

    user = UserFactory()
    with pytest.raises(ValidationFailed) as blank:
        token_create(user=user, name="")
    assert blank.value.details == {"field": "name"}
    with pytest.raises(ValidationFailed) as long_:
        token_create(user=user, name="ok", expires_in_days=10_000)
    assert long_.value.details == {"field": "expires_in_days"}


def test_anonymous_cannot_manage_tokens():
    assert APIClient().get("/api/auth/tokens/").status_code == 403
    assert APIClient().post("/api/auth/tokens/", {"name": "x"}, format="json").status_code == 403
    assert APIClient().delete("/api/auth/tokens/1/").status_code == 403


def test_an_admin_sees_and_revokes_a_users_tokens_in_the_django_admin(client):
    owner = UserFactory(username="owner")
    new = token_create(user=owner, name="training box", expires_in_days=90)
    admin_user = UserFactory(username="root", is_staff=True, is_superuser=True)
    client.force_login(admin_user)

    user_page = client.get(f"/admin/auth/user/{owner.pk}/change/")
    assert user_page.status_code == 200
    assert b"training box" in user_page.content and new.token.prefix.encode() in user_page.content
    listing = client.get("/admin/labeling/apitoken/", {"q": "owner"})
    assert b"training box" in listing.content
    assert new.key.encode() not in listing.content + user_page.content
    assert client.get("/admin/labeling/apitoken/add/").status_code == 403
    assert client.get("/admin/authtoken/tokenproxy/").status_code == 404  # the legacy page is gone

    client.post(
        "/admin/labeling/apitoken/",
        {"action": "revoke", "_selected_action": [new.token.pk]},
    )
    _refused(_with_token(new.key).get("/api/auth/me/"), "This token was revoked.")


def test_tokens_dead_for_longer_than_the_keep_period_are_pruned():
    from labeling.services.people.tokens import token_revoke, tokens_prune

    user = UserFactory()
    now = timezone.now()
    live = token_create(user=user, name="live").token
    never = token_create(user=user, name="never expires").token
    old_revoked = token_revoke(token=token_create(user=user, name="old revoked").token)
    recent_revoked = token_revoke(token=token_create(user=user, name="recent revoked").token)
    old_expired = token_create(user=user, name="old expired", expires_in_days=1).token
    recent_expired = token_create(user=user, name="recent expired", expires_in_days=1).token
    ApiToken.objects.filter(pk=old_revoked.pk).update(revoked_at=now - timedelta(days=91))
    ApiToken.objects.filter(pk=recent_revoked.pk).update(revoked_at=now - timedelta(days=89))
    ApiToken.objects.filter(pk=old_expired.pk).update(expires_at=now - timedelta(days=91))
    ApiToken.objects.filter(pk=recent_expired.pk).update(expires_at=now - timedelta(days=2))

    assert tokens_prune(keep_days=90, now=now) == 2
    left = set(ApiToken.objects.values_list("pk", flat=True))
    assert left == {live.pk, never.pk, recent_revoked.pk, recent_expired.pk}


def test_a_user_keeps_at_most_live_max_live_tokens(monkeypatch):
    """Past LIVE_MAX live tokens, a password login revokes the least recently used login token
    (the script's newest keeps working); a token of a new name is refused (409), nothing made;
    revoked and expired tokens do not count."""
    monkeypatch.setattr("labeling.services.people.tokens.LIVE_MAX", 3)
    user = UserFactory(username="script", password="pw-for-tests")
    creds = {"username": "script", "password": "pw-for-tests"}
    dead = token_create(user=user, name="old")
    _session(user).delete(f"/api/auth/tokens/{dead.token.pk}/")
    token_create(user=user, name="gone", expires_in_days=1)
    ApiToken.objects.filter(name="gone").update(expires_at=timezone.now() - timedelta(days=1))
    keys = [APIClient().post("/api/auth/token/", creds, format="json").json()["token"]]
    keys.append(APIClient().post("/api/auth/token/", creds, format="json").json()["token"])
    assert _with_token(keys[0]).get("/api/auth/me/").status_code == 200  # used: now the newer
    keys.append(APIClient().post("/api/auth/token/", creds, format="json").json()["token"])
    live = ApiToken.objects.filter(user=user, revoked_at__isnull=True, name__startswith="API")
    assert live.count() == 3

    keys.append(APIClient().post("/api/auth/token/", creds, format="json").json()["token"])
    assert live.count() == 3
    assert _with_token(keys[1]).get("/api/auth/me/").status_code == 401  # never used: it went
    for key in (keys[0], keys[2], keys[3]):
        assert _with_token(key).get("/api/auth/me/").status_code == 200

    before = ApiToken.objects.count()
    refused = _session(user).post("/api/auth/tokens/", {"name": "ci"}, format="json")
    assert refused.status_code == 409, refused.content
    assert refused.json()["error"]["code"] == "conflict"
    assert "Revoke some" in refused.json()["error"]["message"]
    assert ApiToken.objects.count() == before
