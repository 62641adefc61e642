"""Submits of one project in parallel, with and without the metrics version's bump.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres .venv/bin/python \\
        bench/version_contention_bench.py --db steplab_scale_10000 --threads 8 --cycles 30

Copies `--db` (a bench/scale_bench.py database, kept) to `<db>_loop` (dropped at the end), and
runs `--threads` annotators in threads of this process, each looping the labeling page's
`annotation_submit_then_next` (submit, then claim the next task: one transaction) `--cycles`
times, in three variants interleaved over `--rounds` rounds: no bump (the submit as before the
version), the bump in slots (labeling.services.projects.metrics_version), and one slot (a
counter on one row per project, as `UPDATE project SET v = v + 1` would be). Prints p50 / p90
of a cycle and cycles per second per variant.
"""

import argparse
import os
import statistics
import sys
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
VARIANTS = ("none", "slots", "one row")


def _copy(db: str, copy: str, *, drop_only: bool = False) -> None:
    from urllib.parse import urlsplit, urlunsplit

    import psycopg

    url = urlunsplit(urlsplit(os.environ["DATABASE_URL"])._replace(path="/postgres"))
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {copy}")
        if not drop_only:
            conn.execute(f"CREATE DATABASE {copy} TEMPLATE {db}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", required=True, help="a bench/scale_bench.py database")
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--cycles", type=int, default=30, help="per thread and variant")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    copy = f"{args.db}_loop"
    _copy(args.db, copy)
    base = os.environ["DATABASE_URL"].rsplit("/", 1)[0]
    os.environ["DATABASE_URL"] = f"{base}/{copy}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "annotate.settings.local")
    import django

    django.setup()
    try:
        run(args)
    finally:
        from django.db import connections

        connections.close_all()
        os.environ["DATABASE_URL"] = f"{base}/postgres"
        _copy(args.db, copy, drop_only=True)


def run(args: argparse.Namespace) -> None:
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connections

    from labeling.models import Annotation, Project, ProjectMembership
    from labeling.services.labeling import annotations
    from labeling.services.labeling.next_task import annotation_submit_then_next, next_task_claim
    from labeling.services.projects import metrics_version

    call_command("migrate", verbosity=0)
    project = Project.objects.get(name="bench: scale (ready)")
    users = []
    for i in range(args.threads * len(VARIANTS)):
        user, _ = get_user_model().objects.get_or_create(username=f"contention-{i}")
        ProjectMembership.objects.get_or_create(
            project=project, user=user, defaults={"role": "annotator"}
        )
        users.append(user)
    bump, slots = annotations.metrics_version_bump, metrics_version.SLOTS

    def cycles(user, out: list[float]) -> None:
        task = next_task_claim(project=project, user=user)
        for _ in range(args.cycles):
            if task is None:
                break
            annotation = Annotation.objects.get(pk=task["annotation"]["id"])
            labels = [{"step_id": s["id"], "rating": 1} for s in task["solution"]["steps"]]
            started = time.perf_counter()
            _, task = annotation_submit_then_next(
                annotation=annotation,
                user=user,
                project=project,
                version=annotation.version,
                labels=labels,
            )
            out.append((time.perf_counter() - started) * 1000)
        connections.close_all()

    times: dict[str, list[float]] = {v: [] for v in VARIANTS}
    rates: dict[str, list[float]] = {v: [] for v in VARIANTS}
    for r in range(args.rounds):
        for i in range(len(VARIANTS)):
            variant = VARIANTS[(r + i) % len(VARIANTS)]
            annotations.metrics_version_bump = (lambda **_: None) if variant == "none" else bump
            metrics_version.SLOTS = 1 if variant == "one row" else slots
            batch = users[i * args.threads : (i + 1) * args.threads]
            outs: list[list[float]] = [[] for _ in batch]
            threads = [
                threading.Thread(target=cycles, args=(u, o))
                for u, o in zip(batch, outs, strict=True)
            ]
            started = time.perf_counter()
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            done = [t for out in outs for t in out]
            rates[variant].append(len(done) / (time.perf_counter() - started))
            times[variant] += done
    annotations.metrics_version_bump, metrics_version.SLOTS = bump, slots
    print(f"{'variant':<8} {'cycles':>6} {'p50 ms':>7} {'p90 ms':>7}  cycles/s per round")
    for variant in VARIANTS:
        t = times[variant]
        p90 = statistics.quantiles(t, n=10)[-1]
        each = " / ".join(f"{x:.1f}" for x in rates[variant])
        print(f"{variant:<8} {len(t):>6} {statistics.median(t):>7.1f} {p90:>7.1f}  {each}")


if __name__ == "__main__":
    main()
