"""A symbolic auto-label run over the same number of solutions in a small and a huge project.

    export DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres
    .venv/bin/python bench/export_bench.py --n 1000000 --keep --db steplab_h26_export_1m ...
    .venv/bin/python bench/run_scale_bench.py --large-db steplab_h26_export_1m \\
        --small-n 20000 --slice 5000 --processes 4 --rounds 2

Does anything in a run's path grow with the project? The large side is a kept database whose
project `--large-project` (export_bench.py's "bench: big": generated solutions imported with
their labels as submitted annotations) has, say, a million solutions; the small side is a
database of `--small-n` solutions built the same way (bench/import_bench.py's generator,
`harness.imported_project`, labels as annotations), kept as `<--small-db>` and reused. On each
side a symbolic run (autolabel_run_create with a `solution_ids` filter) covers `--slice`
solutions spread evenly over the project, so both runs do the same work on as many solutions.
Alternating the sides `--rounds` times, each round on each side:

1. one chunk processed here, its statements captured, then each statement's
   EXPLAIN (ANALYZE, BUFFERS) in a transaction rolled back: its time and buffers (shared hit +
   read), summed; a statement that grows with the project shows here;
2. the rest of the run end to end with `--processes` spawned worker processes taking its chunks
   off one queue (as run_speed_bench.py --processes, as Celery's prefork pool does): the rate
   (solutions/s, wall time from the start to the last chunk), each worker's own CPU per
   solution (the run's overhead and the engine's client side) and its check workers' CPU per
   solution (the engine itself), and the run's progress as the UI reads it (RunOutput: rate,
   eta_seconds), polled every second while it runs.

Prints the ratios large / small and the full project's time at the large side's rate, a
projection.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

import harness  # noqa: E402

SERVER = os.environ.get("DATABASE_URL", "")


def _url(db: str) -> str:
    return urlunsplit(urlsplit(SERVER)._replace(path=f"/{db}"))


def _use(db: str) -> None:
    """Point Django's default connection (and the workers spawned next) at `db`."""
    from django.db import connection

    connection.close()
    connection.settings_dict["NAME"] = db
    os.environ["DATABASE_URL"] = _url(db)


@dataclass
class Side:
    db: str
    project_name: str
    rates: list[float] = field(default_factory=list)
    own_ms: list[float] = field(default_factory=list)
    checkers_ms: list[float] = field(default_factory=list)
    queries: list[int] = field(default_factory=list)
    sql_ms: list[float] = field(default_factory=list)
    buffers: list[int] = field(default_factory=list)
    ui_rates: list[float] = field(default_factory=list)
    etas: list[str] = field(default_factory=list)
    solutions: int = 0

    def project(self):  # noqa: ANN201 - a Project
        from labeling.models import Project

        _use(self.db)
        return Project.objects.get(name=self.project_name)


def _small_build(db: str, n: int) -> None:
    """The small side's database, built once like export_bench's big project (kept)."""
    if harness.kept_database(db):
        return
    import psycopg
    from django.core.management import call_command
    from django.db import connection

    with psycopg.connect(SERVER, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {db}")
    _use(db)
    call_command("migrate", verbosity=0)
    started = time.perf_counter()
    harness.imported_project(n=n, name="bench: small run", overlap=1, labels_as="annotations")
    connection.close()
    with psycopg.connect(_url(db), autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE")
    print(f"built {db}: {n} solutions in {time.perf_counter() - started:.0f} s")


def _slice(project, size: int) -> list[int]:
    """`size` solution ids spread evenly over the project, in id order."""
    from labeling.models import Solution

    total = Solution.objects.filter(project=project).count()
    step = max(1, total // size)
    ids = Solution.objects.filter(project=project).order_by("id").values_list("id", flat=True)
    return list(ids[::step][:size]) if step > 1 else list(ids[:size])


def _explain_chunk(run, chunk: list[int], verbose: bool) -> tuple[int, float, int]:
    """(statements, their EXPLAIN ANALYZE ms summed, shared buffers summed) of one chunk."""
    import json

    from django.db import connection, transaction
    from django.test.utils import CaptureQueriesContext

    from autolabel.tasks import autolabel_chunk_task

    with CaptureQueriesContext(connection) as captured:
        autolabel_chunk_task(run.pk, chunk)
    statements = [
        q["sql"]
        for q in captured.captured_queries
        if q["sql"].lstrip().upper().startswith(("SELECT", "INSERT", "UPDATE", "DELETE", "WITH"))
    ]
    ms, buffers = 0.0, 0
    for sql in statements:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(f"EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) {sql}")
            plan = cursor.fetchone()[0]
            plan = json.loads(plan) if isinstance(plan, str) else plan
            top = plan[0]
            took = top["Execution Time"] + top.get("Planning Time", 0.0)
            node = top["Plan"]
            shared = node.get("Shared Hit Blocks", 0) + node.get("Shared Read Blocks", 0)
            ms, buffers = ms + took, buffers + shared
            if verbose:
                print(f"    {took:7.2f} ms {shared:6d} buffers  {' '.join(sql.split())[:110]}")
            transaction.set_rollback(True)
    return len(statements), ms, buffers


def _worker(chunks, ready, go, results) -> None:
    """A spawned worker: its own Django and symbolic check workers; warm up, wait, take chunks
    off the queue, then report its own CPU and its check workers'."""
    import django

    django.setup()
    from run_speed_bench import checkers_cpu

    from autolabel import timeouts
    from autolabel.tasks import autolabel_chunk_task

    timeouts.warm_up()
    ready.put(os.getpid())
    go.wait()
    cpu, checkers = time.process_time(), checkers_cpu()
    while (job := chunks.get()) is not None:
        autolabel_chunk_task(*job)
    results.put((time.process_time() - cpu, checkers_cpu() - checkers))


def _ui_read(run_id: int) -> dict:
    from autolabel.api import RunOutput
    from autolabel.models import AutolabelRun

    return RunOutput(AutolabelRun.objects.get(pk=run_id)).data


def one_side(side: Side, ids: list[int], processes: int, chunk_size: int, verbose: bool) -> str:
    import multiprocessing

    from django.db import connections

    from autolabel.services import autolabel_run_chunks, autolabel_run_create

    project = side.project()
    run = autolabel_run_create(project=project, sources=["symbolic"], filter={"solution_ids": ids})
    chunks = autolabel_run_chunks(run=run, size=chunk_size)
    queries, sql_ms, buffers = _explain_chunk(run, chunks[0], verbose)
    rest = chunks[1:]
    solutions = sum(len(c) for c in rest)
    connections.close_all()
    spawn = multiprocessing.get_context("spawn")
    queue, ready, go, results = spawn.Queue(), spawn.Queue(), spawn.Event(), spawn.Queue()
    workers = [
        spawn.Process(target=_worker, args=(queue, ready, go, results)) for _ in range(processes)
    ]
    for worker in workers:
        worker.start()
    for _ in workers:
        ready.get(timeout=180)
    for chunk in rest:
        queue.put((run.pk, chunk))
    for _ in workers:
        queue.put(None)
    load = harness.load_line()
    wall = time.perf_counter()
    go.set()
    polls: list[dict] = []
    while any(w.is_alive() for w in workers):
        time.sleep(1.0)
        polls.append(_ui_read(run.pk))
    cpu = [results.get(timeout=60) for _ in workers]
    wall = time.perf_counter() - wall
    for worker in workers:
        worker.join()
    final = _ui_read(run.pk)
    rate = solutions / wall
    own = sum(c[0] for c in cpu) / solutions * 1000
    checkers = sum(c[1] for c in cpu) / solutions * 1000
    # The UI's reading in the middle half of the run (the smoothed rate's warm-up and the
    # last chunks left out).
    middle = [p for p in polls if 0.25 <= p["progress"] <= 0.75 and p["rate"]]
    ui_rate = statistics.median([p["rate"] for p in middle]) if middle else float("nan")
    eta = (
        f"{middle[len(middle) // 2]['eta_seconds']} s at {middle[len(middle) // 2]['progress']:.0%}"
        if middle
        else "-"
    )
    side.rates.append(rate)
    side.own_ms.append(own)
    side.checkers_ms.append(checkers)
    side.queries.append(queries)
    side.sql_ms.append(sql_ms)
    side.buffers.append(buffers)
    side.ui_rates.append(ui_rate)
    side.etas.append(eta)
    side.solutions = project.solutions.count()
    return (
        f"{side.db}: {solutions} solutions in {wall:.1f} s = {rate:.1f} solutions/s; worker "
        f"CPU {own:.2f} ms/solution, check workers {checkers:.2f} ms/solution; first chunk "
        f"{queries} statements, {sql_ms:.1f} ms in EXPLAIN ANALYZE, {buffers} buffers; UI "
        f"rate {ui_rate:.1f}/s (median of {len(middle)} polls mid-run), time left {eta}; run "
        f"{final['status']}, {final['done']} done, {final['failed']} failed; {load}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--large-db", required=True, help="a kept database (export_bench --keep)")
    parser.add_argument("--large-project", default="bench: big")
    parser.add_argument("--small-n", type=int, default=20_000)
    parser.add_argument("--small-db", default="", help="default steplab_run_scale_<small-n>")
    parser.add_argument("--slice", type=int, default=5_000, help="solutions a run covers")
    parser.add_argument("--processes", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--explain", action="store_true", help="print each statement's plan cost")
    args = parser.parse_args()
    if not SERVER.startswith(("postgres://", "postgresql://")):
        raise SystemExit("run_scale_bench needs PostgreSQL: set DATABASE_URL")
    if not harness.kept_database(args.large_db):
        raise SystemExit(f"no database {args.large_db}: build it with export_bench.py --keep")
    small_db = args.small_db or f"steplab_run_scale_{args.small_n}"
    os.environ["DEBUG"] = "False"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "annotate.settings.local")
    os.environ["DATABASE_URL"] = _url(args.large_db)
    import django

    django.setup()
    from autolabel import timeouts
    from autolabel.engines.checks import chunk_size_of

    _small_build(small_db, args.small_n)
    small = Side(small_db, "bench: small run")
    large = Side(args.large_db, args.large_project)
    slices = {side.db: _slice(side.project(), args.slice) for side in (small, large)}
    timeouts.warm_up()
    print(harness.load_line())
    for round_ in range(args.rounds):
        for side in (small, large):
            verbose = args.explain and round_ == 0
            if verbose:
                print(f"{side.db}, a chunk's statements (EXPLAIN ANALYZE, BUFFERS):")
            line = one_side(side, slices[side.db], args.processes, chunk_size_of({}), verbose)
            print(f"round {round_ + 1}, {line}", flush=True)
    med = statistics.median
    print(f"{'':<34} {'small':>10} {'large':>10} {'large/small':>12}")
    for name, attr in (
        ("solutions in the project", "solutions"),
        ("rate, solutions/s", "rates"),
        ("UI rate, solutions/s", "ui_rates"),
        ("worker CPU, ms/solution", "own_ms"),
        ("check workers CPU, ms/solution", "checkers_ms"),
        ("statements, first chunk", "queries"),
        ("their EXPLAIN ANALYZE ms", "sql_ms"),
        ("their shared buffers", "buffers"),
    ):
        a, b = getattr(small, attr), getattr(large, attr)
        a, b = (med(a), med(b)) if isinstance(a, list) else (a, b)
        print(f"{name:<34} {a:>10.1f} {b:>10.1f} {b / a if a else float('nan'):>11.2f}x")
    rate = med(large.rates)
    hours = large.solutions / rate / 3600
    print(
        f"projection: the large project's {large.solutions:,} solutions at {rate:.1f} "
        f"solutions/s (this run's median, this machine's load) = {hours:.1f} h"
    )


if __name__ == "__main__":
    main()
