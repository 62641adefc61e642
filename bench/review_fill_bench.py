"""The stored review reasons' fill (`manage.py review_reasons_refresh`) against a bare aggregate.

    export DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres
    .venv/bin/python bench/review_fill_bench.py --n 100000
    .venv/bin/python bench/review_fill_bench.py --n 100000 --explain --explain-old

Uses bench/scale_bench.py's project of N solutions (`steplab_scale_<N>`: built when missing,
kept), sets every stored mask to 0 (a project made before the column existed), then, alternated
for --rounds rounds:

1. the baseline: one plain SQL aggregate over the same tables, grouped by solution (the
   project's submitted annotations joined to their labels and steps: count, min and max
   rating, max step index, any unsure), nothing written: what reading the rows costs;
2. `review_reasons_fill` (labeling.services.review.reasons_fill): ranges of 20,000 solutions,
   each one statement in its own transaction, writing the masks that changed (the masks are
   set back to 0 before each round).

Prints each one's solutions/s and the fill's share of the baseline's rate; then checks every
stored mask against the live queue's expression (`reasons_mask`, what the fill used to run as
one UPDATE), timing that SELECT too. --explain prints EXPLAIN (ANALYZE, BUFFERS) of the first
range's statement; --explain-old that of the one-UPDATE fill it replaced (rolled back: at a
million solutions it ran for more than half an hour).
"""

import argparse
import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))
sys.path.insert(0, str(REPO))

BASELINE = """
SELECT count(*) FROM (
    SELECT a.solution_id, count(*), min(l.rating), max(l.rating), max(st.index),
        bool_or(l.unsure)
    FROM labeling_solution s
    JOIN labeling_annotation a ON a.solution_id = s.id
    JOIN labeling_steplabel l ON l.annotation_id = a.id
    JOIN labeling_step st ON st.id = l.step_id
    WHERE s.project_id = %s AND a.status = 'submitted'
    GROUP BY a.solution_id
) per_solution
"""


def _reset(project_id: int) -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE labeling_solution SET review_reasons = 0 "
            "WHERE project_id = %s AND review_reasons <> 0",
            [project_id],
        )
        cursor.execute("VACUUM ANALYZE labeling_solution")


def _explain(sql: str, params: list) -> None:
    """The plan of a write, rolled back."""
    from django.db import connection, transaction

    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL work_mem = '64MB'")
        cursor.execute(f"EXPLAIN (ANALYZE, BUFFERS) {sql}", params)
        for (line,) in cursor.fetchall():
            print(f"    {line}")
        transaction.set_rollback(True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=100_000, help="solutions of the project")
    parser.add_argument("--share", type=int, default=30, help="percent labeled by 3 annotators")
    parser.add_argument("--rounds", type=int, default=2, help="baseline and fill, alternated")
    parser.add_argument("--explain", action="store_true", help="plan of one range (rolled back)")
    parser.add_argument(
        "--explain-old", action="store_true", help="plan of the one-UPDATE fill (rolled back)"
    )
    parser.add_argument("--no-check", action="store_true", help="skip the live comparison")
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
        raise SystemExit("review_fill_bench needs PostgreSQL: set DATABASE_URL")
    os.environ["DEBUG"] = "False"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "annotate.settings.local")
    import django

    django.setup()
    import scale_bench
    from django.db import connection
    from django.db.models import F
    from django.db.models.sql import UpdateQuery

    from labeling.models import Project, Solution
    from labeling.pg.id_ranges import range_end
    from labeling.selectors.review import reasons_mask
    from labeling.services.review import reasons_fill as fill

    scale_bench.ensure(f"steplab_scale_{args.n}", args.n, args.share, with_snapshot=False)
    project = Project.objects.get(name=scale_bench.READY)
    n = Solution.objects.filter(project=project).count()
    _reset(project.pk)
    rates: dict[str, list[float]] = {"baseline": [], "fill": []}
    for _ in range(args.rounds):
        started = time.perf_counter()
        with connection.cursor() as cursor:
            cursor.execute("SET work_mem = '64MB'")
            cursor.execute(BASELINE, [project.pk])
            cursor.execute("RESET work_mem")
        rates["baseline"].append(n / (time.perf_counter() - started))
        started = time.perf_counter()
        fill.review_reasons_fill(project=project)
        rates["fill"].append(n / (time.perf_counter() - started))
        if len(rates["fill"]) < args.rounds:
            _reset(project.pk)
    print(f"{n} solutions; solutions/s per round (baseline aggregate, fill):")
    for name, values in rates.items():
        print(f"  {name:<9} {', '.join(f'{v:,.0f}' for v in values)}")
    shares = [f / b for f, b in zip(rates["fill"], rates["baseline"], strict=True)]
    print(f"  fill / baseline: {', '.join(f'{s:.2f}' for s in shares)}")

    if not args.no_check:
        started = time.perf_counter()
        wrong = (
            Solution.objects.filter(project=project)
            .annotate(live=reasons_mask({"project": project}))
            .exclude(review_reasons=F("live"))
            .count()
        )
        took = time.perf_counter() - started
        print(f"live expression over the project (SELECT, no write): {took:.1f} s")
        print(f"stored masks that differ from the live expression: {wrong}")
        if wrong:
            raise SystemExit("the fill and the live expression disagree")
    if args.explain:
        last = range_end(project.pk, 0, fill.BATCH)
        print(f"first range ({fill.BATCH} solutions), masks reset, rolled back:")
        with connection.cursor() as cursor:
            cursor.execute(
                "UPDATE labeling_solution SET review_reasons = 0 WHERE project_id = %s "
                "AND id <= %s",
                [project.pk, last],
            )
        _explain(fill.range_update_sql("postgresql"), fill.range_update_params(project.pk, 0, last))
        fill.review_reasons_fill(project=project, batch=fill.BATCH)
    with connection.cursor() as cursor:  # the reset's statistics said every mask was 0
        cursor.execute("ANALYZE labeling_solution")
    if args.explain_old:
        scope = {"project": project}
        query = Solution.objects.filter(**scope).query.chain(UpdateQuery)
        query.add_update_values({"review_reasons": reasons_mask(scope)})
        sql, params = query.get_compiler(connection.alias).as_sql()
        print("the one-UPDATE fill it replaced, rolled back:")
        _explain(sql, list(params))


if __name__ == "__main__":
    main()
