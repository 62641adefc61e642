"""What the database benches share: a throwaway database with Django set up on it, a project
imported from bench/import_bench.py's generated file, and the timing of page loads two ways.

bench/ is not a package: a bench puts bench/ on sys.path and imports this as `harness`.
"""

import os
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit


def throwaway_database(db: str) -> tuple[str, Callable[[], None]]:
    """Point DATABASE_URL at a fresh database; returns a description and a cleanup.

    On PostgreSQL, `db` is created next to the database DATABASE_URL names (dropped first if
    a killed run left it); otherwise a temporary SQLite file."""
    url = os.environ.get("DATABASE_URL", "")
    if url.startswith(("postgres://", "postgresql://")):
        import psycopg

        parts = urlsplit(url)
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {db}")
            conn.execute(f"CREATE DATABASE {db}")
        os.environ["DATABASE_URL"] = urlunsplit(parts._replace(path=f"/{db}"))

        def drop() -> None:
            from django.db import connections

            connections.close_all()
            with psycopg.connect(url, autocommit=True) as conn:
                conn.execute(f"DROP DATABASE IF EXISTS {db}")

        return f"PostgreSQL database {db} (dropped afterwards)", drop
    handle, name = tempfile.mkstemp(prefix="steplab_bench_", suffix=".sqlite3")
    os.close(handle)
    os.environ["DATABASE_URL"] = f"sqlite:///{name}"

    def remove() -> None:
        from django.db import connections

        connections.close_all()
        for suffix in ("", "-wal", "-shm", "-journal"):
            Path(name + suffix).unlink(missing_ok=True)

    return f"SQLite file {name} (removed afterwards)", remove


def kept_database(db: str) -> bool:
    """Whether PostgreSQL has `db` (a bench's database kept by an earlier --keep run)."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        return False
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        return (
            conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [db]).fetchone()
            is not None
        )


def django_on_kept_database(db: str) -> tuple[str, Callable[[], None]]:
    """django.setup() on the kept PostgreSQL database `db`; the cleanup drops it."""
    url = os.environ["DATABASE_URL"]
    parts = urlsplit(url)
    os.environ["DATABASE_URL"] = urlunsplit(parts._replace(path=f"/{db}"))
    os.environ["DEBUG"] = "False"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "annotate.settings.local")
    import django

    django.setup()

    def drop_kept() -> None:
        import psycopg
        from django.db import connections

        connections.close_all()
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {db}")

    return f"PostgreSQL database {db} (kept from an earlier run)", drop_kept


def django_on_throwaway_database(db: str) -> tuple[str, Callable[[], None]]:
    """throwaway_database(db), then django.setup() on it with DEBUG off (DEBUG would keep
    every query in memory)."""
    where, cleanup = throwaway_database(db)
    os.environ["DEBUG"] = "False"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "annotate.settings.local")
    import django

    django.setup()
    return where, cleanup


def django_in_tree(tree: str, db: str) -> None:
    """django.setup() with the code of the checkout `tree` (a before/after bench runs one
    tree's code per process) on the database `db` of DATABASE_URL's server, DEBUG off."""
    import sys

    sys.path.insert(0, tree)
    os.chdir(tree)  # setup puts the working directory first on sys.path too
    base = os.environ["DATABASE_URL"].rsplit("/", 1)[0]
    os.environ["DATABASE_URL"] = f"{base}/{db}"
    os.environ["DEBUG"] = "False"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "annotate.settings.local")
    import django

    django.setup()


def scale_databases(prefix: str, sizes: list[int]) -> dict[int, str]:
    """The before/after page benches' parent: Django set up on this checkout (DEBUG off) and
    bench/scale_bench.py's project of each size built, or reused, in the database
    `{prefix}{n}` of DATABASE_URL's server. Returns those databases by size."""
    import sys

    bench = Path(__file__).resolve().parent
    sys.path.insert(0, str(bench))
    sys.path.insert(0, str(bench.parent))
    os.environ["DEBUG"] = "False"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "annotate.settings.local")
    import django

    django.setup()
    import scale_bench

    dbs = {n: f"{prefix}{n}" for n in sizes}
    for n, db in dbs.items():
        scale_bench.ensure(db, n, 1, with_snapshot=False)
    return dbs


def scale_client() -> tuple[Any, Any]:
    """In a child set up by `django_in_tree` on a scale database: its project ("bench: scale
    (ready)") and an API test client signed in as its reviewer."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from rest_framework.test import APIClient

    from labeling.models import Project

    settings.ALLOWED_HOSTS = ["*"]
    project = Project.objects.get(name="bench: scale (ready)")
    client = APIClient()
    client.force_authenticate(get_user_model().objects.get(username="bench-reviewer"))
    return project, client


def migrate(where: str, *, driver: bool = False) -> None:
    """Run the migrations and say which database the bench runs on (and its driver)."""
    from django.core.management import call_command
    from django.db import connection

    call_command("migrate", verbosity=0)
    said = f" {connection.Database.__name__}" if driver else ""
    print(f"database: {where}; {connection.vendor}{said}")


def imported_project(*, n: int, name: str, overlap: int, labels_as: str = "none") -> Any:
    """A project with n generated solutions (import_bench.write_file) imported into it."""
    import import_bench

    from labeling.models import Project
    from labeling.services.imports import import_file

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.jsonl"
        import_bench.write_file(path, n)
        project = Project.objects.create(name=name, overlap=overlap)
        import_file(project=project, path=path, labels_as=labels_as)
    return project


def analyze() -> None:
    """Planner statistics, as a live database has them (PostgreSQL; a no-op elsewhere)."""
    from django.db import connection

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")


def finish(cleanup: Callable[[], None], *, keep: bool = False, db: str = "") -> None:
    """Drop the throwaway database, unless asked to keep it (PostgreSQL only)."""
    from django.db import connection

    if keep and connection.vendor == "postgresql":
        print(f"kept database {db}")
    else:
        cleanup()


def load_line() -> str:
    """The machine's load average and free disk where the benches write, for the report."""
    import shutil

    one, five, fifteen = os.getloadavg()
    free = shutil.disk_usage(tempfile.gettempdir()).free / 2**30
    return f"load average {one:.1f} / {five:.1f} / {fifteen:.1f}; {free:.0f} GiB free in tmp"


def rss_mb() -> tuple[float, float]:
    """(resident memory now, its peak since the last `rss_peak_reset`) of this process, in MB:
    Linux's VmRSS and VmHWM; elsewhere the process's lifetime peak (ru_maxrss) for both."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            fields = dict(line.split(":", 1) for line in f if ":" in line)
        return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024
    except (OSError, KeyError, ValueError):
        import resource

        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        return peak, peak


def rss_peak_reset() -> None:
    """Start a new peak (VmHWM) from the memory resident now (Linux: /proc/self/clear_refs)."""
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as f:
            f.write("5")
    except OSError:
        pass


def measure(fn: Callable[[], Any], repeat: int) -> tuple[Any, list[float]]:
    """fn's last result and the milliseconds of each of `repeat` calls."""
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        result = fn()
        times.append((time.perf_counter() - started) * 1000)
    return result, times


@dataclass
class PageLoads:
    """Page loads timed two ways, scenario by scenario: steplab's and another's (`other`)."""

    other: str
    repeat: int
    ours_ms: list[float] = field(default_factory=list)
    other_ms: list[float] = field(default_factory=list)
    same: bool = True

    def both(
        self, ours: Callable[[], Any], other: Callable[[], Any]
    ) -> tuple[Any, Any, float, float]:
        """Time one scenario both ways; returns both results (compared into `same`) and
        both p50s in ms."""
        ours_result, ours_t = measure(ours, self.repeat)
        other_result, other_t = measure(other, self.repeat)
        self.same = self.same and ours_result == other_result
        self.ours_ms += ours_t
        self.other_ms += other_t
        return ours_result, other_result, statistics.median(ours_t), statistics.median(other_t)

    def summary(self, *, other_over_ours: bool, digits: int) -> str:
        """The p50 line over every load; the ratio either way round."""
        o, b = statistics.median(self.ours_ms), statistics.median(self.other_ms)
        ratio = (
            f"{self.other} / steplab {b / o:.{digits}f}x"
            if other_over_ours
            else f"steplab / {self.other} {o / b:.{digits}f}x"
        )
        return (
            f"page load p50 over {len(self.ours_ms)} loads: steplab {o:.1f} ms (max "
            f"{max(self.ours_ms):.0f}), {self.other} {b:.1f} ms (max "
            f"{max(self.other_ms):.0f}); ratio {ratio}"
        )
