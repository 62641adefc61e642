"""A new auto-label run beside a big finished one: the time a chunk takes to find its items
must not grow with the run (tests/autolabel_runs/test_run_plans.py checks the plans).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres .venv/bin/python \\
        bench/run_beside_bench.py --n 50000

On a throwaway PostgreSQL database: two projects of N solutions each (60 imported,
copied by SQL), an old run over the first with every item done, ANALYZE (the old run's items
are the statistics), then a new run over the second (its N items written by its start, which
no ANALYZE sees: autovacuum lags, or is off). Times the chunk's claim of its 20 items (early,
middle and late in the run; the median of 5) as autolabel.run_chunks.items_claim does it, and
as it did before (`run_id = <run> AND solution_id = ANY(<chunk>)` FOR UPDATE, in one
statement): the old form's time grows with the run's items, per chunk.
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

import harness  # noqa: E402

CHUNK = 20


def _project_of(n: int, name: str):
    from django.db import connection

    from labeling.models import Solution

    project = harness.imported_project(n=60, name=name, overlap=1)
    columns = [f.column for f in Solution._meta.concrete_fields if f.column != "id"]
    select = [f"t.{c} || '-' || g::text" if c == "external_id" else f"t.{c}" for c in columns]
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO labeling_solution ({', '.join(columns)}) SELECT {', '.join(select)}"
            " FROM labeling_solution t, generate_series(1, %s) g WHERE t.project_id = %s",
            [n // 60 - 1, project.pk],
        )
    return project


def _old_claim(run, ids: list[int]) -> None:
    from django.db import transaction

    from autolabel.models import AutolabelItem

    with transaction.atomic():
        list(AutolabelItem.objects.select_for_update().filter(run=run, solution_id__in=ids))


def _new_claim(run, ids: list[int]) -> None:
    from django.db import transaction

    from autolabel.models import AutolabelItem
    from autolabel.run_progress import run_item_ids

    found = run_item_ids(run_id=run.pk, solution_ids=ids)
    with transaction.atomic():
        list(AutolabelItem.objects.select_for_update().filter(pk__in=found))


def _ms(fn, run, ids: list[int]) -> float:
    times = []
    for _ in range(5):
        start = time.perf_counter()
        fn(run, ids)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def one(n: int) -> None:
    from django.db import connection

    from autolabel.models import AutolabelItem
    from autolabel.services import autolabel_run_create

    old = _project_of(n, "old")
    old_run = autolabel_run_create(project=old, sources=["symbolic"])
    AutolabelItem.objects.filter(run=old_run).update(status="done")
    harness.analyze()
    new = _project_of(n, "new")
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE labeling_solution")  # the new project's solutions: seen
    run = autolabel_run_create(project=new, sources=["symbolic"])  # its items: not
    ids = list(run.items.order_by("solution_id").values_list("solution_id", flat=True))
    print(f"N={n}: new run of {len(ids)} items beside an old one of {old_run.items.count()}")
    for where, at in (("early", 0), ("middle", len(ids) // 2), ("late", len(ids) - CHUNK)):
        chunk = ids[at : at + CHUNK]
        before, after = _ms(_old_claim, run, chunk), _ms(_new_claim, run, chunk)
        print(f"  {where:6} chunk's claim: before {before:8.2f} ms   after {after:6.2f} ms")
    print(f"  before, the late chunk's plan: {_walked(run, chunk)}")


def _walked(run, ids: list[int]) -> str:
    """The old statement's scan of the items: its index and the rows its filter threw away."""
    from django.db import connection

    from autolabel.models import AutolabelItem

    sql, params = AutolabelItem.objects.filter(run=run, solution_id__in=ids).query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN (ANALYZE, FORMAT JSON) " + sql, params)
        plan = cursor.fetchone()[0][0]["Plan"]
    while "Index Name" not in plan and plan.get("Plans"):
        plan = plan["Plans"][0]
    removed = plan.get("Rows Removed by Filter", 0)
    return f"{plan.get('Index Name')}, {removed} rows read and thrown away by the filter"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=50_000)
    args = parser.parse_args()
    where, cleanup = harness.django_on_throwaway_database("run_beside_bench")
    harness.migrate(where)
    try:
        one(args.n)
    finally:
        harness.finish(cleanup)


if __name__ == "__main__":
    main()
