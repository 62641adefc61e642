"""The default cache: Redis, and a per-process memory cache while Redis is unreachable.

Redis is both the Celery broker and this cache; when it is down, a cache call must not turn a
request into a 500. The sign-in throttles (labeling.api.throttles) and the progress counts
(labeling.selectors.labeling_page) count in this cache, so every call that fails with a Redis
error is answered by a LocMemCache of this process instead, with a warning logged at most
once a minute per process. The throttles therefore keep working while Redis is down, per process
(each gunicorn worker counts apart, so a client may get up to workers x the rate) rather than
failing open; values written then are not seen once Redis is back, which only costs a cache
miss. Connect and read timeouts (OPTIONS in settings) bound a Redis that hangs.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

log = logging.getLogger(__name__)
WARN_EVERY_S = 60.0

_GUARDED = (
    "add", "get", "set", "touch", "delete", "get_many", "has_key", "incr", "decr",
    "set_many", "delete_many", "clear",
)  # fmt: skip


class FallbackRedisCache(RedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        timeout = {"TIMEOUT": params.get("TIMEOUT", 300)}
        self.fallback = LocMemCache(f"redis-fallback-{id(self)}", timeout)
        self._warned_at = float("-inf")

    def _on_error(self, name: str, exc: Exception) -> None:
        now = time.monotonic()
        if now - self._warned_at >= WARN_EVERY_S:
            self._warned_at = now
            log.warning("cache: Redis unreachable (%s: %s); using this process's memory", name, exc)


def _guarded(name: str):
    def method(self: FallbackRedisCache, *args: Any, **kwargs: Any) -> Any:
        try:
            return getattr(RedisCache, name)(self, *args, **kwargs)
        except (RedisError, OSError) as exc:
            self._on_error(name, exc)
            return getattr(self.fallback, name)(*args, **kwargs)

    method.__name__ = name
    return method


for _name in _GUARDED:
    setattr(FallbackRedisCache, _name, _guarded(_name))
