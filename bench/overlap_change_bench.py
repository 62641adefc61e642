"""A project's overlap changed through the API, in a project of 10k and of N solutions.

    export DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres
    .venv/bin/python bench/overlap_change_bench.py --n 1000000 --before /tmp/before_tree

Uses the projects bench/run_create_bench.py builds and keeps (`<--db-prefix><n>`: scale_bench's
generator, 1% labeled, overlap 3). For each tree (this one, and with --before an older
checkout, alternated) and side, in a fresh process: PATCH /api/projects/<id>/ raising the
overlap to 4, then lowering it back to 3, each request timed with its statements; on a tree
whose request leaves the claim pool's flags to a job (labeling.services.queue.pool), that job
too, run as a worker runs it, after each request. The project ends as it began.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SMALL = 10_000


def one_tree(tree: Path, db: str) -> dict:
    from harness import django_in_tree, scale_client

    django_in_tree(str(tree), db)
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    project, client = scale_client()
    client.get(f"/api/projects/{project.pk}/")  # warms the process
    out: dict = {}
    for name, overlap in (("raise", project.overlap + 1), ("lower", project.overlap)):
        with CaptureQueriesContext(connection) as queries:
            started = time.perf_counter()
            response = client.patch(
                f"/api/projects/{project.pk}/", {"overlap": overlap}, format="json"
            )
            out[f"{name}_s"] = time.perf_counter() - started
        assert response.status_code == 200, response.content[:300]
        out[f"{name}_statements"] = len(queries)
        slowest = max(queries.captured_queries, key=lambda q: float(q["time"]))
        out[f"{name}_slowest"] = f"{float(slowest['time']):.2f}s:{slowest['sql'][:60]!r}"
        try:
            from labeling.services.queue.pool import project_queue_refresh
        except ImportError:  # an older tree: the request did it all
            continue
        started = time.perf_counter()
        project_queue_refresh(project_id=project.pk)
        out[f"{name}_job_s"] = time.perf_counter() - started
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--db-prefix", default="steplab_run_create_")
    parser.add_argument("--before", default="", help="an older checkout (with .venv) to compare")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--child", default="")
    parser.add_argument("--db", default="")
    args = parser.parse_args()
    if args.child:
        print(json.dumps(one_tree(Path(args.child), args.db)))
        return
    trees = {"after": REPO, **({"before": Path(args.before)} if args.before else {})}
    keys = ["raise_s", "raise_statements", "raise_job_s", "lower_s", "lower_statements",
            "lower_job_s"]  # fmt: skip
    for _ in range(args.rounds):
        for n in (SMALL, args.n):
            for name, tree in trees.items():
                load = os.getloadavg()[0]
                argv = [
                    sys.executable,
                    __file__,
                    "--child",
                    str(tree),
                    "--db",
                    f"{args.db_prefix}{n}",
                ]
                done = subprocess.run(argv, capture_output=True, text=True, check=False)
                if done.returncode:
                    raise SystemExit(f"{name} {n} failed:\n{done.stderr[-3000:]}")
                row = json.loads(done.stdout.strip().splitlines()[-1])
                cells = " ".join(
                    f"{k}={row[k]:.2f}"
                    if isinstance(row.get(k), float)
                    else f"{k}={row.get(k, '-')}"
                    for k in keys
                )
                print(f"{name} {n} load={load:.1f} {cells}", flush=True)


if __name__ == "__main__":
    main()
