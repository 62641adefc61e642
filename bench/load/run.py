"""Load test: N simulated annotators through the real HTTP API of a real server.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/steplab_load \
        .venv/bin/python bench/load/run.py --annotators 50 --duration 180

Migrates that database, imports the ProcessBench sample `--copies` times into a new project
(overlap 2), starts a private Redis, gunicorn and a Celery worker, then runs the annotators while
an auto-label run (symbolic + answer) and a TRL export run in the background. Prints p50/p95/p99
per endpoint and throughput, then checks the database: every submitted label is there exactly
once and equal to what was sent, no solution was held by more annotators than its overlap at
once, submitted <= overlap. Exits 1 on any violation.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "annotate.settings.test")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--annotators", type=int, default=50)
    parser.add_argument("--duration", type=float, default=180, help="seconds of annotation")
    parser.add_argument("--copies", type=int, default=5, help="imports of the 100-solution file")
    parser.add_argument("--overlap", type=int, default=2)
    parser.add_argument("--threads", type=int, default=8, help="gunicorn threads per process")
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        parser.error("set DATABASE_URL to a PostgreSQL database (it is migrated and written)")

    import django

    django.setup()
    from django.core.management import call_command

    from bench.load.annotators import (
        client_side_violations,
        database_violations,
        report,
        run_annotators,
        start_background,
        wait_background,
    )
    from bench.load.procs import PrivateRedis, free_port, start_server, start_worker, steplab_env
    from bench.load.procs import stop as stop_proc
    from labeling.models import Project, ProjectMembership, Role
    from labeling.services.imports import import_file
    from labeling.services.people.tokens import token_create

    call_command("migrate", verbosity=0)
    from django.contrib.auth import get_user_model

    User = get_user_model()
    stamp = time.strftime("%Y%m%d%H%M%S")
    project = Project.objects.create(name=f"load {stamp}", overlap=args.overlap)
    sample = ROOT.parent / "shared" / "data" / "processbench_sample.jsonl"
    if not sample.exists():
        sample = Path(os.environ.get("PROCESSBENCH", sample))
    for _ in range(args.copies):
        import_file(project=project, path=sample, fmt="processbench", labels_as="none")
    admin = User.objects.create_user(f"load-admin-{stamp}", password="x")
    ProjectMembership.objects.create(project=project, user=admin, role=Role.ADMIN)
    tokens = {}
    for i in range(args.annotators):
        user = User.objects.create_user(f"load{i}-{stamp}", password="x")
        ProjectMembership.objects.create(project=project, user=user, role=Role.ANNOTATOR)
        tokens[user.username] = token_create(user=user).key
    admin_token = token_create(user=admin).key
    total = project.solutions.count()
    print(f"project {project.pk}: {total} solutions, overlap {args.overlap}, "
          f"{args.annotators} annotators, {args.duration:.0f} s")  # fmt: skip

    with tempfile.TemporaryDirectory(prefix="steplab-load-") as tmp:
        tmp_path = Path(tmp)
        redis = PrivateRedis(tmp_path / "redis")
        redis.start()
        env = steplab_env(os.environ["DATABASE_URL"], redis.url)
        port = free_port()
        server = worker = None
        try:
            worker = start_worker(env, tmp_path / "worker.log")
            server = start_server(env, port, tmp_path / "server.log", threads=args.threads)
            base = f"http://127.0.0.1:{port}"
            jobs = start_background(base_url=base, admin_token=admin_token, project_id=project.pk)
            started = time.monotonic()
            recorder, wall, failures = run_annotators(
                base_url=base, tokens=tokens, project_id=project.pk, duration_s=args.duration
            )
            final = wait_background(base_url=base, admin_token=admin_token, jobs=jobs)
            background_s = time.monotonic() - started
        finally:
            stop_proc(server)
            stop_proc(worker)
            redis.stop()

    print(report(recorder, wall))
    for name, body in final.items():
        print(
            f"background {name}: {body['status']} (all background jobs within {background_s:.0f} s)"
        )
    problems = [f"client thread failed: {e!r}" for e in failures]
    problems += client_side_violations(recorder.claims, args.overlap)
    problems += database_violations(project.pk, recorder.claims, args.overlap)
    if set(final) != {"run", "export"} or any(b["status"] != "done" for b in final.values()):
        problems.append(f"background jobs did not finish: {final}")
    submitted = sum(c.submitted_labels is not None for c in recorder.claims)
    print(f"checked: {submitted} submissions, {len(recorder.claims)} claims")
    for p in problems:
        print("VIOLATION", p)
    print("OK: nothing lost, no solution over its overlap" if not problems else "FAILED")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
