"""A million solutions: the pages a team opens most, at 10k solutions and at N, in one run.

    export DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres
    .venv/bin/python bench/scale_bench.py --n 100000
    .venv/bin/python bench/scale_bench.py --n 1000000 --explain   # + the plans at N

Builds (once: kept, and reused by the next run with the same N) two PostgreSQL databases,
`steplab_scale_10000` and `steplab_scale_<N>` (`--db-prefix` names others), each one project
written by the database itself (INSERT ... SELECT generate_series, no Python per row, the big
tables' secondary indexes and constraints built after their rows: bench/bulk_load.py): N/8
problems from five sources, N solutions with 5 to 11 steps each (8 on average), then
bench/review_queue_bench.py's review data on `--share` percent of the solutions (three
annotators' submitted labels, unsure flags, disagreements, gold, a current resolution on 30% of
them) and a symbolic −1 suggestion on 3% of all steps; the claim flags as the services leave
them, then the stored review reasons filled as `manage.py review_reasons_refresh` does (its rate
is printed).

Then it loads, through the DRF test client (URL routing, authentication, the view, the
serializers and the JSON rendering: everything but the socket), alternating the two databases
load by load so both see the same machine:

- the review queue's first page (the reviewer's default view), and its "rest" page;
- the solutions explorer's first page, unfiltered and with one common filter (disagreement);
- the dashboard: the project (its stats) and the metrics; apart, the two queue counts it
  asked for before the metrics carried the review progress;
- one annotator's claim (`queue/next`, then a skip outside the timing), p50 over --claims.

Prints each page's p50 ms at 10k and at N and the ratio N/10k (1.0 = flat), the statements per
request, and with --explain the plan (EXPLAIN ANALYZE, BUFFERS) of each statement at N.
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))
sys.path.insert(0, str(REPO))

SMALL = 10_000
READY = "bench: scale (ready)"
SOURCES = ("gsm8k", "math", "olympiad", "aime", "amc")


def _server_url(db: str) -> str:
    import os
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(os.environ["DATABASE_URL"])
    return urlunsplit(parts._replace(path=f"/{db}"))


def _exists_ready(db: str, n: int) -> bool:
    """Whether `db` holds a finished build of n solutions."""

    import psycopg

    with psycopg.connect(_server_url("postgres"), autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [db]).fetchone():
            return False
    try:
        with psycopg.connect(_server_url(db), autocommit=True) as conn:
            row = conn.execute(
                "SELECT count(*) FROM labeling_solution s JOIN labeling_project p "
                "ON p.id = s.project_id WHERE p.name = %s",
                [READY],
            ).fetchone()
    except psycopg.Error:
        return False
    return row[0] == n


def _use(db: str) -> None:
    """Point Django's default connection at `db` (closed; the next query reconnects)."""
    from django.db import connection

    connection.close()
    connection.settings_dict["NAME"] = db


# The tables the build fills by the million: their secondary indexes and constraints are built
# after the rows (bench/bulk_load.py).
BULK_TABLES = [
    "labeling_solution",
    "labeling_step",
    "labeling_annotation",
    "labeling_steplabel",
    "labeling_suggestion",
    "labeling_goldlabel",
    "labeling_resolution",
]


def build(n: int, share: int) -> None:
    """The project of n solutions in the current database (migrated, empty)."""
    import bulk_load
    import review_queue_bench
    from django.contrib.auth import get_user_model
    from django.db import connection

    from labeling.models import Project, ProjectMembership, Role
    from labeling.services.review.reasons import review_reasons_fill

    started = time.perf_counter()
    project = Project.objects.create(name="bench: scale (building)", overlap=3)
    users = [get_user_model().objects.create(username=u) for u in review_queue_bench.RATERS]
    reviewer = get_user_model().objects.create(username="bench-reviewer")
    claimer = get_user_model().objects.create(username="bench-claimer")
    for user in users + [claimer]:
        ProjectMembership.objects.create(project=project, user=user, role=Role.ANNOTATOR)
    ProjectMembership.objects.create(project=project, user=reviewer, role=Role.ADMIN)
    sources = "ARRAY[" + ", ".join(f"'{s}'" for s in SOURCES) + "]"
    p = project.pk
    with connection.cursor() as cursor, bulk_load.indexes_after(cursor, BULK_TABLES):
        cursor.execute("SET synchronous_commit = off")
        cursor.execute(
            f"""
            INSERT INTO labeling_problem (project_id, text, answer, reference_solution, source,
                external_id, metadata, domain, near_cluster, created_at)
            SELECT {p}, 'Problem ' || i || ': let x = ' || (i * 37 %% 1000) || '; find ' ||
                md5(i::text) || ' and simplify the result.', (i %% 97)::text, '',
                ({sources})[1 + i %% 5], 'p' || i, '{{}}', '', '', now()
            FROM generate_series(1, {max(1, n // 8)}) i
            """,
            [],
        )
        cursor.execute(f"SELECT min(id) FROM labeling_problem WHERE project_id = {p}")
        first_problem = cursor.fetchone()[0]
        cursor.execute(
            f"""
            INSERT INTO labeling_solution (project_id, problem_id, generator, final_answer,
                answer_correct, source, external_id, metadata, submitted_count, is_gold,
                review_reasons, queue_open, extra_overlap, created_at)
            SELECT {p}, {first_problem} + (i - 1) %% {max(1, n // 8)},
                (ARRAY['qwen-7b', 'llama-8b', 'mistral-7b'])[1 + i %% 3], (i %% 97)::text,
                CASE WHEN i %% 5 = 0 THEN NULL ELSE i %% 3 > 0 END, '', 's' || i, '{{}}',
                0, false, 0, true, 0, now()
            FROM generate_series(1, {n}) i
            """,
            [],
        )
        cursor.execute(
            f"""
            INSERT INTO labeling_step (solution_id, index, text, metadata, uses, uses_source)
            SELECT s.id, k, 'Step ' || (k + 1) || ': from ' || md5(s.id::text || k) ||
                ' we get x = ' || (s.id * (k + 3) %% 1000) || '.', '{{}}', '[]', ''
            FROM labeling_solution s, generate_series(0, 4 + s.id %% 7) k
            WHERE s.project_id = {p}
            """,
            [],
        )
        made = review_queue_bench.add_review_data(project, users, reviewer, share=share)
        cursor.execute(
            "UPDATE labeling_solution SET queue_open = (submitted_count < 3 AND NOT is_gold) "
            "WHERE project_id = %s AND (submitted_count > 0 OR is_gold)",
            [p],
        )
        print(f"  rows written in {time.perf_counter() - started:.0f} s", flush=True)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    filled = time.perf_counter()
    review_reasons_fill(  # what manage.py review_reasons_refresh runs
        project=project,
        progress=lambda done: print(
            f"    {done.solutions} solutions filled ({done.changed} masks set), "
            f"{time.perf_counter() - filled:.0f} s",
            flush=True,
        ),
    )
    filled = time.perf_counter() - filled
    print(f"  stored reasons filled in {filled:.0f} s ({n / filled:.0f} solutions/s)")
    Project.objects.filter(pk=p).update(name=READY)
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
    print(
        f"built {n} solutions ({share}% labeled by 3: {made['steplabel']} labels, "
        f"{made['suggestion']} suggestions, {made['resolution']} resolutions) in "
        f"{time.perf_counter() - started:.0f} s"
    )


def ensure(db: str, n: int, share: int, *, with_snapshot: bool = True) -> None:
    """`db` with a finished build of n solutions: reused when there, else built."""

    import psycopg
    from django.core.management import call_command

    if _exists_ready(db, n):
        print(f"reusing database {db} ({n} solutions)")
        _use(db)
        call_command("migrate", verbosity=0)  # a later migration's indexes
        vacuum(db)
    else:
        with psycopg.connect(_server_url("postgres"), autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {db}")
            conn.execute(f"CREATE DATABASE {db}")
        _use(db)
        print(f"building database {db} ({n} solutions)", flush=True)
        call_command("migrate", verbosity=0)
        build(n, share)
    if with_snapshot:
        snapshot(db)


def vacuum(db: str) -> None:
    """VACUUM (ANALYZE) the big tables of a reused database: what autovacuum does on a server
    that runs it (this one does not). Another bench's writes since the build (the reasons
    fill rewrites every mask) leave dead rows and pages not all-visible, and every entry an
    index-only walk of the queue reads then costs a heap fetch too. All-visible pages are
    skipped, so a clean database takes seconds."""
    import psycopg

    with psycopg.connect(_server_url(db), autocommit=True) as conn:
        for table in BULK_TABLES:
            conn.execute(f"VACUUM (ANALYZE) {table}")


def snapshot(db: str) -> None:
    """The metrics snapshot a large project's pages read, made (as the refresh task makes it)
    when missing or older than the fields this code puts in it."""
    from labeling.models import MetricsSnapshot, Project
    from labeling.services.projects.metrics import metrics_refresh

    project = Project.objects.get(name=READY)
    data = MetricsSnapshot.objects.filter(project=project).values_list("data", flat=True).first()
    if not data or not {"review", "stats"} <= set(data):
        started = time.perf_counter()
        metrics_refresh(project=project)
        print(f"{db}: metrics snapshot computed in {time.perf_counter() - started:.0f} s")


class Side:
    """One database's project, its people and its API clients."""

    def __init__(self, db: str) -> None:
        from django.contrib.auth import get_user_model
        from rest_framework.test import APIClient

        from labeling.models import Project

        self.db = db
        _use(db)
        self.project = Project.objects.get(name=READY)
        users = get_user_model().objects
        self.reviewer = APIClient()
        self.reviewer.force_authenticate(users.get(username="bench-reviewer"))
        self.annotator = APIClient()
        self.annotator.force_authenticate(users.get(username="bench-claimer"))

    def pages(self) -> dict[str, list[str]]:
        """Page name → the GET requests of one load."""
        base = f"/api/projects/{self.project.pk}"
        return {
            "review queue, first page": [f"{base}/review/queue/"],
            # "rest" (agreeing annotators, no reason): its page and the counts it carries.
            "review queue, rest": [f"{base}/review/queue/?reason=rest"],
            "explorer, first page": [f"{base}/explorer/"],
            "explorer, disagreement": [f"{base}/explorer/?disagreement=true"],
            "dashboard": [f"{base}/", f"{base}/metrics/"],
            # What the dashboard asked the queue for before the metrics carried the review
            # progress (and still asks when a snapshot predates it).
            "dashboard's queue counts": [
                f"{base}/review/queue/?limit=1",
                f"{base}/review/queue/?state=resolved&limit=1",
            ],
        }

    def load(self, urls: list[str]) -> float:
        started = time.perf_counter()
        for url in urls:
            answer = self.reviewer.get(url)
            if answer.status_code not in (200, 202):
                raise SystemExit(f"{self.db} {url}: {answer.status_code} {answer.content[:300]}")
        return (time.perf_counter() - started) * 1000

    def claim(self) -> float:
        """One claim, timed; the skip that frees the annotator for the next is not."""
        base = f"/api/projects/{self.project.pk}"
        started = time.perf_counter()
        answer = self.annotator.post(f"{base}/queue/next/")
        took = (time.perf_counter() - started) * 1000
        if answer.status_code != 200:
            raise SystemExit(f"{self.db} claim: {answer.status_code} {answer.content[:300]}")
        annotation = answer.json()["annotation"]["id"]
        skipped = self.annotator.post(f"/api/annotations/{annotation}/skip/", {}, format="json")
        if skipped.status_code != 204:
            raise SystemExit(f"{self.db} skip: {skipped.status_code} {skipped.content[:300]}")
        return took


def statements(side: Side, urls: list[str]) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    _use(side.db)
    with CaptureQueriesContext(connection) as queries:
        side.load(urls)
    return len(queries)


def explain(side: Side, urls: list[str], *, full: bool = False) -> None:
    """EXPLAIN (ANALYZE, BUFFERS) of every statement of one load: the top line and time."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    _use(side.db)
    with CaptureQueriesContext(connection) as queries:
        side.load(urls)
    with connection.cursor() as cursor:
        for q in queries.captured_queries:
            sql = q["sql"]
            if not sql.lstrip().upper().startswith("SELECT"):
                continue
            cursor.execute(f"EXPLAIN (ANALYZE, BUFFERS) {sql}")
            plan = [row[0] for row in cursor.fetchall()]
            took = next((line for line in plan if line.startswith("Execution Time")), "")
            print(f"    {took:<28} {sql[:150]}")
            if full:  # the whole plan, and the statement
                print(f"      {sql}")
                for line in plan:
                    print(f"      {line}")
            else:
                print(f"      {plan[0][:150]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=100_000, help="solutions of the large project")
    parser.add_argument("--share", type=int, default=30, help="percent labeled by 3 annotators")
    parser.add_argument("--repeat", type=int, default=9, help="loads of each page, each side")
    parser.add_argument("--claims", type=int, default=50, help="claims timed, each side")
    parser.add_argument("--explain", action="store_true", help="print the plans at --n")
    parser.add_argument(
        "--full-plans", action="store_true", help="with --explain: every line of each plan"
    )
    parser.add_argument(
        "--pages", default="", help="only the pages whose names contain one of these (commas)"
    )
    parser.add_argument("--no-claims", action="store_true", help="skip the annotator's claims")
    parser.add_argument(
        "--no-dashboard",
        action="store_true",
        help="skip the dashboard (and the metrics snapshot it reads, minutes at 1M)",
    )
    parser.add_argument(
        "--db-prefix",
        default="steplab_scale_",
        help="the kept databases' names: <prefix>10000 and <prefix><N>",
    )
    args = parser.parse_args()

    import os

    if not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
        raise SystemExit("scale_bench needs PostgreSQL: set DATABASE_URL")
    os.environ["DEBUG"] = "False"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "annotate.settings.local")
    import django

    django.setup()
    from django.conf import settings

    settings.ALLOWED_HOSTS = ["*"]
    dbs = {SMALL: f"{args.db_prefix}{SMALL}", args.n: f"{args.db_prefix}{args.n}"}
    for n, db in dbs.items():
        ensure(db, n, args.share, with_snapshot=not args.no_dashboard)
    small, large = Side(dbs[SMALL]), Side(dbs[args.n])

    print(f"{'page':<28} {'10k ms':>8} {f'{args.n // 1000}k ms':>9} {'ratio':>6}  statements")
    for name, urls in small.pages().items():
        if args.no_dashboard and name == "dashboard":
            continue
        wanted = [part for part in args.pages.split(",") if part]
        if wanted and not any(part in name for part in wanted):
            continue
        n_small, n_large = statements(small, urls), statements(large, urls)
        times: dict[str, list[float]] = {small.db: [], large.db: []}
        for _ in range(args.repeat):
            for side in (small, large):
                _use(side.db)
                side.load(urls)  # the connection's first load warms it; not counted
                times[side.db].append(side.load(urls))
        a, b = statistics.median(times[small.db]), statistics.median(times[large.db])
        print(f"{name:<28} {a:>8.1f} {b:>9.1f} {b / a:>5.2f}x  {n_small} / {n_large}")
        if args.explain:
            explain(large, urls, full=args.full_plans)
    if args.no_claims:
        return
    claims: dict[str, list[float]] = {small.db: [], large.db: []}
    for _ in range(max(1, args.claims // 5)):
        for side in (small, large):
            _use(side.db)
            side.claim()  # warms the new connection; not counted
            claims[side.db] += [side.claim() for _ in range(5)]
    a, b = statistics.median(claims[small.db]), statistics.median(claims[large.db])
    print(f"{'claim (p50 of ' + str(args.claims) + ')':<28} {a:>8.1f} {b:>9.1f} {b / a:>5.2f}x")


if __name__ == "__main__":
    main()
