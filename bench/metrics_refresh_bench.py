"""A metrics refresh after a few submits, and the submits themselves, in one tree's code.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres .venv/bin/python \\
        bench/metrics_refresh_bench.py --db steplab_scale_10000 --rounds 5 --submits 5
    # the same against another checkout (e.g. main from `git archive`), same databases:
    ... bench/metrics_refresh_bench.py --db steplab_scale_10000 --tree /tmp/main_tree

On a bench/scale_bench.py database (kept; it gains the annotations submitted here; migrated to
the tree with the most migrations), one process of the code in `--tree` runs one untimed
refresh (`metrics_refresh`, what `project_metrics_refresh_task` runs: on a tree with the
partial aggregates the first one may rebuild them), then `--rounds` times: `--submits` submits
by one annotator through the labeling page's `annotation_submit_then_next` (each timed, its
statements counted), then one timed refresh. `--unlogged` moves the metrics version by a bare
bump before each timed refresh (what an import or the admin does), so that a tree with the
partial aggregates rebuilds them all: the full cost. `--statements`: the last refresh's ten
slowest statements (ms, SQL). `--parts`: per round, each part of the refresh (the metrics'
functions, the parts update, the stats) as wall ms, this process's CPU ms and its share of the
refresh's wall time.

Each refresh is timed as wall ms, the client's CPU (this process) and the database backend's
CPU (its /proc stat, the server being on this machine), with its statement count. Prints one
JSON line: medians of each, and every round's numbers.
"""

import argparse
import json
import os
import statistics
import time
from pathlib import Path

READY = "bench: scale (ready)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", required=True, help="a bench/scale_bench.py database")
    parser.add_argument("--tree", default=str(Path(__file__).resolve().parent.parent))
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--submits", type=int, default=5, help="submits before each refresh")
    parser.add_argument("--unlogged", action="store_true", help="a bare bump before each")
    parser.add_argument("--statements", action="store_true", help="the last refresh's, by time")
    parser.add_argument("--parts", action="store_true", help="each part's time, per round")
    args = parser.parse_args()
    from harness import django_in_tree

    django_in_tree(args.tree, args.db)
    print(json.dumps(run(args)))


def _backend_cpu_s(cursor) -> float:
    """The database backend's user + system CPU seconds so far (a local server's /proc)."""
    cursor.execute("SELECT pg_backend_pid()")
    pid = cursor.fetchone()[0]
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run(args: argparse.Namespace) -> dict:
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from labeling.models import Annotation, Project, ProjectMembership
    from labeling.services.labeling.next_task import annotation_submit_then_next, next_task_claim
    from labeling.services.projects.metrics import metrics_refresh
    from labeling.services.projects.metrics_version import metrics_version_bump

    project = Project.objects.get(name=READY)
    parts = _timed_parts() if args.parts else None
    user, _ = get_user_model().objects.get_or_create(username="refresh-lab-0")
    ProjectMembership.objects.get_or_create(
        project=project, user=user, defaults={"role": "annotator"}
    )
    started = time.perf_counter()
    metrics_refresh(project=project)
    first_ms = (time.perf_counter() - started) * 1000
    task = next_task_claim(project=project, user=user)
    submits, submit_statements, refreshes = [], [], []
    for _ in range(args.rounds):
        for _ in range(args.submits):
            if task is None:
                raise SystemExit("nothing left to claim")
            annotation = Annotation.objects.get(pk=task["annotation"]["id"])
            labels = [
                {"step_id": s["id"], "rating": (1, -1, 0)[s["id"] % 3]}
                for s in task["solution"]["steps"]
            ]
            with CaptureQueriesContext(connection) as statements:
                began = time.perf_counter()
                _, task = annotation_submit_then_next(
                    annotation=annotation,
                    user=user,
                    project=project,
                    version=annotation.version,
                    labels=labels,
                )
                submits.append((time.perf_counter() - began) * 1000)
            submit_statements.append(len(statements))
        if args.unlogged:
            metrics_version_bump(project_id=project.pk)
        with connection.cursor() as cursor:
            server = _backend_cpu_s(cursor)
        client = time.process_time()
        if parts is not None:
            parts.clear()
        with CaptureQueriesContext(connection) as statements:
            began = time.perf_counter()
            metrics_refresh(project=project)
            wall = (time.perf_counter() - began) * 1000
        client = time.process_time() - client
        with connection.cursor() as cursor:
            server = _backend_cpu_s(cursor) - server
        refreshes.append(
            {
                "wall_ms": round(wall, 1),
                "client_cpu_ms": round(client * 1000, 1),
                "server_cpu_ms": round(server * 1000, 1),
                "sql_ms": round(sum(float(q["time"]) for q in statements) * 1000, 1),
                "statements": len(statements),
                **({"parts": _shares(parts, wall)} if parts is not None else {}),
            }
        )
    import labeling

    slowest = sorted(statements.captured_queries, key=lambda q: -float(q["time"]))

    def median(key: str) -> float:
        return round(statistics.median(r[key] for r in refreshes), 1)

    return {
        "code": str(Path(labeling.__file__).parent.parent),
        "db": args.db,
        "load": os.getloadavg()[0],
        "first_refresh_ms": round(first_ms, 1),
        "refresh_p50_ms": median("wall_ms"),
        "refresh_client_cpu_ms": median("client_cpu_ms"),
        "refresh_server_cpu_ms": median("server_cpu_ms"),
        "refresh_sql_ms": median("sql_ms"),
        "refresh_statements": median("statements"),
        "submit_p50_ms": round(statistics.median(submits), 1),
        "submit_statements": sorted(set(submit_statements)),
        "refreshes": refreshes,
        **(
            {"statements": [(float(q["time"]) * 1000, q["sql"][:140]) for q in slowest[:10]]}
            if args.statements
            else {}
        ),
    }


# What a refresh runs, by module and name (a name a tree lacks is left out).
_PARTS = {
    "labeling.metrics.queries": (
        "first_error_agreement",
        "gold_accuracy",
        "auto_source_agreement",
        "step_rating_agreement",
    ),
    "labeling.metrics.domains": (
        "annotation_coverage",
        "annotator_totals",
        "review_progress",
        "per_domain",
    ),
    "labeling.services.projects.metrics_parts": (
        "activity_from_parts",
        "gold_accuracy_from_parts",
        "source_agreement_from_rows",
    ),
    "labeling.services.projects.metrics": ("metrics_parts_update", "project_stats"),
}


def _timed_parts() -> dict[str, list[float]]:
    """Wrap each of _PARTS where its caller looks it up; their [wall s, CPU s] per name."""
    import importlib

    times: dict[str, list[float]] = {}
    for module_name, names in _PARTS.items():
        module = importlib.import_module(module_name)
        for name in names:
            real = getattr(module, name, None)
            if real is None:
                continue

            def timed(*args, _real=real, _name=name, **kwargs):
                wall, cpu = time.perf_counter(), time.process_time()
                try:
                    return _real(*args, **kwargs)
                finally:
                    spent = times.setdefault(_name, [0.0, 0.0])
                    spent[0] += time.perf_counter() - wall
                    spent[1] += time.process_time() - cpu

            setattr(module, name, timed)
    return times


def _shares(times: dict[str, list[float]], wall_ms: float) -> dict[str, list]:
    ordered = sorted(times.items(), key=lambda item: -item[1][0])
    return {
        name: [round(w * 1000), round(c * 1000), f"{w * 1000 / wall_ms:.0%}"]
        for name, (w, c) in ordered
    }


if __name__ == "__main__":
    main()
