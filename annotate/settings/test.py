"""pytest: the real database from DATABASE_URL (PostgreSQL in CI), SQLite otherwise."""

import os
import re
from pathlib import Path

from .base import *  # noqa: F401,F403
from .base import (
    DATABASES,
    REDIS_URL,
    REST_FRAMEWORK,
    STATIC_ROOT,
    VAR_DIR,
    redis_transport_options,
)

DEBUG = False
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # A file, not :memory:, so worker threads and the live server see the same test database;
    # one per pytest process, so two runs side by side do not share it.
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / f"test-{os.getpid()}.sqlite3")}
# Tests that need a worker start one in-process (celery.contrib.testing) on real Redis when
# REDIS_URL is set (CI), on its own database number so a developer's broker is left alone:
# TEST_BROKER_DB (15 by default; two test runs side by side need two, or their workers take
# each other's tasks).
_BROKER_DB = int(os.environ.get("TEST_BROKER_DB", "15"))
CELERY_BROKER_URL = (
    re.sub(r"(/\d+)?$", f"/{_BROKER_DB}", REDIS_URL.rstrip("/"), count=1)
    if REDIS_URL
    else "memory://"
)
CELERY_BROKER_TRANSPORT_OPTIONS = redis_transport_options(CELERY_BROKER_URL)
CELERY_RESULT_BACKEND = "cache+memory://"
CELERY_TASK_ACKS_LATE = False
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
MEDIA_ROOT = str(VAR_DIR / "test-media")
# One process per export whatever the machine's CPUs ("auto" forked a formatting process on two
# cores and not on one: the same test took another path, and tests/exports/test_streaming.py's
# tracemalloc saw only the reading half). The two-process path has its own explicit tests
# (tests/exports/test_format_process.py sets "always" and "auto").
EXPORT_FORMAT_PROCESS = "never"
# Per-process cache (not a developer's Redis); sign-in throttles high enough for the E2E tests'
# many logins from one address (tests/api/test_login_throttle.py sets low rates).
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
REST_FRAMEWORK = {
    **REST_FRAMEWORK,
    "DEFAULT_THROTTLE_RATES": {
        "login_ip": "10000/min",
        "login_user": "10000/min",
        "draft": "1000/s",
        "predictions": "1000/s",
    },
}

for _path in (VAR_DIR, Path(STATIC_ROOT)):
    _path.mkdir(parents=True, exist_ok=True)
# A small project behind its metrics version is computed now whatever its last computation took
# (a duration measured under load would otherwise decide whether a test reads a fresh answer or
# the snapshot); tests/metrics/test_metrics_lag.py sets a budget to test the other path.
METRICS_LIVE_MAX_MS = None
