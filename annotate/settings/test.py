"""pytest: the real database from DATABASE_URL (PostgreSQL in CI), SQLite otherwise."""

import os
import re
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

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
# pytest-xdist runs the suite in worker processes gw0, gw1, ... (PYTEST_XDIST_WORKER, also in
# the environment of every process a test starts): what one run shares on the machine is taken
# per worker, so workers never see each other's files or broker messages. Unset: a serial run.
XDIST_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
_WORKER_INDEX = int(XDIST_WORKER.removeprefix("gw")) if XDIST_WORKER else 0
_WORKER_SUFFIX = f"-{XDIST_WORKER}" if XDIST_WORKER else ""
# Tests that need a worker start one in-process (celery.contrib.testing) on real Redis when
# REDIS_URL is set (CI), on a database number of their own so a developer's broker is left
# alone: TEST_BROKER_DB (15 by default) for a serial run and for gw0, one less per worker after
# it (gw1 TEST_BROKER_DB-1, ...): a run with -n N takes databases TEST_BROKER_DB-N+1 to
# TEST_BROKER_DB. Two runs side by side need ranges that do not overlap, or their workers take
# each other's tasks (e.g. CI 15-12 with -n 4, a developer's TEST_BROKER_DB=11 -n 4: 11-8).
TEST_BROKER_DB = int(os.environ.get("TEST_BROKER_DB", "15")) - _WORKER_INDEX
if REDIS_URL and not 0 <= TEST_BROKER_DB <= 15:
    raise ImproperlyConfigured(
        f"worker {XDIST_WORKER} has no Redis database left below TEST_BROKER_DB: "
        "raise TEST_BROKER_DB or run fewer workers (-n)"
    )
CELERY_BROKER_URL = (
    re.sub(r"(/\d+)?$", f"/{TEST_BROKER_DB}", REDIS_URL.rstrip("/"), count=1)
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
# Export files are named by ids that every worker's test database hands out alike.
MEDIA_ROOT = str(VAR_DIR / f"test-media{_WORKER_SUFFIX}")
# Training runs write their checkpoints here (not in the developer's var/training), unless the
# environment names a folder: a test's worker subprocess is started with the test's own
# TRAINING_ROOT (tests/training_runs/test_worker_killed.py finds its trainer by that path).
TRAINING_ROOT = os.environ.get("TRAINING_ROOT") or str(VAR_DIR / f"test-training{_WORKER_SUFFIX}")
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
        "password_issue": "1000/s",
    },
}

for _path in (VAR_DIR, Path(STATIC_ROOT)):
    _path.mkdir(parents=True, exist_ok=True)
# A small project behind its metrics version is computed now whatever its last computation took
# (a duration measured under load would otherwise decide whether a test reads a fresh answer or
# the snapshot); tests/metrics/test_metrics_lag.py sets a budget to test the other path.
METRICS_LIVE_MAX_MS = None
