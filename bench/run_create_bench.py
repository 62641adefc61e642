"""An auto-label run's creation, start and pause in a project of 10k and of N solutions.

    export DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres
    .venv/bin/python bench/run_create_bench.py --n 1000000 --before /tmp/before_tree

Builds (once, kept; bench/scale_bench.py's generator, 1% labeled) `<--db-prefix>10000` and
`<--db-prefix><N>`, then for each tree (this one, and with --before the checkout of an older
commit, alternated side by side) and each side, a symbolic run over the whole project:

1. the create request (POST /api/projects/<id>/autolabel-runs/ through DRF's test client, in
   a fresh process): its time, its statements, and the process's peak RSS over a warmed
   baseline;
2. in another fresh process the start task (as a worker runs it, in a thread), its time,
   statements and peak RSS, and the chunk messages it left in the broker (a Redis database
   of the bench's own, `--redis`, flushed before each side);
3. a real Celery worker (`--concurrency` processes on the chunks' queue, started before the
   start task): the time from the start task's call to the first chunk done (polled beside
   the start: a start sends its first chunks after its first batch of items);
4. a pause (POST .../pause/) a few seconds in: the request's time, the chunk messages still
   in the broker then, the time until the broker holds none of the run's messages, and the
   last item a worker finished after the pause (so the time a pause takes to act).

Prints one line per tree and side. The run is then cancelled and deleted (not timed).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SMALL = 10_000
QUEUE = "autolabel"


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _setup(tree: Path, db: str) -> None:
    from harness import django_in_tree

    django_in_tree(str(tree), db)


def _client():
    from harness import scale_client

    return scale_client()


def one_create(tree: Path, db: str) -> dict:
    """Fresh process: the create request, timed, its statements counted."""
    _setup(tree, db)
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    project, client = _client()
    client.get(f"/api/projects/{project.pk}/autolabel-runs/")  # warms the process
    base = _rss_mb()
    with CaptureQueriesContext(connection) as queries:
        started = time.perf_counter()
        response = client.post(
            f"/api/projects/{project.pk}/autolabel-runs/", {"sources": ["symbolic"]}, format="json"
        )
        took = time.perf_counter() - started
    assert response.status_code == 202, response.content[:500]
    return {
        "run": response.json()["id"],
        "total": response.json()["total"],
        "create_s": took,
        "create_statements": len(queries),
        "create_rss_mb": _rss_mb() - base,
    }


def _redis(url: str):
    import redis

    return redis.Redis.from_url(url)


def _wait(cond, timeout: float, step: float = 0.05) -> float | None:
    started = time.perf_counter()
    while time.perf_counter() - started < timeout:
        if cond():
            return time.perf_counter() - started
        time.sleep(step)
    return None


def one_start(tree: Path, db: str, run_id: int, args: argparse.Namespace) -> dict:
    """Fresh process: a worker up, the start task, the first chunk, a pause."""
    _setup(tree, db)
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from autolabel.models import AutolabelItem, AutolabelRun
    from autolabel.tasks import autolabel_run_start_task

    project, client = _client()
    broker = _redis(args.redis)
    env = {**os.environ, "MACHINE_WORKER_NICE": "0"}  # both trees alike; on all cores
    env["DATABASE_URL"] = env["DATABASE_URL"].rsplit("/", 1)[0] + f"/{db}"
    worker = subprocess.Popen(
        [str(tree / ".venv/bin/celery"), "-A", "annotate", "worker", "-Q", QUEUE, "-c",
         str(args.concurrency), "-P", "prefork", "--without-gossip", "--without-mingle",
         "--without-heartbeat", "-l", "warning"],
        cwd=tree, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        time.sleep(args.worker_warmup)
        AutolabelRun.objects.get(pk=run_id)
        base = _rss_mb()
        out: dict = {}

        def start() -> None:  # in a thread: a start now sends chunks while it writes items
            with CaptureQueriesContext(connection) as queries:
                out["messages_sent"] = autolabel_run_start_task(run_id)
                out["start_s"] = time.perf_counter() - called
            out["start_statements"] = len(queries)
            connection.close()

        thread = threading.Thread(target=start)
        called = time.perf_counter()
        thread.start()
        # From the start's call, polled beside it (the old start sent its 50,000 chunks one by
        # one while the worker already took them; the current one sends the first window after
        # its first batch of items).
        done = lambda: AutolabelRun.objects.filter(pk=run_id, done__gt=0).exists()  # noqa: E731
        first = _wait(done, 300)
        out["first_chunk_s"] = None if first is None else time.perf_counter() - called
        thread.join()
        out |= {
            "total": AutolabelRun.objects.get(
                pk=run_id
            ).total,  # an API run's, written by the start
            "start_rss_mb": _rss_mb() - base,
            "queued_after_start": broker.llen(QUEUE),
        }
        time.sleep(args.pause_after)
        started = time.perf_counter()
        response = client.post(f"/api/autolabel-runs/{run_id}/pause/")
        paused_at = time.time()
        out["pause_request_s"] = time.perf_counter() - started
        assert response.status_code == 200, response.content[:300]
        out["queued_at_pause"] = broker.llen(QUEUE)
        out["drained_s"] = _wait(lambda: broker.llen(QUEUE) == 0, args.drain_limit, 0.1)
        time.sleep(2)
        last = (
            AutolabelItem.objects.filter(run_id=run_id, status__in=["done", "failed"])
            .order_by("-updated_at")
            .values_list("updated_at", flat=True)
            .first()
        )
        out["last_item_after_pause_s"] = None if last is None else last.timestamp() - paused_at
        out["done_at_end"] = AutolabelRun.objects.get(pk=run_id).done
    finally:
        worker.terminate()
        worker.wait(60)
    client.post(f"/api/autolabel-runs/{run_id}/cancel/")
    return out


def one_pause_in_start(tree: Path, db: str, run_id: int, args: argparse.Namespace) -> dict:
    """Fresh process: the start task in a thread (writing the items of a run created over the
    API) and a pause request `--pause-after` seconds into it, timed."""
    import threading

    _setup(tree, db)
    from django.db import connections

    from autolabel.models import AutolabelRun
    from autolabel.tasks import autolabel_run_start_task

    project, client = _client()
    client.get(f"/api/autolabel-runs/{run_id}/")  # warms the process
    out: dict = {}

    def start() -> None:
        started = time.perf_counter()
        out["sent"] = autolabel_run_start_task(run_id)
        out["start_s"] = time.perf_counter() - started
        connections.close_all()

    thread = threading.Thread(target=start)
    thread.start()
    time.sleep(args.pause_after)
    started = time.perf_counter()
    response = client.post(f"/api/autolabel-runs/{run_id}/pause/")
    out["pause_request_s"] = time.perf_counter() - started
    out["pause_status"] = response.status_code
    out["start_running_at_pause_answer"] = thread.is_alive()
    thread.join()
    run = AutolabelRun.objects.get(pk=run_id)
    out |= {"status": run.status, "total": run.total}
    client.post(f"/api/autolabel-runs/{run_id}/cancel/")
    return out


def _cleanup(db: str, run_id: int) -> None:
    import psycopg

    url = os.environ["DATABASE_URL"].rsplit("/", 1)[0] + f"/{db}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("DELETE FROM autolabel_autolabelitem WHERE run_id = %s", [run_id])
        conn.execute("DELETE FROM autolabel_autolabelrun WHERE id = %s", [run_id])
        conn.execute("DELETE FROM labeling_outboxmessage")
        conn.execute("VACUUM autolabel_autolabelitem")


def _child(mode: str, tree: Path, db: str, args: argparse.Namespace, run_id: int = 0) -> dict:
    argv = [sys.executable, __file__, "--child", mode, "--tree", str(tree), "--db", db,
            "--run", str(run_id), "--redis", args.redis, "--concurrency", str(args.concurrency),
            "--pause-after", str(args.pause_after), "--drain-limit", str(args.drain_limit),
            "--worker-warmup", str(args.worker_warmup)]  # fmt: skip
    env = {**os.environ, "CELERY_BROKER_URL": args.redis, "CELERY_RESULT_BACKEND": args.redis}
    done = subprocess.run(argv, env=env, capture_output=True, text=True, check=False)
    if done.returncode:
        raise SystemExit(f"{mode} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _fmt(value) -> str:
    if value is None:
        return "-"
    return f"{value:.2f}" if isinstance(value, float) else str(value)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--db-prefix", default="steplab_run_create_")
    parser.add_argument("--before", default="", help="an older checkout (with .venv) to compare")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/11")
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--pause-after", type=float, default=3.0)
    parser.add_argument("--drain-limit", type=float, default=240.0)
    parser.add_argument("--worker-warmup", type=float, default=6.0)
    parser.add_argument(
        "--mode",
        default="start",
        choices=["start", "pause-in-start"],
        help="pause-in-start: a pause while the start task writes the items (this tree only)",
    )
    parser.add_argument("--child", default="")
    parser.add_argument("--tree", default=str(REPO))
    parser.add_argument("--db", default="")
    parser.add_argument("--run", type=int, default=0)
    args = parser.parse_args()
    if args.child:
        tree = Path(args.tree)
        if args.child == "create":
            print(json.dumps(one_create(tree, args.db)))
        elif args.child == "pause-in-start":
            print(json.dumps(one_pause_in_start(tree, args.db, args.run, args)))
        else:
            print(json.dumps(one_start(tree, args.db, args.run, args)))
        return

    from harness import scale_databases

    dbs = scale_databases(args.db_prefix, [SMALL, args.n])
    trees = {"after": REPO, **({"before": Path(args.before)} if args.before else {})}
    keys = ["total", "create_s", "create_statements", "create_rss_mb", "start_s",
            "start_statements", "start_rss_mb", "messages_sent", "queued_after_start",
            "first_chunk_s", "pause_request_s", "queued_at_pause", "drained_s",
            "last_item_after_pause_s"]  # fmt: skip
    print("tree side " + " ".join(keys), flush=True)
    for _ in range(args.rounds):
        for n, db in dbs.items():
            for name, tree in trees.items():
                _redis(args.redis).flushdb()
                load = os.getloadavg()[0]
                row = _child("create", tree, db, args)
                try:
                    row |= _child(args.mode, tree, db, args, row["run"])
                finally:
                    _cleanup(db, row["run"])
                shown = keys if args.mode == "start" else [*row]
                cells = " ".join(f"{k}={_fmt(row.get(k))}" for k in shown)
                print(f"{name} {n} load={load:.1f} {cells}", flush=True)
    _redis(args.redis).flushdb()


if __name__ == "__main__":
    main()
