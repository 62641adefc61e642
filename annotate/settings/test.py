"""pytest: the real database from DATABASE_URL (PostgreSQL in CI), SQLite otherwise."""

from .base import *  # noqa: F401,F403
import re

from .base import DATABASES, REDIS_URL, VAR_DIR

DEBUG = False
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # A file, not :memory:, so worker threads and the live server see the same test database.
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / "test.sqlite3")}
# Tests that need a worker start one in-process (celery.contrib.testing) on real Redis when
# REDIS_URL is set (CI), on its own database number so a developer's broker is left alone.
CELERY_BROKER_URL = (
    re.sub(r"(/\d+)?$", "/15", REDIS_URL.rstrip("/"), count=1) if REDIS_URL else "memory://"
)
CELERY_RESULT_BACKEND = "cache+memory://"
CELERY_TASK_ACKS_LATE = False
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
