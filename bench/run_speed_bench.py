"""An auto-label run's own cost beside its engine's: the symbolic engine alone vs a run.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \
        .venv/bin/python bench/run_speed_bench.py --n 600
    ... --profile 25          # and cProfile's top 25 functions of the run's chunks

Creates a throwaway PostgreSQL database `run_speed_bench_<pid>` next to the one DATABASE_URL
names (bench/harness.py), imports N generated solutions (bench/import_bench.py: real problems
and steps of shared/data, about 8 steps each), ANALYZEs, and times in this one process:

1. ``engine``: the symbolic engine called on every solution's input (built beforehand, not
   timed), as a worker would call it with nothing around it;
2. ``run``: a symbolic run over the same solutions (autolabel_run_create), its chunks (the
   run's chunk size, 20) processed by calling the chunk task's body (autolabel_chunk_task,
   synchronously: the database reads and writes, the review-reason refresh, the item
   bookkeeping and the run's counters, as a Celery worker does them).

The symbolic checks themselves run in pooled worker processes (autolabel/timeouts.py), so this
process's CPU time (time.process_time) in (1) is the engine's client side (one round trip per
group of up to 16 steps: autolabel/symbolic/batch.py) and in (2) that plus the run's own
overhead: their difference per solution is what a run costs beside the engine. The engine is
warmed up first and the check results are memoized in neither path. Wall times and rates are
printed too, and the queries of one chunk (CaptureQueriesContext). `--rounds R` alternates
engine and run R times on fresh runs (the
second run of a solution overwrites the first's suggestions, as a repeated run does).
`--processes P` then runs the whole run end to end (its wall time from the first chunk to the
last) with P spawned worker processes taking the chunks off one queue as Celery's prefork
workers do (each warmed up before the clock starts), against the engine alone in one process
measured just before and just after (the mean of the two; `--pairs K` alternates them K times
and prints the median ratio, and each phase's share of CPU time stolen by the hypervisor):
the issue's goal is >= 1.5x on two cores.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

import harness  # noqa: E402


def _inputs(solution_ids: list[int]) -> list:
    from autolabel.services import _solution_input
    from labeling.models import Solution

    solutions = Solution.objects.filter(pk__in=solution_ids).select_related("problem")
    return [_solution_input(s) for s in solutions.order_by("id")]


def checkers_cpu() -> float:
    """CPU seconds used so far by this process's descendants: the symbolic check workers."""
    import psutil

    total = 0.0
    for child in psutil.Process().children(recursive=True):
        try:
            times = child.cpu_times()
        except psutil.NoSuchProcess:
            continue
        total += times.user + times.system
    return total


def machine_ticks() -> tuple[int, int]:
    """(all ticks, stolen ticks) of the machine's CPUs so far, from /proc/stat: the share a
    phase lost to the hypervisor (steal) says how much its rate tells about this code."""
    with open("/proc/stat") as stat:
        fields = [int(value) for value in stat.readline().split()[1:]]
    return sum(fields[:8]), fields[7] if len(fields) > 7 else 0


def steal_since(start: tuple[int, int]) -> float:
    total, stolen = machine_ticks()
    return (stolen - start[1]) / max(1, total - start[0])


def engine_alone(inputs: list) -> tuple[float, float, float]:
    """(wall s, this process's CPU s, the check workers' CPU s) of the symbolic engine."""
    from autolabel.registry import ENGINES

    engine = ENGINES["symbolic"]
    wall, cpu, checkers = time.perf_counter(), time.process_time(), checkers_cpu()
    for data in inputs:
        engine(data, {})
    return time.perf_counter() - wall, time.process_time() - cpu, checkers_cpu() - checkers


def one_run(
    project, profile: cProfile.Profile | None, show: bool
) -> tuple[float, float, int, object]:
    """(wall s, CPU s, queries of the first chunk, the finished run) of a symbolic run."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from autolabel.engines.checks import chunk_size_of
    from autolabel.services import autolabel_run_chunks, autolabel_run_create
    from autolabel.tasks import autolabel_chunk_task

    run = autolabel_run_create(project=project, sources=["symbolic"])
    chunks = autolabel_run_chunks(run=run, size=chunk_size_of(run.params))
    with CaptureQueriesContext(connection) as first:
        autolabel_chunk_task(run.pk, chunks[0])
    for query in first.captured_queries if show else []:
        print("   ", query["sql"][:160])
    wall, cpu = time.perf_counter(), time.process_time()
    if profile is not None:
        profile.enable()
    for chunk in chunks[1:]:
        autolabel_chunk_task(run.pk, chunk)
    if profile is not None:
        profile.disable()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    run.refresh_from_db()
    return wall, cpu, len(first.captured_queries), run


def _chunk_worker(chunks, ready, go) -> None:
    """A worker process (spawned: its own Django, its own symbolic check workers): warm up,
    wait for the start, then take chunks off the queue as a Celery worker would."""
    import django

    django.setup()
    from autolabel import timeouts
    from autolabel.tasks import autolabel_chunk_task

    timeouts.warm_up()
    ready.put(os.getpid())
    go.wait()
    while (job := chunks.get()) is not None:
        autolabel_chunk_task(*job)


def parallel_run(project, processes: int) -> tuple[float, object]:
    """(wall s, the finished run) of a symbolic run whose chunks `processes` worker processes
    take off one queue; the clock starts once every worker is warm."""
    import multiprocessing

    from django.db import connections

    from autolabel.engines.checks import chunk_size_of
    from autolabel.services import autolabel_run_chunks, autolabel_run_create

    run = autolabel_run_create(project=project, sources=["symbolic"])
    chunks = autolabel_run_chunks(run=run, size=chunk_size_of(run.params))
    connections.close_all()
    spawn = multiprocessing.get_context("spawn")
    queue, ready, go = spawn.Queue(), spawn.Queue(), spawn.Event()
    workers = [
        spawn.Process(target=_chunk_worker, args=(queue, ready, go)) for _ in range(processes)
    ]
    for worker in workers:
        worker.start()
    for _ in workers:
        ready.get(timeout=120)
    for chunk in chunks:
        queue.put((run.pk, chunk))
    for _ in workers:
        queue.put(None)
    wall = time.perf_counter()
    go.set()
    for worker in workers:
        worker.join()
    wall = time.perf_counter() - wall
    run.refresh_from_db()
    return wall, run


def end_to_end(inputs: list, project, processes: int, pairs: int) -> None:
    """Alternate the engine alone in one process and the run end to end with `processes`
    workers, `pairs` times, the engine measured before the first run and after each: each run's
    ratio is against the mean of the engine's rate just before and just after it (the machine's
    own speed drifts: on the shared VM the same checks' CPU time moved 2x between passes)."""
    import statistics

    n = len(inputs)
    ticks = machine_ticks()
    e_wall, _, _ = engine_alone(inputs)
    before = (n / e_wall, steal_since(ticks))
    ratios = []
    for pair in range(pairs):
        ticks = machine_ticks()
        p_wall, run = parallel_run(project, processes)
        during = (n / p_wall, steal_since(ticks))
        ticks = machine_ticks()
        e_wall, _, _ = engine_alone(inputs)
        after = (n / e_wall, steal_since(ticks))
        engine_rate = (before[0] + after[0]) / 2
        ratios.append(during[0] / engine_rate)
        print(
            f"end to end {pair + 1}/{pairs}, {processes} worker processes on {os.cpu_count()} "
            f"cores: {during[0]:6.1f} solutions/s (steal {during[1]:.0%}) against the engine "
            f"alone in one process {before[0]:6.1f} before (steal {before[1]:.0%}) and "
            f"{after[0]:6.1f} after (steal {after[1]:.0%}): {ratios[-1]:.2f}x; run "
            f"{run.status}, {run.done} done, {run.failed} failed"
        )
        before = after
    if pairs > 1:
        print(
            f"end to end / engine alone over {pairs} pairs: median {statistics.median(ratios):.2f}x"
            f" (min {min(ratios):.2f}x, max {max(ratios):.2f}x)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=600, help="solutions")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--profile", type=int, default=0, help="print the top K functions")
    parser.add_argument(
        "--labels-as",
        choices=("none", "annotations"),
        default="none",
        help="annotations: every solution has a submitted annotation (reasons refreshed)",
    )
    parser.add_argument("--queries", action="store_true", help="print the first chunk's SQL")
    parser.add_argument(
        "--processes",
        type=int,
        default=0,
        help="also run end to end with this many worker processes, against the engine alone",
    )
    parser.add_argument(
        "--pairs",
        type=int,
        default=1,
        help="with --processes: alternate engine alone and end to end this many times",
    )
    parser.add_argument("--keep-db", action="store_true")
    args = parser.parse_args()

    db = f"run_speed_bench_{os.getpid()}"
    where, cleanup = harness.django_on_throwaway_database(db)
    try:
        harness.migrate(where)
        from autolabel import timeouts
        from labeling.models import Solution

        project = harness.imported_project(
            n=args.n, name="run speed", overlap=1, labels_as=args.labels_as
        )
        harness.analyze()
        ids = list(
            Solution.objects.filter(project=project).order_by("id").values_list("id", flat=True)
        )
        inputs = _inputs(ids)
        timeouts.warm_up()
        engine_alone(inputs[:20])  # the workers' first checks import and cache
        profile = cProfile.Profile() if args.profile else None
        n = len(ids)
        for round_ in range(args.rounds):
            e_wall, e_cpu, e_checkers = engine_alone(inputs)
            r_wall, r_cpu, queries, run = one_run(
                project, profile if round_ == 0 else None, args.queries and round_ == 0
            )
            timed = n - min(n, 20)  # the first chunk, its queries counted, is untimed
            print(
                f"round {round_ + 1}: engine {n / e_wall:6.1f} solutions/s wall, "
                f"{e_checkers / n * 1000:5.2f} ms CPU/solution in its check workers, "
                f"{e_cpu / n * 1000:5.2f} ms CPU/solution here; run "
                f"{timed / r_wall:6.1f} solutions/s wall, {r_cpu / timed * 1000:5.2f} ms "
                f"CPU/solution here; run's own overhead "
                f"{(r_cpu / timed - e_cpu / n) * 1000:5.2f} ms CPU/solution "
                f"({(r_cpu / timed - e_cpu / n) / ((e_cpu + e_checkers) / n):.0%} of the "
                "engine's); "
                f"first chunk {queries} queries; run {run.status}, {run.done} done, "
                f"{run.failed} failed, {run.suggestions_written} suggestions"
            )
        if args.processes:
            end_to_end(inputs, project, args.processes, args.pairs)
        if profile is not None:
            pstats.Stats(profile).sort_stats("cumulative").print_stats(args.profile)
    finally:
        harness.finish(cleanup, keep=args.keep_db, db=db)


if __name__ == "__main__":
    main()
