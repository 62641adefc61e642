"""An import into a new project beside a big one: its time per solution must not grow with
the file (issue 26; tests/importers/test_lookup_plans.py checks the plans).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres .venv/bin/python \\
        bench/import_beside_bench.py --db steplab_export_bench --n 10000 20000 40000
    ... --tree /path/to/another/checkout      # the same with that checkout's code

On an existing PostgreSQL database `--db` that holds a big project (export_bench.py --keep
leaves one of 1M solutions), imports N generated solutions (import_bench.py's rows, labels as
annotations) into a new project for each N, each in one transaction that is rolled back at
the end: the database is left as it was, and the planner's statistics are those of the big
project alone, as for any import's own rows until it commits. Prints each import's seconds
and solutions per second, and the time per solution at the largest N against the smallest's
(1.0: linear in the file; an import whose lookups walk the rows it has written so far grows
with N).
"""

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))

import harness  # noqa: E402
import import_bench  # noqa: E402


class _RolledBack(Exception):
    pass


def _import_once(n: int, tmp: Path) -> float:
    from django.db import transaction

    from labeling.models import Project
    from labeling.services.imports import import_file

    path = tmp / f"beside-{n}.jsonl"
    import_bench.write_file(path, n)
    try:
        with transaction.atomic():
            project = Project.objects.create(name=f"import beside {n} {time.time()}")
            started = time.perf_counter()
            import_file(project=project, path=path, labels_as="annotations")
            took = time.perf_counter() - started
            raise _RolledBack
    except _RolledBack:
        pass
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", required=True, help="a database with a big project in it")
    parser.add_argument("--n", type=int, nargs="+", default=[10_000, 20_000])
    parser.add_argument("--tree", default=str(REPO), help="the checkout whose code runs")
    args = parser.parse_args()
    if not harness.kept_database(args.db):
        sys.exit(f"no PostgreSQL database {args.db} (DATABASE_URL's server)")
    harness.django_in_tree(os.path.abspath(args.tree), args.db)
    from labeling.models import Solution

    print(f"tree {args.tree}, database {args.db}: {Solution.objects.count()} solutions before")
    print(harness.load_line())
    per: dict[int, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.n:
            took = _import_once(n, Path(tmp))
            per[n] = took / n
            print(f"N={n}: {took:.1f} s, {n / took:,.0f} solutions/s; {harness.load_line()}")
    low, high = min(per), max(per)
    print(f"time per solution at N={high} / at N={low}: {per[high] / per[low]:.2f}x")


if __name__ == "__main__":
    main()
