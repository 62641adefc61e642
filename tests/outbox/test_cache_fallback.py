"""Redis (the cache) down: sign-in and its throttles keep working on a per-process cache.

The cache is annotate.cache.FallbackRedisCache pointed at a port nobody listens on: every
Redis call really fails (connection refused) and is answered by the process's memory cache.
"""

import logging

import pytest
from rest_framework.test import APIClient

from annotate.cache import FallbackRedisCache
from bench.load.procs import free_port
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def redis_down(settings):
    settings.CACHES = {
        "default": {
            "BACKEND": "annotate.cache.FallbackRedisCache",
            "LOCATION": f"redis://127.0.0.1:{free_port()}/0",
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"login_ip": "100/min", "login_user": "3/min"},
    }


def _login(username: str, password: str, url: str = "/api/auth/login/"):
    return APIClient().post(url, {"username": username, "password": password}, format="json")


def test_sign_in_and_token_creation_work_and_the_throttle_still_counts(redis_down, caplog):
    from django.core.cache import caches

    assert isinstance(caches["default"], FallbackRedisCache)
    UserFactory(username="ann", password="right")
    with caplog.at_level(logging.WARNING, logger="annotate.cache"):
        assert _login("ann", "right").status_code == 200
        token = _login("ann", "right", url="/api/auth/token/")
        assert token.status_code in (200, 201), token.content
        assert token.json()["token"]
        assert _login("ann", "wrong").status_code == 400
        refused = _login("ann", "right")
    assert refused.status_code == 429 and refused["Retry-After"]
    assert "Redis unreachable" in caplog.text


def test_fallback_answers_every_cache_call(redis_down):
    cache = FallbackRedisCache(f"redis://127.0.0.1:{free_port()}/0", {})
    assert cache.get("k") is None
    cache.set("k", 1)
    assert cache.get("k") == 1 and cache.incr("k") == 2
    assert cache.get_or_set("n", lambda: 5) == 5
    assert cache.add("k", 9) is False
    cache.delete("k")
    assert cache.get_many(["k", "n"]) == {"n": 5}
