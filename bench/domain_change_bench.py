"""A project's domain changed to many-domains and back, at N problems, on PostgreSQL.

    export DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres
    .venv/bin/python bench/domain_change_bench.py --n 100000 --db steplab_domain_bench \
        --before /tmp/before_tree

Builds (once, kept) a math project of N blank problems, one solution each, in `--db` (this
tree's migrations; rows written by generate_series). For each tree (this one, and with
--before an older checkout) in a fresh process: the service call that the PATCH of the
project's settings makes (project_update), math -> mixed -> math, each timed with its
statements and whether one UPDATE of labeling_problem ran. The project ends as it began (the
old code blanks the problems again on the way back).
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
NAME = "domain change bench"


def build(db: str, n: int) -> None:
    from harness import django_in_tree

    base = os.environ["DATABASE_URL"].rsplit("/", 1)[0]
    subprocess.run(["psql", f"{base}/postgres", "-c", f"CREATE DATABASE {db}"], check=False)
    django_in_tree(str(REPO), db)
    from django.core.management import call_command
    from django.db import connection

    call_command("migrate", verbosity=0)
    from labeling.models import Problem, Project
    from labeling.services.projects.edit import project_create

    project = Project.objects.filter(name=NAME).first() or project_create(
        created_by=None, name=NAME, domain="math"
    )
    have = Problem.objects.filter(project=project).count()
    if have >= n:
        return
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO labeling_problem (project_id, text, answer, reference_solution, source,"
            " external_id, metadata, domain, created_at, near_cluster)"
            " SELECT %s, 'problem ' || g, '1', '', 'bench', '', '{}', '', now(), ''"
            " FROM generate_series(%s, %s) g",
            [project.pk, have + 1, n],
        )
        cursor.execute("ANALYZE labeling_problem")


def one_tree(tree: str, db: str) -> dict:
    from harness import django_in_tree

    django_in_tree(tree, db)
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from labeling.models import Project
    from labeling.services.projects.edit import project_update

    out = {}
    for domain in ("mixed", "math"):
        project = Project.objects.get(name=NAME)
        with CaptureQueriesContext(connection) as queries:
            started = time.perf_counter()
            project_update(project=project, domain=domain)
            took = time.perf_counter() - started
        sql = [q["sql"] for q in queries]
        out[f"to {domain}"] = {
            "s": round(took, 3),
            "statements": len(sql),
            "problem_update": any('UPDATE "labeling_problem"' in s for s in sql),
        }
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--db", default="steplab_domain_bench")
    parser.add_argument("--before", help="an older checkout to time too")
    parser.add_argument("--tree", help=argparse.SUPPRESS)  # a child process: one tree
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    if args.tree:
        print(json.dumps(one_tree(args.tree, args.db)))
        return
    build(args.db, args.n)
    trees = {"after": str(REPO)} | ({"before": args.before} if args.before else {})
    for round_ in range(args.rounds):
        for side, tree in trees.items():
            child = [sys.executable, __file__, "--tree", tree, "--db", args.db]
            answer = subprocess.run(child, check=True, capture_output=True, text=True)
            print(round_, side, answer.stdout.strip().splitlines()[-1], flush=True)


if __name__ == "__main__":
    main()
