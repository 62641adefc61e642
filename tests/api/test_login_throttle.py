"""Sign-in is rate-limited per client IP and per username: 429 with Retry-After."""

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def low_rates(settings):
    cache.clear()
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"login_ip": "6/min", "login_user": "3/min"},
    }
    yield
    cache.clear()


def _login(username: str, password: str, ip: str = "10.0.0.1", url: str = "/api/auth/login/"):
    return APIClient(REMOTE_ADDR=ip).post(
        url, {"username": username, "password": password}, format="json"
    )


def test_username_is_throttled_across_addresses():
    UserFactory(username="ann", password="right")
    for i in range(3):
        assert _login("ann", "wrong", ip=f"10.0.1.{i}").status_code == 400
    refused = _login("ANN", "right", ip="10.0.1.99")  # the right password is refused too
    assert refused.status_code == 429
    assert 1 <= int(refused["Retry-After"]) <= 60
    error = refused.json()["error"]
    assert error["code"] == "throttled"
    assert error["message"].startswith("Too many sign-in attempts. Try again in")
    assert _login("other", "wrong", ip="10.0.1.99").status_code == 400  # others unaffected


def test_address_is_throttled_across_usernames():
    for i in range(6):
        assert _login(f"user{i}", "wrong", ip="10.0.2.1").status_code == 400
    assert _login("user9", "wrong", ip="10.0.2.1").status_code == 429
    assert _login("user9", "wrong", ip="10.0.2.2").status_code == 400


def test_token_exchange_is_throttled_too():
    UserFactory(username="bot", password="right")
    for _ in range(3):
        assert _login("bot", "wrong", url="/api/auth/token/").status_code == 400
    assert _login("bot", "right", url="/api/auth/token/").status_code == 429


def test_successful_logins_below_the_rate_pass():
    UserFactory(username="ann", password="right")
    for _ in range(3):
        assert _login("ann", "right").status_code == 200


def test_a_forged_forwarded_for_does_not_escape_the_address_throttle():
    """Issue 24: a client that changed X-Forwarded-For on each try was never throttled."""
    for i in range(6):
        client = APIClient(REMOTE_ADDR="10.0.3.1", HTTP_X_FORWARDED_FOR=f"198.51.100.{i}")
        response = client.post("/api/auth/login/", {"username": f"u{i}", "password": "x"})
        assert response.status_code == 400
    client = APIClient(REMOTE_ADDR="10.0.3.1", HTTP_X_FORWARDED_FOR="198.51.100.77")
    assert client.post("/api/auth/login/", {"username": "u9", "password": "x"}).status_code == 429


def test_behind_one_trusted_proxy_the_clients_address_is_the_last_hop(settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    for i in range(6):  # the client forges a first hop; our proxy appends the real one
        forwarded = f"203.0.113.{i}, 192.0.2.10"
        client = APIClient(REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR=forwarded)
        assert (
            client.post("/api/auth/login/", {"username": f"u{i}", "password": "x"}).status_code
            == 400
        )
    client = APIClient(REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="192.0.2.11")
    assert client.post("/api/auth/login/", {"username": "u9", "password": "x"}).status_code == 400
    client = APIClient(REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="1.2.3.4, 192.0.2.10")
    assert client.post("/api/auth/login/", {"username": "u9", "password": "x"}).status_code == 429


@pytest.mark.parametrize("spelling", ["ANN", " ann ", "ａｎｎ"])
def test_one_account_however_it_is_spelled(spelling):
    for i in range(3):
        assert _login("ann", "wrong", ip=f"10.0.4.{i}").status_code == 400
    assert _login(spelling, "wrong", ip="10.0.4.9").status_code == 429


def test_odd_usernames_make_no_cache_key_warning(recwarn):
    for name in ("code execution", "\x03", "\x08æ\U00033790s"):
        _login(name, "wrong")
    assert not [w for w in recwarn if "CacheKeyWarning" in type(w.message).__name__]


def test_invite_links_and_password_resets_are_throttled_per_address():
    client = APIClient(REMOTE_ADDR="10.0.3.1")
    for i in range(3):
        assert client.get(f"/api/invites/guess-{i}/").status_code == 404
    for i in range(3):
        response = client.post("/api/auth/password/reset/", {"email": f"x{i}@example.org"})
        assert response.status_code == 204
    refused = client.post(
        "/api/invites/guess-9/accept/", {"username": "mallory", "password": "x"}, format="json"
    )
    assert refused.status_code == 429
    assert refused.json()["error"]["message"].startswith("Too many attempts. Try again in")
    assert APIClient(REMOTE_ADDR="10.0.3.2").get("/api/invites/guess-9/").status_code == 404
