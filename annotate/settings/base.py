"""Settings shared by every environment.

Everything a deployer changes comes from the environment (django-environ); the embedded
defaults give a working local setup with no services: SQLite for the database and kombu's
SQLAlchemy transport on a SQLite file for the Celery broker.
"""

import json
import os
from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent.parent
VAR_DIR = BASE_DIR / "var"

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

SECRET_KEY = env("SECRET_KEY", default="insecure-local-key-change-me-in-production-0123456789")
DEBUG = env.bool("DEBUG", default=False)
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    # Only so that labeling's migration 0012 can convert legacy DRF tokens to ApiToken rows;
    # nothing authenticates with it (labeling/api/tokens_auth.py does).
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "labeling",
    "autolabel",
    "training_runs",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "annotate.security.ContentSecurityPolicyMiddleware",
    # Gzip for large /api/ JSON; outside the session and CSRF middleware, so it sees the
    # cookies they set (an answer that sets one is never compressed: BREACH).
    "annotate.compression.ApiGzipMiddleware",
    # WhiteNoise, collected (compressed) copies first, Vite's hashed assets for a year.
    "annotate.static.StaticFilesMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # A path id past the bigint range is a 404 before the view (SQLite's driver raised).
    "annotate.path_ids.PathIdBoundsMiddleware",
]

ROOT_URLCONF = "annotate.urls"
# /api/ JSON answers at least this long are gzipped for clients that accept it
# (annotate/compression.py), at this zlib level (1 fastest, 9 smallest: 1 gives 15x on a
# 5,000-step claim at a quarter of level 6's time).
API_GZIP_MIN_BYTES = env.int("API_GZIP_MIN_BYTES", default=4096)
API_GZIP_LEVEL = env.int("API_GZIP_LEVEL", default=1)
# Headers every response carries (production.py adds HSTS, the SSL redirect, secure cookies).
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
# The SPA reads the CSRF cookie to send it back as X-CSRFToken, so it cannot be HttpOnly.
CSRF_COOKIE_SAMESITE = "Lax"
WSGI_APPLICATION = "annotate.wsgi.application"
ASGI_APPLICATION = "annotate.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "annotate" / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": env.db("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'steplab.sqlite3'}"),
}
DATABASES["default"]["ATOMIC_REQUESTS"] = False
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Django's backend with a health check that skips the round trip on a connection used
    # within the last second (annotate/db/postgresql/base.py).
    DATABASES["default"]["ENGINE"] = "annotate.db.postgresql"
    # The labeling loop is many short transactions. Persistent connections (checked before
    # reuse) save a connect per request; JIT compilation is off because it costs a claim more
    # than the whole query (it once took 796 of 919 ms); a statement timeout (gunicorn.conf.py
    # sets 30 s for the web; 0 = none, as for workers' long exports) bounds a stuck request.
    DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("DB_CONN_MAX_AGE", default=600))
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    # Behind PgBouncer in transaction mode (docs/operators.md → Scaling out).
    DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = env.bool(
        "DB_DISABLE_SERVER_SIDE_CURSORS", default=False
    )
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault(
        "options",
        f"-c jit=off -c statement_timeout={env.int('DB_STATEMENT_TIMEOUT_MS', default=0)}",
    )
# The labeling loop's fixed statements run prepared on PostgreSQL (labeling/pg/compiled.py's
# hot_cursor); false for PgBouncer in transaction mode before 1.21 (no prepared statements).
PREPARED_STATEMENTS = env.bool("DB_PREPARED_STATEMENTS", default=True)
if PREPARED_STATEMENTS and DATABASES["default"]["ENGINE"] == "annotate.db.postgresql":
    # psycopg prepares a statement on its 5th run on a connection; Django's default (None)
    # turns that off. Only server-binding cursors prepare: Django's own queries bind on the
    # client and are not affected.
    DATABASES["default"]["OPTIONS"].setdefault("prepare_threshold", 5)
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # A worker and the web server share the file: wait for the write lock instead of failing.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"timeout": 30, "transaction_mode": "IMMEDIATE"}
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Sign-in ignores the username's case (labeling/accounts/auth_backend.py); names are unique by
# labeling.accounts.usernames.username_key.
AUTHENTICATION_BACKENDS = ["labeling.accounts.auth_backend.CaseInsensitiveModelBackend"]

# Password reset e-mails: printed to the console unless a deployer configures a backend
# (EMAIL_BACKEND=django.core.mail.backends.smtp.EmailBackend, EMAIL_HOST, EMAIL_PORT, ...).
EMAIL_BACKEND = env("EMAIL_BACKEND", default="django.core.mail.backends.console.EmailBackend")
EMAIL_HOST = env("EMAIL_HOST", default="localhost")
EMAIL_PORT = env.int("EMAIL_PORT", default=25)
EMAIL_HOST_USER = env("EMAIL_HOST_USER", default="")
EMAIL_HOST_PASSWORD = env("EMAIL_HOST_PASSWORD", default="")
EMAIL_USE_TLS = env.bool("EMAIL_USE_TLS", default=False)
DEFAULT_FROM_EMAIL = env("DEFAULT_FROM_EMAIL", default="steplab <steplab@localhost>")
# How long an e-mailed reset link works (Django's PasswordResetTokenGenerator), in seconds.
PASSWORD_RESET_TIMEOUT = env.int("PASSWORD_RESET_TIMEOUT", default=3 * 24 * 3600)

LANGUAGE_CODE = "en-us"
TIME_ZONE = env("TIME_ZONE", default="UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = env("STATIC_ROOT", default=str(VAR_DIR / "static"))
FRONTEND_DIST = BASE_DIR / "frontend" / "dist"
STATICFILES_DIRS = [FRONTEND_DIST] if FRONTEND_DIST.exists() else []
MEDIA_ROOT = env("MEDIA_ROOT", default=str(VAR_DIR / "media"))
MEDIA_URL = "/media/"
MEDIA_FETCH_ALLOW_PRIVATE = env.bool("MEDIA_FETCH_ALLOW_PRIVATE", default=False)  # SSRF guard off
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # gzip and Brotli copies beside each collected file (annotate/static.py).
    "staticfiles": {"BACKEND": "annotate.static.IncrementalCompressedStorage"},
}
WHITENOISE_USE_FINDERS = True

LOGIN_URL = "/login"

# Uploads: a big import file streams to disk instead of memory.
FILE_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024
DATA_UPLOAD_MAX_MEMORY_SIZE = 10 * 1024 * 1024
# An import file's bounds once decompressed: bytes, lines, and a gzip's expansion ratio (a 1 MB
# gzip bomb fails fast instead of holding a worker; labeling/importers/reader.py).
IMPORT_MAX_DECOMPRESSED_BYTES = env.int("IMPORT_MAX_DECOMPRESSED_BYTES", default=8 * 1024**3)
IMPORT_MAX_LINES = env.int("IMPORT_MAX_LINES", default=20_000_000)
IMPORT_MAX_GZIP_RATIO = env.int("IMPORT_MAX_GZIP_RATIO", default=100)
# Bounds on what an API client sends: JSON nesting, and the page size of every list.
JSON_MAX_DEPTH = env.int("JSON_MAX_DEPTH", default=32)
API_MAX_PAGE_SIZE = env.int("API_MAX_PAGE_SIZE", default=200)
IMPORT_MAX_BYTES = env.int("IMPORT_MAX_BYTES", default=2 * 1024 * 1024 * 1024)
# Uploaded predictions (POST /api/projects/<id>/predictions/,
# labeling/services/imports/predictions.py):
# the body's bytes (a gzip's also once decompressed), its lines or array items, and the step
# entries of one solution's prediction.
PREDICTIONS_MAX_BYTES = env.int("PREDICTIONS_MAX_BYTES", default=256 * 1024 * 1024)
PREDICTIONS_MAX_LINES = env.int("PREDICTIONS_MAX_LINES", default=1_000_000)
# As many step entries a line as a solution has steps (labeling/importers/limits.py STEPS_MAX).
PREDICTIONS_MAX_STEPS = env.int("PREDICTIONS_MAX_STEPS", default=20_000)

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        # API tokens (labeling.models.ApiToken): "Token <secret>" or "Bearer <secret>".
        "labeling.api.tokens_auth.ApiTokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": [
        "rest_framework.permissions.IsAuthenticated",
        # A temporary password must be changed before any other write (labeling/api/permissions.py).
        "labeling.api.permissions.PasswordChanged",
    ],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # JSON only: DRF's default also offers its browsable HTML pages, which a client asking
    # `Accept: text/html` got for errors too (every /api/ error is the one JSON shape). An Accept
    # that JSON cannot satisfy is a 406 in that shape (tests/api/test_hostile_sweep.py).
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "EXCEPTION_HANDLER": "labeling.api.errors.exception_handler",
    "DEFAULT_PAGINATION_CLASS": "labeling.api.pagination.BoundedLimitOffsetPagination",
    # JSON bodies nested deeper than JSON_MAX_DEPTH are a 400 (labeling/api/parsers.py).
    "DEFAULT_PARSER_CLASSES": [
        "labeling.api.parsers.BoundedJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "PAGE_SIZE": 50,
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    # Proxies in front of the app whose X-Forwarded-For is trusted (0: none, use REMOTE_ADDR).
    "NUM_PROXIES": env.int("NUM_PROXIES", default=0),
    # Sign-in attempts (labeling/api/throttles.py): per client IP and per username.
    "DEFAULT_THROTTLE_RATES": {
        "login_ip": env("LOGIN_RATE_IP", default="30/min"),
        "login_user": env("LOGIN_RATE_USER", default="10/min"),
        # Draft saves per user (labeling/api/throttles.py DraftThrottle).
        "draft": env("DRAFT_RATE", default="20/s"),
        # Prediction uploads per user (labeling/api/predictions.py).
        "predictions": env("PREDICTIONS_RATE", default="30/min"),
        # Hub token saves per user, each a whoami to the Hub (labeling/api/hub_token.py).
        "hub_token": env("HUB_TOKEN_RATE", default="10/min"),
        # New temporary passwords issued per admin (labeling/api/people.py).
        "password_issue": env("PASSWORD_ISSUE_RATE", default="10/min"),
    },
}

SPECTACULAR_SETTINGS = {
    "TITLE": "steplab API",
    "DESCRIPTION": "Step-level labeling for Process Reward Model training data.",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    # Swagger UI's assets are served from the package, not a CDN: works offline.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "labeling.api.schema.add_error_responses",
    ],
    # Several models have a `status` field with different choices: one enum name per choice
    # set (exports and imports share one; auto-label runs, which pause, have their own).
    "ENUM_NAME_OVERRIDES": {
        "JobStatusEnum": "labeling.models.exports.ExportStatus",
        # Every export format (labeling/exporters/formats), asked for and reported.
        "ExportFormatEnum": "labeling.exporters.formats.FORMAT_NAMES",
        "AnnotationStatusEnum": "labeling.models.annotation.AnnotationStatus",
        "RunStatusEnum": "autolabel.models.runs.RunStatus",
        # An engine plug-in's parameter types (autolabel/plugins/schema.py).
        "EngineParamTypeEnum": "autolabel.plugins.schema.TYPES",
        "TrainingStatusEnum": "training_runs.models.TrainingStatus",
        "DomainEnum": "labeling.models.project.Domain",
        # A problem's domain: every project domain but `mixed`.
        "ProblemDomainEnum": "labeling.models.project.PROBLEM_DOMAINS",
        # The solutions explorer's filters, sorts and bulk actions.
        "ExplorerLabelStateEnum": "labeling.selectors.explorer.LABEL_STATES",
        "ExplorerQueueStatusEnum": "labeling.selectors.explorer.QUEUE_STATUSES",
        "ExplorerVerdictEnum": "labeling.selectors.explorer.VERDICTS",
        "ExplorerAnswerEnum": "labeling.selectors.explorer.ANSWERS",
        "ExplorerSortEnum": "labeling.selectors.explorer.SORT_KEYS",
        "ExplorerBulkActionEnum": "labeling.services.projects.explorer.BULK_ACTIONS",
    },
}

REDIS_URL = env("REDIS_URL", default="")

# The cache holds the sign-in throttles' counters: shared through Redis when it is configured
# (several web processes), else per process.
CACHES = {
    "default": (
        {
            # Redis, and a per-process memory cache while Redis is unreachable (annotate.cache).
            "BACKEND": "annotate.cache.FallbackRedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
        if REDIS_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}

# Celery: Redis when REDIS_URL is set, else a SQLite-file broker so a real worker runs locally.
CELERY_BROKER_URL = env(
    "CELERY_BROKER_URL",
    default=REDIS_URL or f"sqla+sqlite:///{VAR_DIR / 'broker.sqlite3'}",
)
CELERY_RESULT_BACKEND = env(
    "CELERY_RESULT_BACKEND",
    default=REDIS_URL or f"db+sqlite:///{VAR_DIR / 'results.sqlite3'}",
)
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_DEFAULT_QUEUE = "default"
# Queues are named in annotate/queues.py; chunk tasks pick theirs per run (autolabel.tasks):
# `autolabel`, `rollouts` or `gpu`, machine work apart from `default`'s short tasks.
CELERY_TASK_ROUTES = {
    "labeling.tasks.import_job_run_task": {"queue": "default"},
    "labeling.tasks.project_purge_task": {"queue": "default"},
    "labeling.tasks.project_queue_refresh_task": {"queue": "default"},
    "labeling.tasks.export_build_task": {"queue": "exports"},
    "labeling.tasks.export_leftovers_remove_task": {"queue": "exports"},
    "labeling.tasks.hub_push_task": {"queue": "exports"},
    "autolabel.tasks.autolabel_run_start_task": {"queue": "default"},
    # training_runs.tasks.training_run_task keeps the name it had in autolabel.tasks.
    "autolabel.tasks.training_run_task": {"queue": "gpu"},
}
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A worker that consumes only machine queues (annotate.queues.MACHINE_QUEUES) runs at this OS
# nice level, its pool and their children too (annotate.worker_priority); 0 turns it off.
MACHINE_WORKER_NICE = env.int("MACHINE_WORKER_NICE", default=10)
# ... pinned to these CPUs: `auto` all but one (so a request never waits for a core to wake
# up), `all` no pinning, or a list such as `1-3,6`. Not applied when MACHINE_WORKER_NICE is 0.
MACHINE_WORKER_CPUS = env.str("MACHINE_WORKER_CPUS", default="auto")
# Jobs whose message a broker lost (a Redis restarted empty) are sent again by a beat task
# (autolabel.recovery) once they showed no sign of life for RECOVERY_STALL_S and no worker
# holds them. Beat runs in `make run`'s main worker (-B) and as compose's `beat` service.
RECOVERY_STALL_S = env.int("RECOVERY_STALL_S", default=120)
RECOVERY_SWEEP_S = env.float("RECOVERY_SWEEP_S", default=60.0)
# A run's chunk messages in the broker at once: the start sends this many and each chunk, as it
# ends, sends the next (autolabel.run_dispatch). More than the machine workers' processes in
# all, so none waits; a pause or cancel leaves at most this many to drain.
AUTOLABEL_CHUNKS_IN_FLIGHT = env.int("AUTOLABEL_CHUNKS_IN_FLIGHT", default=32)
# Items a run's start writes per transaction (autolabel.services.autolabel_run_prepare_batch):
# its first chunks go out after the first batch.
AUTOLABEL_PREPARE_BATCH = env.int("AUTOLABEL_PREPARE_BATCH", default=10_000)
# The transactional outbox (labeling.services.jobs.outbox): job messages the broker could not take
# when the job was created are sent by this beat task once it is back.
OUTBOX_SWEEP_S = env.float("OUTBOX_SWEEP_S", default=10.0)
# Sent messages (and the idempotency keys they hold) are deleted this many days after sending.
OUTBOX_KEEP_DAYS = env.int("OUTBOX_KEEP_DAYS", default=7)
# Webhooks (labeling.services.webhooks): deliveries are POSTed to public addresses only unless
# WEBHOOK_ALLOW_PRIVATE; each attempt times out after WEBHOOK_TIMEOUT_S (at most 30); a failed
# one is retried after WEBHOOK_RETRY_BASE_S x 4^(n-1) s, WEBHOOK_MAX_ATTEMPTS attempts in all.
# The sweep resends deliveries overdue by WEBHOOK_SWEEP_S (a lost message).
WEBHOOK_ALLOW_PRIVATE = env.bool("WEBHOOK_ALLOW_PRIVATE", default=False)
WEBHOOK_TIMEOUT_S = env.float("WEBHOOK_TIMEOUT_S", default=10.0)
WEBHOOK_MAX_ATTEMPTS = env.int("WEBHOOK_MAX_ATTEMPTS", default=5)
WEBHOOK_RETRY_BASE_S = env.float("WEBHOOK_RETRY_BASE_S", default=30.0)
WEBHOOK_SWEEP_S = env.float("WEBHOOK_SWEEP_S", default=60.0)
WEBHOOK_DELIVERY_KEEP_DAYS = env.int("WEBHOOK_DELIVERY_KEEP_DAYS", default=30)
# This server's address as others reach it (https://steplab.example.org): makes the links in
# webhook payloads (an export's download_url) absolute. Empty: they are paths.
PUBLIC_URL = env("PUBLIC_URL", default="")
CELERY_BEAT_SCHEDULE = {
    "outbox-drain": {
        "task": "labeling.tasks.outbox_drain_task",
        "schedule": OUTBOX_SWEEP_S,
        "options": {"queue": "default", "expires": OUTBOX_SWEEP_S},
    },
    "lost-work-requeue": {
        "task": "autolabel.tasks.lost_work_requeue_task",
        "schedule": RECOVERY_SWEEP_S,
        "options": {"queue": "default", "expires": RECOVERY_SWEEP_S},
    },
    # On an exports worker: the temporary directories of builds killed there are local to it.
    "export-leftovers-remove": {
        "task": "labeling.tasks.export_leftovers_remove_task",
        "schedule": 10 * 60.0,
        "options": {"queue": "exports", "expires": 600},
    },
    "webhook-sweep": {
        "task": "labeling.tasks.webhook_sweep_task",
        "schedule": WEBHOOK_SWEEP_S,
        "options": {"queue": "default", "expires": WEBHOOK_SWEEP_S},
    },
    "tokens-prune": {
        "task": "labeling.tasks.tokens_prune_task",
        "schedule": 24 * 3600.0,
        "options": {"queue": "default", "expires": 3600},
    },
    "metrics-changes-prune": {
        "task": "labeling.tasks.metrics_changes_prune_task",
        "schedule": 3600.0,
        "options": {"queue": "default", "expires": 3600},
    },
}
# API tokens revoked or expired this many days ago are deleted (until then they get a 401
# saying "revoked" / "expired on ..." rather than "Invalid token.").
TOKENS_KEEP_DEAD_DAYS = env.int("TOKENS_KEEP_DEAD_DAYS", default=90)
# A draft's changes of a step within this many seconds fold into one label-history row.
LABEL_HISTORY_DRAFT_COALESCE_S = env.float("LABEL_HISTORY_DRAFT_COALESCE_S", default=30.0)
# Where export builds write before storing (a killed build's leftovers: the sweep above).
EXPORT_TMP_DIR = env("EXPORT_TMP_DIR", default="")
# An export formats its rows in a second process while this one reads (two cores): "auto"
# where this process may use two CPUs and the export is more than one chunk; "always";
# "never" (labeling.services.exports.writing).
EXPORT_FORMAT_PROCESS = env("EXPORT_FORMAT_PROCESS", default="auto")
# The Hugging Face Hub (labeling.hub): where exports are pushed and datasets imported from, and
# the server's token for it (write access to the repos pushed to; read for private datasets).
HF_ENDPOINT = env("HF_ENDPOINT", default="https://huggingface.co")
HF_TOKEN = env("HF_TOKEN", default="")
# The repos the server's HF_TOKEN is used for when a non-staff user who saved no token of their
# own pushes or imports (labeling.services.people.hub_tokens): namespaces (`my-org/`) or repo
# name prefixes (`my-org/prm-`), case-insensitive. Staff and the management commands: any repo.
# Empty: only staff use the server's token; everyone else their own token, or none.
HUB_SERVER_TOKEN_REPOS = env.list("HUB_SERVER_TOKEN_REPOS", default=[])
CELERY_TASK_TIME_LIMIT = 3600
CELERY_TASK_SOFT_TIME_LIMIT = 3500
# PRM training runs (training_runs.services): where their outputs go, how long one may run.
TRAINING_ROOT = env("TRAINING_ROOT", default=str(VAR_DIR / "training"))
# What a non-staff user (a project admin) may point model code at (training_runs.model_refs):
# local model paths under MODEL_DIRS (or the project's own training runs under TRAINING_ROOT),
# model servers under the URL prefixes MODEL_SERVER_URLS, key variables in MODEL_API_KEY_ENVS
# (never the server's own secrets). Staff users may name any path, URL or variable.
MODEL_DIRS = env.list("MODEL_DIRS", default=[str(VAR_DIR / "models")])
MODEL_SERVER_URLS = env.list("MODEL_SERVER_URLS", default=[])
MODEL_API_KEY_ENVS = env.list("MODEL_API_KEY_ENVS", default=[])
TRAINING_TIME_LIMIT_S = env.int("TRAINING_TIME_LIMIT_S", default=3 * 24 * 3600)
# What a non-staff user's run may spend, over the defaults of autolabel/limits.py (rollouts,
# max_tokens, votes, timeouts, batch sizes, the code sandbox's seconds, megabytes and tests) and
# training_runs/config_checks.py (epochs, max_steps, batch_size, max_length, checkpoints kept),
# e.g. AUTOLABEL_LIMITS='{"rollouts": 256}'. Staff users are not capped.


def env_json_object(name: str) -> dict:
    """A JSON object of numbers (caps) from the environment; unset or blank (docker-compose's
    `${NAME:-}`) is {}."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return {}
    try:
        value = json.loads(raw)
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name} is not JSON: {exc}") from None
    if not isinstance(value, dict):
        raise ImproperlyConfigured(f"{name} must be a JSON object, e.g. '{{\"exports\": 20}}'")
    for key, number in value.items():
        if isinstance(number, bool) or not isinstance(number, int | float) or number < 0:
            raise ImproperlyConfigured(f"{name}[{key!r}] must be a number ≥ 0, not {number!r}")
    return value


AUTOLABEL_LIMITS = env_json_object("AUTOLABEL_LIMITS")
TRAINING_LIMITS = env_json_object("TRAINING_LIMITS")
# How many auto-label runs, exports, training runs and imports one project may hold pending,
# running or paused at once, over labeling/services/jobs/quota.py's defaults (4, 8, 2, 8), e.g.
# PROJECT_ACTIVE_JOBS='{"exports": 20}'; the next one is a 409. Staff users are not bounded.
PROJECT_ACTIVE_JOBS = env_json_object("PROJECT_ACTIVE_JOBS")
# How many rows a client may grow some collections to, over labeling/services/collection_caps.py's
# defaults (prm_models 100 and invites 200 pending per project, comments 1000 per solution), e.g.
# COLLECTION_CAPS='{"prm_models": 150}'; the next one is a 409, staff's too.
COLLECTION_CAPS = env_json_object("COLLECTION_CAPS")
# A running training run whose worker has not written for this long is taken over.
TRAINING_HEARTBEAT_STALE_S = env.int("TRAINING_HEARTBEAT_STALE_S", default=60)
# Multi-GPU: the command that starts training.train instead of `python`, with `-m` appended,
# e.g. "accelerate launch --config_file training/configs/accelerate_fsdp.yaml".
TRAINING_LAUNCHER = env("TRAINING_LAUNCHER", default="")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env("LOG_LEVEL", default="INFO")},
    "loggers": {"django.db.backends": {"level": "WARNING"}},
}


def redis_transport_options(broker_url: str) -> dict:
    """Redis redelivers a killed worker's unacked task after the visibility timeout.

    Only for Redis: kombu's SQLAlchemy transport passes transport options to create_engine.
    """
    if not broker_url.startswith(("redis://", "rediss://")):
        return {}
    options = {"visibility_timeout": env.int("CELERY_VISIBILITY_TIMEOUT", default=3600)}
    # e.g. {"unacked_restore_interval": 1} to recover abandoned tasks faster.
    options.update(env.json("CELERY_BROKER_TRANSPORT_OPTIONS", default={}))
    return options


CELERY_BROKER_TRANSPORT_OPTIONS = redis_transport_options(CELERY_BROKER_URL)

# Clean data (labeling/rules/near_dups.py, labeling/exporters/decontaminate.py): the Jaccard
# similarity of word shingles above which two problems are near-duplicates, and the folder
# benchmark files for export decontamination are read from ({"file": "name.jsonl"}).
NEAR_DUP_THRESHOLD = env.float("NEAR_DUP_THRESHOLD", default=0.8)
BENCHMARK_DIR = env("BENCHMARK_DIR", default=str(VAR_DIR / "benchmarks"))
