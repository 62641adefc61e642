"""The Assignments tab's problem sources with their counts, in a project of 10k and of N.

    export DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres
    .venv/bin/python bench/source_counts_bench.py --n 1000000 --before /tmp/before_tree

Builds (once, kept: scale_bench's generator, 1% labeled, five sources) `<--db-prefix>10000`
and `<--db-prefix><N>`. For each tree (this one, and with --before an older checkout,
alternated) and side, in a fresh process: GET /api/projects/<id>/problem-sources/ `--repeat`
times (p50, its statements, the slowest), as an admin's Assignments tab loads it. On a tree that
stores a large project's counts (labeling.services.queue.source_counts) the refresh task's work
(`source_counts_refresh`) runs first, untimed in the p50 but printed (`refresh_s`), and the GET
is timed twice: exact (nothing changed since) and behind (an assignment written since: served
with `as_of`).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SMALL = 10_000


def _gets(client, url: str, repeat: int) -> dict:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    times, statements, slowest, body = [], 0, "", {}
    for _ in range(repeat):
        with CaptureQueriesContext(connection) as queries:
            started = time.perf_counter()
            response = client.get(url)
            times.append(time.perf_counter() - started)
        assert response.status_code == 200, response.content[:300]
        body = response.json()
        statements = len(queries)
        top = max(queries.captured_queries, key=lambda q: float(q["time"]))
        slowest = f"{float(top['time']):.3f}s:{top['sql'][:50]!r}"
    sources = sum(r["solutions"] for r in body["results"])
    return {
        "p50_s": statistics.median(times),
        "statements": statements,
        "slowest": slowest,
        "counted": sources,
        "as_of": bool(body.get("as_of")),
    }


def one_tree(tree: Path, db: str, repeat: int) -> dict:
    from harness import django_in_tree, scale_client

    django_in_tree(str(tree), db)
    project, client = scale_client()
    client.get(f"/api/projects/{project.pk}/")  # warms the process
    url = f"/api/projects/{project.pk}/problem-sources/"
    try:
        from labeling.services.queue import source_counts
    except ImportError:  # an older tree: every request counts
        return _gets(client, url, repeat)
    started = time.perf_counter()
    source_counts.source_counts_refresh(project=project)
    out = {"refresh_s": time.perf_counter() - started, **_gets(client, url, repeat)}
    source_counts.source_counts_mark(project_id=project.pk)  # as an assignment write does
    behind = _gets(client, url, repeat)
    out |= {f"behind_{k}": v for k, v in behind.items() if k in ("p50_s", "statements", "as_of")}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--db-prefix", default="steplab_run_create_")
    parser.add_argument("--before", default="", help="an older checkout (with .venv) to compare")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--child", default="")
    parser.add_argument("--db", default="")
    args = parser.parse_args()
    if args.child:
        print(json.dumps(one_tree(Path(args.child), args.db, args.repeat)))
        return
    from harness import scale_databases

    dbs = scale_databases(args.db_prefix, [SMALL, args.n])
    trees = {"after": REPO, **({"before": Path(args.before)} if args.before else {})}
    p50: dict[tuple[str, int], float] = {}
    for _ in range(args.rounds):
        for n, db in dbs.items():
            for name, tree in trees.items():
                load = os.getloadavg()[0]
                argv = [sys.executable, __file__, "--child", str(tree), "--db", db]
                argv += ["--repeat", str(args.repeat)]
                done = subprocess.run(argv, capture_output=True, text=True, check=False)
                if done.returncode:
                    raise SystemExit(f"{name} {n} failed:\n{done.stderr[-3000:]}")
                row = json.loads(done.stdout.strip().splitlines()[-1])
                p50[(name, n)] = row["p50_s"]
                cells = " ".join(
                    f"{k}={v:.3f}" if isinstance(v, float) else f"{k}={v}" for k, v in row.items()
                )
                print(f"{name} {n} load={load:.1f} {cells}", flush=True)
    for name in trees:
        small, large = p50[(name, SMALL)], p50[(name, args.n)]
        print(f"{name}: {args.n} / {SMALL} p50 ratio {large / small:.2f}x", flush=True)
    if args.before:
        ratio = p50[("before", args.n)] / p50[("after", args.n)]
        print(f"at {args.n}: before / after {ratio:.1f}x", flush=True)


if __name__ == "__main__":
    main()
