"""The dashboard while a team labels: its two requests timed while annotators submit.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres .venv/bin/python \\
        bench/dashboard_labeling_bench.py --db steplab_scale_10000 --loads 20
    # the same against another checkout (e.g. main from `git archive`), same databases:
    ... bench/dashboard_labeling_bench.py --db steplab_scale_10000 --tree /tmp/main_tree

On a bench/scale_bench.py database (kept; it gains the few annotations submitted here), one
process of the code in `--tree` (default: this checkout) runs:

- `--annotators` threads, each looping the labeling page's `annotation_submit_then_next`
  every `--every` seconds (so the project's metrics version moves every few seconds);
- a worker thread that runs what `project_metrics_refresh_task` runs (`metrics_refresh`) for
  each refresh the service queues (the outbox's publish is replaced by a queue to it: a Celery
  worker's job, in this process so both trees see the same one);
- the reviewer's dashboard (the project, then its metrics, through the DRF test client)
  loaded `--loads` times, one every `--poll` seconds, after one untimed warm-up load.

With `--profile`, instead: the statements of one dashboard load (wall ms, SQL ms each), then
of one full computation of the metrics (what a live load or the refresh runs) with each
statement's EXPLAIN (ANALYZE, BUFFERS) execution time, largest first.

Prints one JSON line: the loads' p50 / p90 / max ms, how many were computed live (not
`cached`), the served answers' median age (seconds since `computed_at`) and `changes_since`
(null on a tree without it), the submits made and the refreshes the worker ran.
"""

import argparse
import json
import queue
import statistics
import threading
import time
from pathlib import Path

READY = "bench: scale (ready)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", required=True, help="a bench/scale_bench.py database")
    parser.add_argument("--tree", default=str(Path(__file__).resolve().parent.parent))
    parser.add_argument("--loads", type=int, default=20)
    parser.add_argument("--poll", type=float, default=1.0, help="seconds between loads")
    parser.add_argument("--every", type=float, default=2.0, help="seconds between submits")
    parser.add_argument("--annotators", type=int, default=1)
    parser.add_argument("--profile", action="store_true", help="statements, not a timed run")
    args = parser.parse_args()
    from harness import django_in_tree

    django_in_tree(args.tree, args.db)
    from django.conf import settings

    settings.ALLOWED_HOSTS = ["*"]
    print(json.dumps(profile() if args.profile else run(args)))


def profile() -> dict:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from rest_framework.test import APIClient

    from labeling.metrics.domains import project_metrics_by_domain
    from labeling.models import Project
    from labeling.services.jobs import outbox

    outbox._publish = lambda messages: None  # a refresh queued by the load: not sent here
    project = Project.objects.get(name=READY)
    client = APIClient()
    client.force_authenticate(project.memberships.get(user__username="bench-reviewer").user)
    urls = [f"/api/projects/{project.pk}/", f"/api/projects/{project.pk}/metrics/"]
    client.get(urls[0])  # warms the connection
    with CaptureQueriesContext(connection) as served:
        started = time.perf_counter()
        bodies = [client.get(url).json() for url in urls]
        wall = (time.perf_counter() - started) * 1000
    with CaptureQueriesContext(connection) as computed:
        started = time.perf_counter()
        project_metrics_by_domain(project)
        compute = (time.perf_counter() - started) * 1000
    plans = []
    with connection.cursor() as cursor:
        for q in computed.captured_queries:
            if q["sql"].lstrip().upper().startswith("SELECT"):
                cursor.execute(f"EXPLAIN (ANALYZE, BUFFERS) {q['sql']}")
                lines = [row[0] for row in cursor.fetchall()]
                took = next(x for x in lines if x.startswith("Execution Time"))
                plans.append((float(took.split()[2]), q["sql"][:160]))
    return {
        "load_ms": round(wall, 1),
        "load_statements": [(float(q["time"]) * 1000, q["sql"][:100]) for q in served],
        "metrics_cached": bodies[1].get("cached"),
        "changes_since": bodies[1].get("changes_since"),
        "compute_ms": round(compute, 1),
        "compute_sql_ms": round(sum(float(q["time"]) for q in computed) * 1000, 1),
        "compute_statements": len(computed),
        "explain_ms": sorted(plans, reverse=True),
    }


def run(args: argparse.Namespace) -> dict:
    from django.contrib.auth import get_user_model
    from django.db import connections
    from django.utils import timezone
    from django.utils.dateparse import parse_datetime
    from rest_framework.test import APIClient

    from labeling.models import Annotation, Project, ProjectMembership
    from labeling.services.jobs import outbox
    from labeling.services.labeling.next_task import annotation_submit_then_next, next_task_claim
    from labeling.services.projects.metrics import metrics_refresh

    project = Project.objects.get(name=READY)
    users = get_user_model().objects
    stop = threading.Event()
    refreshes: queue.Queue[int] = queue.Queue()
    done = {"submits": 0, "refreshes": 0}
    outbox._publish = lambda messages: [refreshes.put(m.args[0]) for m in messages]

    def worker() -> None:
        while not stop.is_set():
            try:
                project_id = refreshes.get(timeout=0.2)
            except queue.Empty:
                continue
            metrics_refresh(project=Project.objects.get(pk=project_id))
            done["refreshes"] += 1
        connections.close_all()

    def annotator(i: int) -> None:
        user, _ = users.get_or_create(username=f"dash-lab-{i}")
        ProjectMembership.objects.get_or_create(
            project=project, user=user, defaults={"role": "annotator"}
        )
        task = next_task_claim(project=project, user=user)
        while task is not None and not stop.wait(args.every):
            annotation = Annotation.objects.get(pk=task["annotation"]["id"])
            labels = [
                {"step_id": s["id"], "rating": (1, -1, 0)[(s["id"] + i) % 3]}
                for s in task["solution"]["steps"]
            ]
            _, task = annotation_submit_then_next(
                annotation=annotation,
                user=user,
                project=project,
                version=annotation.version,
                labels=labels,
            )
            done["submits"] += 1
        connections.close_all()

    client = APIClient()
    client.force_authenticate(users.get(username="bench-reviewer"))
    urls = [f"/api/projects/{project.pk}/", f"/api/projects/{project.pk}/metrics/"]

    def load() -> tuple[float, dict]:
        started = time.perf_counter()
        for url in urls:
            answer = client.get(url)
            if answer.status_code not in (200, 202):
                raise SystemExit(f"{url}: {answer.status_code} {answer.content[:300]}")
        return (time.perf_counter() - started) * 1000, answer.json()

    load()  # warms the connection; not counted
    threads = [threading.Thread(target=worker)]
    threads += [threading.Thread(target=annotator, args=(i,)) for i in range(args.annotators)]
    for thread in threads:
        thread.start()
    times, live, ages, behind = [], 0, [], []
    try:
        for _ in range(args.loads):
            time.sleep(args.poll)
            took, body = load()
            times.append(took)
            live += body.get("cached") is False
            if body.get("computed_at"):
                computed = parse_datetime(body["computed_at"])
                ages.append((timezone.now() - computed).total_seconds())
            behind.append(body.get("changes_since"))
    finally:
        stop.set()
        for thread in threads:
            thread.join()
    known = [b for b in behind if b is not None]
    import labeling

    return {
        "code": str(Path(labeling.__file__).parent.parent),
        "db": args.db,
        "loads": len(times),
        "p50_ms": round(statistics.median(times), 1),
        "p90_ms": round(statistics.quantiles(times, n=10)[-1], 1),
        "max_ms": round(max(times), 1),
        "live": live,
        "age_s_p50": round(statistics.median(ages), 1) if ages else None,
        "age_s_max": round(max(ages), 1) if ages else None,
        "changes_since_p50": statistics.median(known) if known else None,
        "submits": done["submits"],
        "refreshes": done["refreshes"],
    }


if __name__ == "__main__":
    main()
