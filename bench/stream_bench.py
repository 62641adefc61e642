"""The annotator's loop at scale: claim -> submit through the HTTP API against bare SQL.

    .venv/bin/python bench/stream_bench.py                   # N = 10,000 solutions
    .venv/bin/python bench/stream_bench.py --n 100000        # the same at 100k
    .venv/bin/python bench/stream_bench.py --submit-next     # the labeling page's loop
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres .venv/bin/python \
        bench/stream_bench.py --n 10000 --levels 1,8,32 --cycles 320

Creates a scratch PostgreSQL database `stream_bench_<pid>` next to the one DATABASE_URL names
(default postgres://postgres@127.0.0.1:5432/postgres), migrates it programmatically, and
drops it at the end (`--keep-db` keeps it). Seeds one project (overlap 1, PRM800K scale,
first_error_mode off, made by project_create) with N solutions through the app's own bulk
importer (labeling.services.imports.import_file, COPY on PostgreSQL), built by
bench/import_bench.py from real problems and steps of shared/data repeated as variants (about
8 steps per solution; their first-error labels become machine suggestions unless
`--labels-as none`), then runs ANALYZE, as autovacuum would soon after such an import.

Server: gunicorn, 2 processes x 4 threads (gthread; `--web-workers`, `--web-threads` to size
it otherwise), on 127.0.0.1 only (bench/load/procs.py's
flags; they override the bind, workers and threads of a ./gunicorn.conf.py, whose other
settings apply), with `annotate.settings.production` (DEBUG off) and SECURE_SSL_REDIRECT=false
(no TLS proxy in front), a random SECRET_KEY, no REDIS_URL (nothing in claim or submit uses
Redis; the cache is then per process). Each level (1, 8, 32 annotators by default) has its own
annotator accounts with API tokens; they loop claim -> submit with a random rating on every
step, no think time, until the level's `--cycles` are done, as threads spread over several
processes (`--client-processes`, default one per 8 annotators) so that the client is not what
limits; the client's CPU is reported. `--submit-next` runs the labeling page's loop instead:
the submit asks for `next` and its answer brings the next task, one request a cycle after each
annotator's first claim (its latency shows as submit and cycle). After a short warm-up (not
reported) each level is followed by the bare-SQL cycle (bench/load/bare.py) on the same
PostgreSQL, same N, same number of annotators. `--profile DIR` samples the gunicorn workers
with py-spy during each level and prints where their time went (it costs them some CPU: leave
it off for the numbers).

Prints per level p50/p95/p99 of claim, submit and the whole cycle, cycles/s, the ratios
steplab/bare, CPU of clients, server and machine, and the checks: from the database, no
solution has more submitted annotations than its overlap or a counter that disagrees, and
every submit answered 200 is stored exactly once with the ratings sent; from the clients, no
two claim windows on one solution overlap (bench/load/annotators.client_side_violations).
Exits 1 when a check fails or a request errs, never on speed. To compare N = 10k with 100k,
run it twice and compare the `claim p50` lines of the two summaries.
"""

from __future__ import annotations

import argparse
import os
import secrets
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench.load.annotators import Claim, client_side_violations  # noqa: E402
from bench.load.cycles import CycleLog, percentile_ms, run_cycles  # noqa: E402

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/postgres"
GUNICORN_WORKERS, GUNICORN_THREADS = 2, 4  # the set-up; --web-workers/--web-threads


def settings_env(database_url: str, secret_key: str) -> dict[str, str]:
    """The environment of the server (and of this process in main): production settings."""
    return {
        "DJANGO_SETTINGS_MODULE": "annotate.settings.production",
        "DATABASE_URL": database_url,
        "SECRET_KEY": secret_key,
        "SECURE_SSL_REDIRECT": "false",
        "REDIS_URL": "",
    }


from bench.load.stream_setup import (  # noqa: E402
    OVERLAP,
    Checks,
    annotators_create,
    database_checks,
    drop_database,
    scratch_database,
    seed_project,
)

# --- the run -----------------------------------------------------------------------------


@dataclass
class Level:
    annotators: int
    processes: int
    http: CycleLog
    bare: CycleLog
    checks: Checks
    server_cpu_s: float
    postgres_cpu_s: float  # backends connected to the bench database, during the HTTP part
    machine_busy: float  # share of all cores busy during the HTTP part
    timings: dict[str, float]


@dataclass
class BenchResult:
    levels: list[Level]
    problems: list[str]


def _server_cpu_s(proc) -> float:
    import psutil

    total = 0.0
    try:
        root = psutil.Process(proc.pid)
        for p in [root, *root.children(recursive=True)]:
            times = p.cpu_times()
            total += times.user + times.system
    except psutil.Error:
        pass
    return total


def _postgres_cpu_s(database: str) -> float:
    """CPU of the PostgreSQL backends serving `database` (their title names it); gunicorn's
    connections are persistent, so the same backends live through a level."""
    import psutil

    total = 0.0
    for p in psutil.process_iter(["name", "cmdline"]):
        try:
            title = " ".join(p.info["cmdline"] or [])
            is_postgres = p.info["name"] == "postgres" or title.startswith("postgres:")
            if is_postgres and f" {database} " in f" {title} ":
                times = p.cpu_times()
                total += times.user + times.system
        except psutil.Error:
            continue
    return total


def _machine_busy(before, after) -> float:
    idle = (after.idle + after.iowait) - (before.idle + before.iowait)
    total = sum(after) - sum(before)
    return 1 - idle / total if total > 0 else float("nan")


def run_bench(
    *,
    database_url: str,
    project,
    levels: tuple[int, ...] = (1, 8, 32),
    cycles: int = 320,
    client_processes: int | None = None,
    warmup: int = 16,
    workdir: Path,
    profile_dir: Path | None = None,
    submit_next: bool = False,
    web_workers: int = GUNICORN_WORKERS,
    web_threads: int = GUNICORN_THREADS,
    out=print,
) -> BenchResult:
    """Start gunicorn on `database_url` (which holds `project`), then per level the HTTP
    cycles, the bare-SQL cycles and the checks. `client_processes` None: one per 8 annotators.
    With `profile_dir`, py-spy samples the workers during each level's HTTP part.
    `submit_next`: the labeling page's loop, one request a cycle (bench.load.cycles)."""
    import psutil

    from bench.load import profile
    from bench.load.bare import bare_problems, bare_setup, bare_teardown, run_bare
    from bench.load.procs import free_port, start_server, steplab_env, stop

    # submit_next: each annotator ends holding the task the last submit's answer claimed.
    needed = warmup + cycles * len(levels) + (4 + sum(levels) if submit_next else 0)
    if project.solutions.count() < needed:
        raise ValueError(f"{needed} solutions needed for the warm-up and the levels")
    env = steplab_env(database_url, "", **settings_env(database_url, secrets.token_urlsafe(40)))
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    http_claims: list[Claim] = []
    bare_claims: list[Claim] = []
    results: list[Level] = []
    server = None
    try:
        started = time.perf_counter()
        server = start_server(
            env, port, workdir / "gunicorn.log", threads=web_threads, workers=web_workers
        )
        bare_rows = bare_setup(database_url, project_id=project.pk, overlap=OVERLAP)
        out(
            f"gunicorn {web_workers} x {web_threads} threads on {base} and {bare_rows} bare rows "
            f"ready in {time.perf_counter() - started:.1f} s"
        )
        started = time.perf_counter()
        tokens = annotators_create(project=project, count=4, prefix="warmup")
        warm = run_cycles(
            base_url=base, tokens=tokens, project_id=project.pk, cycles=warmup,
            submit_next=submit_next,
        )  # fmt: skip
        http_claims += warm.claims
        warm_bare = run_bare(
            database_url, project_id=project.pk, overlap=OVERLAP, annotators=4, cycles=warmup,
            first_annotator_id=1,
        )  # fmt: skip
        bare_claims += warm_bare.claims
        warm_errors = [*warm.failures, *warm_bare.failures, *map(str, warm.errors.items())]
        out(f"warm-up: {warmup} cycles each in {time.perf_counter() - started:.1f} s")
        for i, count in enumerate(levels, start=1):
            timings: dict[str, float] = {}
            started = time.perf_counter()
            tokens = annotators_create(project=project, count=count, prefix=f"level{count}")
            processes = client_processes or max(1, count // 8)
            processes = max(1, min(processes, count))
            timings["accounts"] = time.perf_counter() - started

            started = time.perf_counter()
            level_dir = profile_dir / f"level{count}" if profile_dir else None
            recorders = profile.start(server.pid, level_dir) if level_dir else []
            database = urlsplit(database_url).path.lstrip("/")
            cpu0, busy0 = _server_cpu_s(server), psutil.cpu_times()
            pg0 = _postgres_cpu_s(database)
            http = run_cycles(
                base_url=base, tokens=tokens, project_id=project.pk, cycles=cycles,
                processes=processes, seed=i, submit_next=submit_next,
            )  # fmt: skip
            server_cpu = _server_cpu_s(server) - cpu0
            postgres_cpu = _postgres_cpu_s(database) - pg0
            busy = _machine_busy(busy0, psutil.cpu_times())
            profile.stop(recorders)
            timings["steplab"] = time.perf_counter() - started

            started = time.perf_counter()
            bare = run_bare(
                database_url, project_id=project.pk, overlap=OVERLAP, annotators=count,
                cycles=cycles, first_annotator_id=1000 * i, seed=i,
            )  # fmt: skip
            timings["bare SQL"] = time.perf_counter() - started

            started = time.perf_counter()
            http_claims += http.claims
            bare_claims += bare.claims
            checks = Checks(errors=[*warm_errors, *http.failures, *bare.failures])
            warm_errors = []
            checks.errors += [f"HTTP {k}: {n}" for k, n in sorted(http.errors.items())]
            checks.errors += [f"bare {k}: {n}" for k, n in sorted(bare.errors.items())]
            if len(http.cycle_s) != cycles or len(bare.cycle_s) != cycles:
                checks.errors.append(
                    f"cycles done: steplab {len(http.cycle_s)}, bare {len(bare.cycle_s)} "
                    f"of {cycles}"
                )
            checks.double_client += client_side_violations(http_claims, OVERLAP)
            checks.double_client += client_side_violations(bare_claims, OVERLAP)
            database_checks(
                project_id=project.pk, claims=http_claims, overlap=OVERLAP, checks=checks
            )
            checks.labels += bare_problems(database_url, claims=bare_claims, overlap=OVERLAP)
            timings["checks"] = time.perf_counter() - started
            level = Level(
                count, processes, http, bare, checks, server_cpu, postgres_cpu, busy, timings
            )
            results.append(level)
            out(level_report(level, cycles))
            if level_dir:
                out(profile.summarize(sorted(level_dir.glob("worker-*.txt"))))
    finally:
        stop(server)
        bare_teardown(database_url)
    problems = [p for level in results for p in level.checks.all()]
    return BenchResult(results, problems)


# --- report ------------------------------------------------------------------------------


def _ratio(a: float, b: float) -> float:
    return a / b if b else float("nan")


def _p50_ratio(steplab: list[float], bare: list[float]) -> float:
    return _ratio(percentile_ms(steplab, 50), percentile_ms(bare, 50))


def level_report(level: Level, cycles: int) -> str:
    http, bare = level.http, level.bare
    lines = [
        f"== {level.annotators} annotator(s), {cycles} cycles; clients: {level.processes} "
        f"process(es) x {-(-level.annotators // level.processes)} threads ==",
        f"{'':<16} {'n':>5} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8}",
    ]
    for who, log in (("steplab", http), ("bare SQL", bare)):
        for name, values in (("claim", log.claim_s), ("submit", log.submit_s)):
            lines.append(
                f"{who + ' ' + name:<16} {len(values):>5} {percentile_ms(values, 50):>8.2f} "
                f"{percentile_ms(values, 95):>8.2f} {percentile_ms(values, 99):>8.2f}"
            )
        values = log.cycle_s
        lines.append(
            f"{who + ' cycle':<16} {len(values):>5} {percentile_ms(values, 50):>8.2f} "
            f"{percentile_ms(values, 95):>8.2f} {percentile_ms(values, 99):>8.2f}"
        )
    lines.append(
        f"cycles/s: steplab {http.cycles_per_s:.1f}, bare SQL {bare.cycles_per_s:.1f}; "
        f"steplab/bare: cycles/s {_ratio(http.cycles_per_s, bare.cycles_per_s):.4f}, "
        f"cycle p50 {_p50_ratio(http.cycle_s, bare.cycle_s):.1f}x, "
        f"claim p50 {_p50_ratio(http.claim_s, bare.claim_s):.1f}x"
    )
    client_cpu = sum(http.cpu_s)
    cores = os.cpu_count() or 1
    lines.append(
        f"CPU during the steplab part ({http.wall_s:.1f} s, {cores} cores): clients "
        f"{client_cpu:.1f} s = {client_cpu / http.wall_s / cores:.0%} of the machine (busiest "
        f"client process {max(http.cpu_s, default=0) / http.wall_s:.0%} of a core, "
        f"{client_cpu / max(len(http.cycle_s), 1) * 1000:.1f} ms per cycle); gunicorn "
        f"{level.server_cpu_s:.1f} s = {level.server_cpu_s / http.wall_s / cores:.0%} "
        f"({level.server_cpu_s / max(len(http.cycle_s), 1) * 1000:.0f} ms per cycle); "
        f"PostgreSQL {level.postgres_cpu_s:.1f} s "
        f"({level.postgres_cpu_s / max(len(http.cycle_s), 1) * 1000:.0f} ms per cycle); "
        f"machine busy {level.machine_busy:.0%} (anything else running included)"
    )
    c = level.checks
    lines.append(
        f"checks: double claims {len(c.double_db) + len(c.double_client)} (database "
        f"{len(c.double_db)}, client windows {len(c.double_client)}); lost/duplicated labels "
        f"{len(c.labels)}; errors {len(c.errors)}"
    )
    lines += [f"  VIOLATION {p}" for p in c.all()[:20]]
    lines.append("level took " + ", ".join(f"{k} {v:.1f} s" for k, v in level.timings.items()))
    return "\n".join(lines)


def summary(result: BenchResult, n: int) -> str:
    by_count = {level.annotators: level for level in result.levels}
    lines = [f"== summary, N = {n} =="]
    claim = ", ".join(
        f"{k} annotator(s) {percentile_ms(v.http.claim_s, 50):.2f} ms" for k, v in by_count.items()
    )
    lines.append(f"claim p50 at N={n}: {claim}")
    first, last = result.levels[0], result.levels[-1]
    lines.append(
        f"cycle p50 steplab/bare at {first.annotators} annotator(s): "
        f"{_p50_ratio(first.http.cycle_s, first.bare.cycle_s):.1f}x; "
        f"cycles/s steplab/bare at {last.annotators}: "
        f"{_ratio(last.http.cycles_per_s, last.bare.cycles_per_s):.4f} "
        f"({last.http.cycles_per_s:.1f} against {last.bare.cycles_per_s:.1f})"
    )
    lines.append(
        "OK: every submission stored once as sent, no solution over its overlap"
        if not result.problems
        else f"FAILED: {len(result.problems)} problem(s)"
    )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=10_000, help="solutions in the project")
    parser.add_argument("--cycles", type=int, default=320, help="claim -> submit cycles a level")
    parser.add_argument("--levels", default="1,8,32", help="annotators per level")
    parser.add_argument(
        "--client-processes", type=int, default=None, help="per level (default: 1 per 8 annotators)"
    )
    parser.add_argument("--warmup", type=int, default=16, help="cycles before the levels")
    parser.add_argument("--labels-as", choices=("suggestions", "none"), default="suggestions")
    parser.add_argument("--keep-db", action="store_true", help="do not drop the scratch database")
    parser.add_argument(
        "--submit-next",
        action="store_true",
        help="the labeling page's loop: the submit's answer brings the next task (one request)",
    )
    parser.add_argument(
        "--web-workers", type=int, default=GUNICORN_WORKERS, help="gunicorn processes (2)"
    )
    parser.add_argument(
        "--web-threads", type=int, default=GUNICORN_THREADS, help="threads a process (4)"
    )
    parser.add_argument(
        "--profile", type=Path, help="py-spy the gunicorn workers per level; files go to DIR"
    )
    args = parser.parse_args()
    levels = tuple(int(x) for x in args.levels.split(","))
    base_url = os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL
    if not base_url.startswith(("postgres://", "postgresql://")):
        parser.error("DATABASE_URL must name a PostgreSQL database (a scratch one is made)")

    name = f"stream_bench_{os.getpid()}"
    started = time.perf_counter()
    database_url = scratch_database(base_url, name)
    os.environ.update(settings_env(database_url, secrets.token_urlsafe(40)))
    import django

    django.setup()
    from django.core.management import call_command

    try:
        call_command("migrate", verbosity=0)
        print(f"database {name} created and migrated in {time.perf_counter() - started:.1f} s")
        with tempfile.TemporaryDirectory(prefix="stream-bench-") as tmp:
            started = time.perf_counter()
            seeded = seed_project(n=args.n, workdir=Path(tmp), labels_as=args.labels_as)
            print(
                f"seeded {seeded.solutions} solutions, {seeded.steps} steps "
                f"({seeded.steps / max(seeded.solutions, 1):.2f} a solution) in "
                f"{time.perf_counter() - started:.1f} s: "
                + ", ".join(f"{k} {v:.1f} s" for k, v in seeded.timings.items())
                + f" ({seeded.solutions / seeded.timings['import_file']:,.0f} solutions/s)"
            )
            result = run_bench(
                database_url=database_url, project=seeded.project, levels=levels,
                cycles=args.cycles, client_processes=args.client_processes,
                warmup=args.warmup, workdir=Path(tmp), profile_dir=args.profile,
                submit_next=args.submit_next, web_workers=args.web_workers,
                web_threads=args.web_threads,
            )  # fmt: skip
        print(summary(result, args.n))
    finally:
        if not args.keep_db:
            drop_database(base_url, name)
    return 1 if result.problems else 0


if __name__ == "__main__":
    sys.exit(main())
