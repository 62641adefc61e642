"""Labeling first: one annotator's claim -> submit with and without an auto-label run going.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \\
        .venv/bin/python bench/labeling_during_run_bench.py --n 5000 --cycles 200

Creates a scratch PostgreSQL database `labeling_run_bench_<pid>` next to the one DATABASE_URL
names and drops it at the end (bench/load/stream_setup.py: the stream bench's project, N
generated solutions of real shared/data problems and steps, no labels, then ANALYZE), starts a
private redis-server (the broker) and gunicorn, 2 processes x 4 threads, with production
settings (bench/stream_bench.py's server). Then, in each round, four phases of `--cycles`
claim -> submit cycles by one annotator through the HTTP API (bench/load/cycles.py, a new
account each phase, no think time):

1. ``baseline``: nothing else runs;
2. a run phase per `--modes` entry: a symbolic auto-label run over the project goes on a real
   Celery worker (`-Q autolabel,rollouts,exports --concurrency 2`, as bin/serve starts its
   machine worker) whose priority is, by mode (annotate.worker_priority):
   ``nice0``: MACHINE_WORKER_NICE=0, machine work at the web server's priority, every core;
   ``nice10``: nice 10 on every core (MACHINE_WORKER_CPUS=all);
   ``pinned``: nice 10 on all cores but one (MACHINE_WORKER_CPUS=auto), as bin/serve and
   docker-compose.yml run it now;
3. ``baseline`` again.

Each run phase starts its worker, sends the run's chunks (the start task's body, run here),
waits until the run has done a few chunks, measures, then cancels the run, stops the worker and
empties the queue; the run's solutions/s during the measurement are printed (what the
nice level costs the run while someone labels). Ratios are p50 and p90 of the cycle against the
baseline phases of the same round pooled; the goal is <= 1.5x for both with the run as
deployed (``pinned``).
Exits 1 when a request errs or a run was not going for the whole measurement.
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

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench.load.cycles import CycleLog, percentile_ms, run_cycles  # noqa: E402
from bench.load.stream_setup import (  # noqa: E402
    annotators_create,
    drop_database,
    scratch_database,
    seed_project,
)
from bench.stream_bench import DEFAULT_DATABASE_URL, settings_env  # noqa: E402

MACHINE_QUEUES = "autolabel,rollouts,exports"  # bin/serve's machine worker
MACHINE_CONCURRENCY = 2  # bin/serve's default (MACHINE_WORKERS); --concurrency
WARM_CHUNKS = 3  # chunks a run has done before the clock starts
MODES = {  # the machine worker's priority settings, by --modes name
    "nice0": {"MACHINE_WORKER_NICE": "0", "MACHINE_WORKER_CPUS": "all"},
    "nice10": {"MACHINE_WORKER_NICE": "10", "MACHINE_WORKER_CPUS": "all"},
    "pinned": {"MACHINE_WORKER_NICE": "10", "MACHINE_WORKER_CPUS": "auto"},
}


@dataclass
class Phase:
    name: str
    log: CycleLog
    run_rate: float = float("nan")  # the run's solutions/s during the measurement
    going: bool = True  # the run was still running when the measurement ended


def _worker_ready(proc, log: Path, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if " ready." in log.read_text():
            return
        if proc.poll() is not None:
            break
        time.sleep(0.2)
    raise RuntimeError(f"the machine worker did not start: {log.read_text()[-3000:]}")


def _run_start(project):
    """A symbolic run over the whole project, its chunks sent to the broker as the start task
    does on the main worker (run here: that worker is not part of the bench)."""
    from autolabel.services import autolabel_run_create
    from autolabel.tasks import autolabel_run_start_task

    run = autolabel_run_create(project=project, sources=["symbolic"])
    autolabel_run_start_task(run.pk)
    return run


def _done(run) -> int:
    from autolabel.models import AutolabelItem, ItemStatus

    return AutolabelItem.objects.filter(run=run).exclude(status=ItemStatus.PENDING).count()


def _queue_purge(queue: str) -> None:
    from annotate.celery import app

    with app.connection_for_write() as conn:
        conn.default_channel.queue_purge(queue)


def measure(base_url: str, project, cycles: int, name: str) -> CycleLog:
    tokens = annotators_create(project=project, count=1, prefix=name)
    return run_cycles(base_url=base_url, tokens=tokens, project_id=project.pk, cycles=cycles)


def phase_with_run(
    *,
    base_url: str,
    project,
    cycles: int,
    mode: str,
    concurrency: int,
    env: dict,
    workdir: Path,
    name: str,
    round_: int,
) -> Phase:
    from autolabel.models import RunStatus
    from autolabel.services import autolabel_run_cancel
    from bench.load.procs import start_worker, stop

    slug = f"{name.replace(' ', '').replace(',', '-')}-r{round_}"
    log_path = workdir / f"{slug}.log"
    worker = start_worker(
        {**env, **MODES[mode]}, log_path, name=slug,
        concurrency=concurrency, queues=MACHINE_QUEUES,
    )  # fmt: skip
    try:
        _worker_ready(worker, log_path)
        run = _run_start(project)
        deadline = time.monotonic() + 120
        while _done(run) < WARM_CHUNKS * 20 and time.monotonic() < deadline:
            time.sleep(0.2)
        done0, started = _done(run), time.perf_counter()
        log = measure(base_url, project, cycles, slug)
        done1, wall = _done(run), time.perf_counter() - started
        run.refresh_from_db()
        going = run.status == RunStatus.RUNNING and done1 < run.total
        if run.status in (RunStatus.PENDING, RunStatus.RUNNING):
            autolabel_run_cancel(run=run)
    finally:
        stop(worker, timeout=30)
        _queue_purge("autolabel")
    return Phase(name, log, (done1 - done0) / wall, going)


def _p(log: CycleLog, q: int) -> float:
    return percentile_ms(log.cycle_s, q)


def report(phases: list[Phase], baseline: CycleLog) -> list[str]:
    lines = [
        f"{'phase':<16} {'cycles':>6} {'claim p50':>9} {'submit p50':>10} {'cycle p50':>9} "
        f"{'cycle p90':>9} {'x p50':>6} {'x p90':>6} {'run sol/s':>9}"
    ]
    for phase in [*phases, Phase("baseline, all", baseline)]:
        log = phase.log
        lines.append(
            f"{phase.name:<16} {len(log.cycle_s):>6} {percentile_ms(log.claim_s, 50):>9.1f} "
            f"{percentile_ms(log.submit_s, 50):>10.1f} {_p(log, 50):>9.1f} {_p(log, 90):>9.1f} "
            f"{_p(log, 50) / _p(baseline, 50):>6.2f} {_p(log, 90) / _p(baseline, 90):>6.2f} "
            f"{phase.run_rate:>9.1f}" + ("" if phase.going else "  (the run ended early)")
        )
    return lines


def suggestion_stats() -> str:
    """What the planner knows of the suggestion table (autovacuum's ANALYZE keeps it fresh)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT n_live_tup, n_mod_since_analyze, last_analyze IS NOT NULL, "
            "last_autoanalyze IS NOT NULL FROM pg_stat_user_tables "
            "WHERE relname = 'labeling_suggestion'"
        )
        live, since, manual, auto = cursor.fetchone()
    return (
        f"labeling_suggestion: {live} live rows, {since} changed since the last ANALYZE "
        f"(ANALYZE run: {manual}, autoanalyze run: {auto})"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=5000, help="solutions in the project")
    parser.add_argument("--cycles", type=int, default=200, help="cycles a phase")
    parser.add_argument("--rounds", type=int, default=1, help="rounds of the phases")
    parser.add_argument(
        "--modes", default="nice0,pinned", help=f"run phases, of {', '.join(MODES)}"
    )
    parser.add_argument(
        "--concurrency", type=int, default=MACHINE_CONCURRENCY, help="the machine worker's pool"
    )
    parser.add_argument("--keep-db", action="store_true", help="do not drop the scratch database")
    args = parser.parse_args()
    modes = [m for m in args.modes.split(",") if m]
    if not modes or set(modes) - set(MODES):
        parser.error(f"--modes is a comma-separated list of {', '.join(MODES)}")
    base_db = os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL
    if not base_db.startswith(("postgres://", "postgresql://")):
        parser.error("DATABASE_URL must name a PostgreSQL database (a scratch one is made)")
    needed = (2 + len(modes)) * args.rounds * (args.cycles + 1)
    if args.n < needed + WARM_CHUNKS * 20 * len(modes) * args.rounds:
        parser.error(f"--n must leave room for the cycles: at least {needed} solutions")

    from bench.load.procs import PrivateRedis, free_port, start_server, steplab_env, stop

    name = f"labeling_run_bench_{os.getpid()}"
    database_url = scratch_database(base_db, name)
    problems: list[str] = []
    with tempfile.TemporaryDirectory(prefix="labeling-run-bench-") as tmp:
        workdir = Path(tmp)
        redis = PrivateRedis(workdir / "redis")
        redis.start()
        broker = {"CELERY_BROKER_URL": redis.url, "CELERY_RESULT_BACKEND": redis.url}
        os.environ.update({**settings_env(database_url, secrets.token_urlsafe(40)), **broker})
        env = steplab_env(database_url, "", **settings_env(database_url, os.environ["SECRET_KEY"]))
        env.update(broker)
        server = None
        try:
            import django

            django.setup()
            from django.core.management import call_command

            call_command("migrate", verbosity=0)
            seeded = seed_project(n=args.n, workdir=workdir, labels_as="none")
            print(
                f"{seeded.solutions} solutions, {seeded.steps} steps; {os.cpu_count()} cores; "
                f"machine worker: -Q {MACHINE_QUEUES} --concurrency {args.concurrency}; "
                f"load average {os.getloadavg()[0]:.1f} (other work on the machine)",
                flush=True,
            )
            project = seeded.project
            port = free_port()
            server = start_server(env, port, workdir / "gunicorn.log", threads=4)
            base_url = f"http://127.0.0.1:{port}"
            measure(base_url, project, 20, "warm-up")
            for round_ in range(1, args.rounds + 1):
                phases = [Phase("baseline", measure(base_url, project, args.cycles, f"b{round_}"))]
                for mode in modes:
                    phases.append(
                        phase_with_run(
                            base_url=base_url,
                            project=project,
                            cycles=args.cycles,
                            mode=mode,
                            concurrency=args.concurrency,
                            env=env,
                            workdir=workdir,
                            name=f"run, {mode}",
                            round_=round_,
                        )  # fmt: skip
                    )
                    print(suggestion_stats(), flush=True)
                phases.append(
                    Phase("baseline", measure(base_url, project, args.cycles, f"c{round_}"))
                )
                baseline = CycleLog()
                for phase in (phases[0], phases[-1]):
                    baseline.merge(phase.log)
                print(
                    f"== round {round_}: one annotator, ms; load average "
                    f"{os.getloadavg()[0]:.1f} =="
                )
                print("\n".join(report(phases, baseline)), flush=True)
                for phase in phases:
                    problems += [f"{phase.name}: {f}" for f in phase.log.failures]
                    problems += [f"{phase.name}: {k} x{n}" for k, n in phase.log.errors.items()]
                    if len(phase.log.cycle_s) != args.cycles:
                        problems.append(f"{phase.name}: {len(phase.log.cycle_s)} cycles")
                    if not phase.going:
                        problems.append(f"{phase.name}: the run ended before the measurement")
        finally:
            stop(server)
            redis.stop()
            if not args.keep_db:
                drop_database(base_db, name)
    print("OK" if not problems else "PROBLEMS:\n  " + "\n  ".join(problems))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
