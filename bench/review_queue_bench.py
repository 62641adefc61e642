"""Review queue page loads: labeling.selectors.review against the queue as it was first written.

    export DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres
    .venv/bin/python bench/review_queue_bench.py
    .venv/bin/python bench/review_queue_bench.py --n 2000          # SQLite, small

Builds N solutions from real problems and steps of shared/data (bench/import_bench.py's
generator, imported without labels), then, written by the database itself (INSERT ... SELECT):
three annotators' submitted labels on every step (a per-step true rating kept 97% of the time,
so about a fifth of the solutions have a disagreement), an unsure flag on 0.5% of the labels, 2%
of the solutions gold (GoldLabel = the true rating), a symbolic −1 suggestion on 3% of the
steps and a current resolution on 30% of the solutions. Then, in this one process, it loads
review queue pages the way ReviewQueueApi does (the page's COUNT, the 50 rows, the counts per
reason, the annotator list) for several filters and offsets:

1. steplab: `review_queue` / `review_queue_counts` as they are now.
2. The baseline: the same selectors as first written (reason subqueries written the obvious
   way, `pk IN (subquery)` per reason), kept below in `baseline_queue`.

Prints the p50 and max milliseconds per page load of each, their ratio, and checks both return
the same rows in the same order with the same reasons and counts. Runs on a throwaway database
(PostgreSQL `--db`, default `steplab_review_bench`, dropped afterwards unless --keep; else a
temporary SQLite file).
"""

import argparse
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))
sys.path.insert(0, str(REPO))

if __package__:  # imported as bench.<name> (tests, stream_bench)
    from . import harness
else:  # run as a script: bench/ is on sys.path
    import harness

RATERS = ("bench-a", "bench-b", "bench-c")
PAGE = 50


def _rand(vendor: str) -> str:
    return "random()" if vendor == "postgresql" else "((abs(random()) %% 1000000) / 1000000.0)"


def add_review_data(project, users, reviewer, *, share: int = 100) -> dict[str, int]:
    """Labels, unsure flags, gold, symbolic refutations and resolutions, all in SQL.

    `share`: the percentage of the solutions (by id) that the annotators labeled; the others
    stay untouched (bench/scale_bench.py labels a part of a large project)."""
    from django.db import connection

    rand = _rand(connection.vendor)
    user_ids = ", ".join(str(u.pk) for u in users)
    now = "now()" if connection.vendor == "postgresql" else "CURRENT_TIMESTAMP"
    truth = (
        "(CASE WHEN (st.id * 7919) %% 100 < 8 THEN -1 "
        "WHEN (st.id * 7919) %% 100 < 14 THEN 0 ELSE 1 END)"
    )
    p = [project.pk]
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT setseed(0.42)")
        cursor.execute(
            f"""
            INSERT INTO labeling_annotation (solution_id, annotator_id, external_annotator,
                status, finish_reason, finish_reason_text, time_spent_ms, version, imported,
                shown_suggestions, created_at, updated_at, submitted_at)
            SELECT s.id, u.id, '', 'submitted', 'solution', '',
                CAST(30000 + {rand} * 300000 AS INTEGER), 1, false, '[]', {now}, {now}, {now}
            FROM labeling_solution s CROSS JOIN auth_user u
            WHERE s.project_id = %s AND u.id IN ({user_ids}) AND s.id %% 100 < {int(share)}
            """,
            p,
        )
        cursor.execute(
            f"""
            INSERT INTO labeling_steplabel (annotation_id, step_id, rating, unsure, comment,
                alternative_text)
            SELECT a.id, st.id,
                CASE WHEN {rand} < 0.97 THEN {truth}
                     ELSE CAST(floor({rand} * 3) AS INTEGER) - 1 END,
                {rand} < 0.005, '', ''
            FROM labeling_annotation a JOIN labeling_step st ON st.solution_id = a.solution_id
            JOIN labeling_solution s ON s.id = a.solution_id
            WHERE s.project_id = %s
            """,
            p,
        )
        cursor.execute(
            "UPDATE labeling_solution SET submitted_count = 3, is_gold = (id %% 50 = 7) "
            f"WHERE project_id = %s AND id %% 100 < {int(share)}",
            p,
        )
        cursor.execute(
            f"""
            INSERT INTO labeling_goldlabel (step_id, rating, set_by_id, updated_at)
            SELECT st.id, {truth}, NULL, {now}
            FROM labeling_step st JOIN labeling_solution s ON s.id = st.solution_id
            WHERE s.project_id = %s AND s.is_gold
            """,
            p,
        )
        cursor.execute(
            f"""
            INSERT INTO labeling_suggestion (step_id, source, agent, value, score, evidence,
                created_at, updated_at)
            SELECT st.id, 'symbolic', 'sympy', -1, NULL, '{{}}', {now}, {now}
            FROM labeling_step st JOIN labeling_solution s ON s.id = st.solution_id
            WHERE s.project_id = %s AND (st.id * 31) %% 100 < 3
            """,
            p,
        )
        cursor.execute(
            f"""
            INSERT INTO labeling_resolution (solution_id, provenance, first_error_index,
                resolved_by_id, review_id, is_current, supersedes_id, created_at)
            SELECT s.id, 'reviewer', NULL, %s, NULL, true, NULL, {now}
            FROM labeling_solution s WHERE s.project_id = %s AND s.id %% 10 < 3
                AND s.id %% 100 < {int(share)}
            """,
            [reviewer.pk, project.pk],
        )
        counts = {}
        for table in ("annotation", "steplabel", "goldlabel", "suggestion", "resolution"):
            cursor.execute(f"SELECT COUNT(*) FROM labeling_{table}")
            counts[table] = cursor.fetchone()[0]
        return counts


def scenarios(annotator_id: int) -> list[tuple[str, dict, int]]:
    """(name, filters, offset): what a reviewer clicks through."""
    return [
        ("first page", {}, 0),
        ("page 2", {}, PAGE),
        ("page 40", {}, 40 * PAGE),
        ("disagreement", {"reason": "disagreement"}, 0),
        ("unsure", {"reason": "unsure"}, 0),
        ("gold_failure", {"reason": "gold_failure"}, 0),
        ("auto_conflict", {"reason": "auto_conflict"}, 0),
        ("rest, page 3", {"reason": "rest"}, 2 * PAGE),
        ("one annotator", {"annotator_id": annotator_id}, 0),
        ("resolved", {"state": "resolved"}, 0),
        ("all", {"state": "all"}, PAGE),
    ]


def page_load(module, project, filters: dict, offset: int) -> tuple:
    """What ReviewQueueApi.get asks the database for one page."""
    from labeling.selectors.review import item_reasons, review_annotator_list

    qs = module.review_queue(project=project, **filters)
    count = qs.count()
    rows = [
        (s.pk, tuple(item_reasons(s)), s.annotations_submitted) for s in qs[offset : offset + PAGE]
    ]
    counts = module.review_queue_counts(project=project, state=filters.get("state", "unresolved"))
    annotators = review_annotator_list(project=project)
    return count, rows, counts, len(annotators)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=20_000, help="solutions")
    parser.add_argument("--repeat", type=int, default=3, help="loads of each page, each side")
    parser.add_argument(
        "--db",
        default="steplab_review_bench",
        help="name of the throwaway PostgreSQL database (created, then dropped)",
    )
    parser.add_argument("--keep", action="store_true", help="keep the database (PostgreSQL)")
    args = parser.parse_args()

    where, cleanup = harness.django_on_throwaway_database(args.db)
    import review_queue_baseline as baseline
    from django.contrib.auth import get_user_model

    from labeling.selectors import review as steplab
    from labeling.services.review.reasons import review_reasons_fill

    try:
        harness.migrate(where)
        started = time.perf_counter()
        project = harness.imported_project(n=args.n, name="bench: review queue", overlap=3)
        users = [get_user_model().objects.create(username=name) for name in RATERS]
        reviewer = get_user_model().objects.create(username="bench-reviewer")
        made = add_review_data(project, users, reviewer)
        filled = time.perf_counter()
        review_reasons_fill(project=project)  # what manage.py review_reasons_refresh does
        filled = time.perf_counter() - filled
        harness.analyze()
        print(
            f"set up {args.n} solutions x {len(RATERS)} annotators: {made['steplabel']} labels, "
            f"{made['goldlabel']} gold labels, {made['suggestion']} symbolic -1, "
            f"{made['resolution']} resolutions in {time.perf_counter() - started:.0f} s; "
            f"stored reasons filled in {filled:.1f} s"
        )

        loads = harness.PageLoads(other="baseline", repeat=args.repeat)
        print(f"{'page':<16} {'steplab ms':>11} {'baseline ms':>12} {'ratio':>7}  rows  count")
        for name, filters, offset in scenarios(users[0].pk):
            ours, base, o, b = loads.both(
                lambda f=filters, o=offset: page_load(steplab, project, f, o),
                lambda f=filters, o=offset: page_load(baseline, project, f, o),
            )
            print(f"{name:<16} {o:>11.1f} {b:>12.1f} {b / o:>6.1f}x  {len(ours[1]):>4}  {ours[0]}")
            if ours != base:
                print(f"  differs: steplab counts {ours[2]}, baseline {base[2]}")
        print(loads.summary(other_over_ours=True, digits=1))
        print(f"same pages, reasons and counts both ways: {loads.same}")
        if not loads.same:
            raise SystemExit("steplab and the baseline disagree")
    finally:
        harness.finish(cleanup, keep=args.keep, db=args.db)


if __name__ == "__main__":
    main()
