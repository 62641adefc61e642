"""Solutions explorer pages: labeling.selectors.explorer against bare SQL of the same query.

    export DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres
    .venv/bin/python bench/explorer_bench.py                 # 100k solutions
    .venv/bin/python bench/explorer_bench.py --n 5000        # quicker

Builds N solutions from real problems and steps of shared/data (bench/import_bench.py's
generator, imported without labels), then, written by the database itself: submitted counts of
0 to 3 (overlap 3), a submitted annotation on every started solution and a draft on a sixth of
the rest, the review reasons' disagreement bit on a fifth, 2% gold, a symbolic −1 suggestion on
3% of the steps and a current resolution on 30% of the complete solutions. Then it loads pages
the way ExplorerListApi does (`explorer_page`: the page's ids, the capped count, the rows) for
the first page, a deep page, filters and a search, and the same three statements written by
hand as bare SQL through a cursor (no ORM), and prints the p50 milliseconds of each, their
ratio, and the plan of each page's id query (EXPLAIN ANALYZE's top node and time). Both sides
must return the same ids and count. Runs on a throwaway database (PostgreSQL `--db`, default
`steplab_explorer_bench`, dropped afterwards unless --keep; else a temporary SQLite file).
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

PAGE = 50
COUNT_CAP = 1_000  # labeling.selectors.explorer.COUNT_CAP


def add_explorer_data(project, user, reviewer) -> dict[str, int]:
    """Counts, annotations, reasons, gold, machine verdicts and resolutions, all in SQL."""
    from django.db import connection

    now = "now()" if connection.vendor == "postgresql" else "CURRENT_TIMESTAMP"
    p = [project.pk]
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE labeling_solution SET submitted_count = id %% 4, is_gold = (id %% 50 = 7), "
            "review_reasons = CASE WHEN id %% 5 = 0 AND id %% 4 > 1 THEN 8 ELSE 0 END "
            "WHERE project_id = %s",
            p,
        )
        cursor.execute(
            "UPDATE labeling_solution SET queue_open = (submitted_count < 3 AND NOT is_gold) "
            "WHERE project_id = %s",
            p,
        )
        cursor.execute(
            f"""
            INSERT INTO labeling_annotation (solution_id, annotator_id, external_annotator,
                status, finish_reason, finish_reason_text, time_spent_ms, version, imported,
                shown_suggestions, created_at, updated_at, submitted_at)
            SELECT s.id, %s, '',
                CASE WHEN s.submitted_count > 0 THEN 'submitted' ELSE 'draft' END,
                '', '', 0, 1, false, '[]', {now}, {now}, {now}
            FROM labeling_solution s
            WHERE s.project_id = %s AND (s.submitted_count > 0 OR s.id %% 6 = 0)
            """,
            [user.pk, project.pk],
        )
        cursor.execute(
            f"""
            INSERT INTO labeling_suggestion (step_id, source, agent, value, score, evidence,
                created_at, updated_at)
            SELECT st.id, 'symbolic', 'sympy', CASE WHEN (st.id * 31) %% 100 < 3 THEN -1
                ELSE 1 END, NULL, '{{}}', {now}, {now}
            FROM labeling_step st JOIN labeling_solution s ON s.id = st.solution_id
            WHERE s.project_id = %s AND (st.id * 31) %% 100 < 20
            """,
            p,
        )
        cursor.execute(
            f"""
            INSERT INTO labeling_resolution (solution_id, provenance, first_error_index,
                resolved_by_id, review_id, is_current, supersedes_id, created_at)
            SELECT s.id, 'reviewer', NULL, %s, NULL, true, NULL, {now}
            FROM labeling_solution s
            WHERE s.project_id = %s AND s.submitted_count = 3 AND s.id %% 10 < 3
            """,
            [reviewer.pk, project.pk],
        )
        counts = {}
        for table in ("solution", "step", "annotation", "suggestion", "resolution"):
            cursor.execute(f"SELECT COUNT(*) FROM labeling_{table}")
            counts[table] = cursor.fetchone()[0]
        return counts


def scenarios(word: str) -> list[tuple[str, dict, int]]:
    """(name, filters, offset): what an admin clicks through."""
    return [
        ("first page", {}, 0),
        ("page 1000", {}, 1000 * PAGE),
        ("newest first", {"sort": "-created"}, 0),
        ("most labels", {"sort": "-annotations"}, 0),
        ("by problem", {"sort": "problem"}, 0),
        ("disagreement", {"disagreement": True}, 0),
        ("reviewed", {"state": "reviewed"}, 0),
        ("unlabeled", {"state": "unlabeled"}, 0),
        ("machine error", {"verdict": "error"}, 0),
        ("error + open", {"verdict": "error", "status": "open", "sort": "-agreement"}, 0),
        ("gold", {"gold": True}, 0),
        (f"search {word!r}", {"q": word}, 0),
    ]


# Bare SQL of the same page: the WHERE and ORDER BY of each filter and sort, written by hand.
ORDER = {
    "created": "s.id",
    "problem": "s.problem_id, s.id",
    "-created": "s.id DESC",
    "annotations": "s.submitted_count, s.id",
    "-annotations": "s.submitted_count DESC, s.id DESC",
    "agreement": "s.review_reasons, s.id",
    "-agreement": "s.review_reasons DESC, s.id DESC",
}
CURRENT = "EXISTS (SELECT 1 FROM labeling_resolution r WHERE r.solution_id = s.id AND r.is_current)"
DRAFT = (
    "EXISTS (SELECT 1 FROM labeling_annotation a WHERE a.solution_id = s.id AND a.status = 'draft')"
)
MACHINE_ERROR = (
    "EXISTS (SELECT 1 FROM labeling_suggestion g JOIN labeling_step st ON st.id = g.step_id "
    "WHERE st.solution_id = s.id AND g.value = -1)"
)
MACHINE_ANY = (
    "EXISTS (SELECT 1 FROM labeling_suggestion g JOIN labeling_step st ON st.id = g.step_id "
    "WHERE st.solution_id = s.id)"
)


def bare_where(project, filters: dict) -> tuple[str, str, list]:
    from labeling.selectors.review import masks_with

    joins, where, params = "", ["s.project_id = %s"], [project.pk]
    if filters.get("q"):
        joins = " JOIN labeling_problem p ON p.id = s.problem_id"
        where.append("p.text ILIKE %s")
        params.append(f"%{filters['q']}%")
    state = filters.get("state")
    if state == "reviewed":
        where.append(CURRENT)
    elif state == "unlabeled":
        where.append(f"NOT {CURRENT} AND s.submitted_count = 0 AND NOT {DRAFT}")
    if filters.get("status"):
        where.append("s.queue_open" if filters["status"] == "open" else "NOT s.queue_open")
    if filters.get("disagreement"):
        masks = masks_with("disagreement")
        where.append(f"s.review_reasons IN ({', '.join(str(m) for m in masks)})")
    if filters.get("verdict") == "error":
        where.append(MACHINE_ERROR)
    if filters.get("gold"):
        where.append("s.is_gold")
    return joins, " AND ".join(where), params


def bare_page(project, filters: dict, offset: int) -> tuple:
    from django.db import connection

    joins, where, params = bare_where(project, filters)
    order = ORDER[filters.get("sort", "created")]
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT s.id FROM labeling_solution s{joins} WHERE {where} ORDER BY {order} "
            "LIMIT %s OFFSET %s",
            [*params, PAGE, offset],
        )
        ids = [r[0] for r in cursor.fetchall()]
        # Counted up to the cap or the page's end, filtered or not (explorer_page).
        cap = max(COUNT_CAP, offset + PAGE)
        cursor.execute(
            f"SELECT COUNT(*) FROM (SELECT s.id FROM labeling_solution s{joins} "
            f"WHERE {where} LIMIT %s) t",
            [*params, cap + 1],
        )
        n = min(cursor.fetchone()[0], cap)
        cursor.execute(
            f"""
            SELECT s.id, s.problem_id, SUBSTRING(p.text, 1, 300), p.source, s.generator,
                s.final_answer, s.answer_correct, s.submitted_count, s.is_gold, s.queue_open,
                s.review_reasons, s.import_job_id, s.created_at,
                (SELECT COUNT(*) FROM labeling_step st WHERE st.solution_id = s.id),
                {CURRENT}, {DRAFT}, {MACHINE_ERROR}, {MACHINE_ANY}
            FROM labeling_solution s JOIN labeling_problem p ON p.id = s.problem_id
            WHERE s.project_id = %s AND s.id = ANY(%s)
            """,
            [project.pk, ids],
        )
        rows = {r[0]: r for r in cursor.fetchall()}
    return n, [rows[i][0] for i in ids if i in rows]


def ours_page(project, filters: dict, offset: int) -> tuple:
    from labeling.selectors.explorer import ExplorerFilter, explorer_page

    page = explorer_page(
        project=project, filters=ExplorerFilter(**filters), limit=PAGE, offset=offset
    )
    return page["count"], [row["id"] for row in page["results"]]


def plan_of(project, filters: dict, offset: int) -> str:
    """EXPLAIN ANALYZE of the page's id query as the ORM sends it: top node and time."""
    from django.db import connection

    from labeling.selectors.explorer import ExplorerFilter, explorer_solutions

    qs = explorer_solutions(project=project, filters=ExplorerFilter(**filters))
    sql, params = qs.values_list("pk", flat=True)[offset : offset + PAGE].query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN ANALYZE {sql}", params)
        lines = [r[0] for r in cursor.fetchall()]
    scans = [ln.strip().split("  (")[0].lstrip("-> ") for ln in lines if "Scan" in ln]
    total = next((ln for ln in lines if ln.startswith("Execution Time")), "")
    return f"{'; '.join(dict.fromkeys(scans))[:150]} | {total}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=100_000, help="solutions")
    parser.add_argument("--repeat", type=int, default=5, help="loads of each page, each side")
    parser.add_argument("--db", default="steplab_explorer_bench")
    parser.add_argument("--keep", action="store_true", help="keep the database (PostgreSQL)")
    args = parser.parse_args()

    where, cleanup = harness.django_on_throwaway_database(args.db)
    from django.contrib.auth import get_user_model
    from django.db import connection

    from labeling.models import Problem

    try:
        harness.migrate(where)
        started = time.perf_counter()
        project = harness.imported_project(n=args.n, name="bench: explorer", overlap=3)
        user = get_user_model().objects.create(username="bench-a")
        reviewer = get_user_model().objects.create(username="bench-reviewer")
        made = add_explorer_data(project, user, reviewer)
        harness.analyze()
        print(f"set up {made} in {time.perf_counter() - started:.0f} s")
        # A word in about one problem in a hundred: a search that pages.
        texts = list(Problem.objects.filter(project=project).values_list("text", flat=True)[:2000])
        word = next(
            (
                w
                for w in ("triangle", "probability", "integer", "circle")
                if sum(w in t.lower() for t in texts) >= 5
            ),
            "the",
        )

        loads = harness.PageLoads(other="bare SQL", repeat=args.repeat)
        print(f"{'page':<22} {'steplab ms':>10} {'bare SQL ms':>11} {'ratio':>6}  rows  count")
        for name, filters, offset in scenarios(word):
            ours, bare, o, b = loads.both(
                lambda f=filters, o=offset: ours_page(project, f, o),
                lambda f=filters, o=offset: bare_page(project, f, o),
            )
            print(f"{name:<22} {o:>10.1f} {b:>11.1f} {o / b:>5.2f}x  {len(ours[1]):>4}  {ours[0]}")
            if connection.vendor == "postgresql":
                print(f"    plan: {plan_of(project, filters, offset)}")
            if ours != bare:
                print(f"  differs: steplab {ours[0]} {ours[1][:5]}, bare {bare[0]} {bare[1][:5]}")
        print(loads.summary(other_over_ours=False, digits=2))
        print(f"same ids and counts both ways: {loads.same}")
        if not loads.same:
            raise SystemExit("steplab and the bare SQL disagree")
    finally:
        harness.finish(cleanup, keep=args.keep, db=args.db)


if __name__ == "__main__":
    main()
