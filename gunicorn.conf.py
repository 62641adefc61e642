"""gunicorn settings for the web tier (`make run`, docker-compose's `web`, bench/ servers).

gunicorn reads this file from the working directory. Threads (gthread) suit the labeling
loop: a request is a few milliseconds of Python around short database round trips, so a
process serves several at once while others wait on PostgreSQL. Size it from the environment:
WEB_WORKERS processes (default: 2 per core) x WEB_THREADS threads (default 4) is how many
requests run at once; each thread holds one persistent database connection (CONN_MAX_AGE),
so PostgreSQL needs max_connections above WEB_WORKERS x WEB_THREADS x web replicas plus the
workers' (or PgBouncer in transaction mode in front of it). docs/operators.md's "Serving and sizing"
has the numbers measured with bench/stream_bench.py.
"""

import multiprocessing
import os

bind = os.environ.get("WEB_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("WEB_WORKERS", 2 * multiprocessing.cpu_count()))
threads = int(os.environ.get("WEB_THREADS", 4))
worker_class = "gthread"
timeout = int(os.environ.get("WEB_TIMEOUT", 120))
# Keep a client's connection between its requests (an annotator's claim, saves, submit).
keepalive = int(os.environ.get("WEB_KEEPALIVE", 30))
# Recycle workers now and then (memory growth in long-lived processes), not all at once.
max_requests = int(os.environ.get("WEB_MAX_REQUESTS", 20000))
max_requests_jitter = max_requests // 10
accesslog = os.environ.get("WEB_ACCESS_LOG") or None
# A request that hangs on the database is cut by PostgreSQL after this long (0: never).
os.environ.setdefault("DB_STATEMENT_TIMEOUT_MS", "30000")
# The longest request line gunicorn takes (its default, 4094, answered a 5,000-character query
# value with gunicorn's own HTML 414 before the app could answer it in JSON; tests/hostile/).
limit_request_line = 8190
