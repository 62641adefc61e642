"""Import throughput: `manage.py import` against PostgreSQL's own COPY and one .create() per row.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres .venv/bin/python bench/import_bench.py
    .venv/bin/python bench/import_bench.py --n 20000          # SQLite: no COPY baseline

Builds N solutions in steplab's JSON Lines format by recombining real problems and real step
texts from shared/data (each problem gets a variant number, each of its solutions another
generator, so every row has its own content-hash id; labels are first-error style). Then, in
this one process:

1. steplab: `manage.py import FILE --project ID --labels-as suggestions` (call_command, so the
   same code the CLI runs: import_file inside the command), timed, in rows/s of every table
   it writes (problems, solutions, steps, suggestions; annotations and step labels with
   `--labels-as annotations`); then the same file again (every row already there).
2. The physical limit (PostgreSQL only): the very rows step 1 wrote, read back with
   `COPY (SELECT * ...) TO` files beforehand, then timed: `COPY ... FROM STDIN` of them into
   empty scratch tables of the same shape (`LIKE ... INCLUDING ALL`: columns, defaults,
   checks, unique and other indexes; plus the same foreign keys, pointing at each other), in
   one transaction, commit included. Row counts are compared after.
3. A smaller subset the naive way (get_or_create the problem, .create() the solution, each
   step and each suggestion, all in one transaction, which is the naive code's best case),
   its rate extrapolated.

BENCH_NO_DETECT_USES=1 imports with `--no-detect-uses` (no step-reference detection), to
measure what the detector costs.

Runs on a throwaway database: on PostgreSQL it creates and finally drops `--db` (default
`steplab_bench`) next to the database DATABASE_URL names; otherwise a temporary SQLite file.
Migrations are run programmatically.
"""

import argparse
import io
import json
import os
import random
import re
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

if __package__:  # imported as bench.<name> (tests, stream_bench)
    from . import harness
else:  # run as a script: bench/ is on sys.path
    import harness

REPO = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("STEPLAB_SHARED_DATA", REPO.parent / "shared" / "data"))
if not DATA.exists():
    DATA = Path("/work/shared/data")
BENCH_DB = "steplab_bench"
SOLUTIONS_PER_PROBLEM = 8


def _read(name: str) -> list[dict]:
    with open(DATA / name, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def real_material() -> tuple[list[str], list[list[str]]]:
    """Real problem texts and real step sequences from the shared samples."""
    problems: list[str] = []
    solutions: list[list[str]] = []
    for r in _read("processbench_sample.jsonl"):
        problems.append(r["problem"])
        solutions.append(r["steps"])
    for r in _read("prmbench_sample.jsonl"):
        problems.append(r["modified_question"])
        solutions.append(r["modified_process"])
    for r in _read("prm800k_mrmath_redundant_sample.jsonl"):
        problems.append(r["question"])
        solutions.append([s[0] for s in r["model_output_step_format"]])
    for r in _read("gsm8k_model_solutions_sample.jsonl"):
        problems.append(r["question"])
        for key in ("6b_finetuning", "175b_verification"):
            solutions.append(r[key]["solution"].split("\n")[:-1])
    problems += [r["problem"] for r in _read("math500_sample.jsonl")]
    problems += [r["question"] for r in _read("gsm8k_sample.jsonl")]
    solutions = [[s.strip() for s in steps if s.strip()] for steps in solutions]
    return sorted(set(problems)), [s for s in solutions if len(s) >= 2]


def synthetic_rows(n: int, seed: int = 20251202) -> Iterator[dict]:
    rng = random.Random(seed)
    problems, solutions = real_material()
    all_steps = [step for steps in solutions for step in steps]
    for i in range(n):
        variant, k = divmod(i, SOLUTIONS_PER_PROBLEM)
        base = problems[variant % len(problems)]
        steps = list(rng.choice(solutions))[:15]
        # A real solution with one real step from elsewhere spliced in, or one dropped.
        if rng.random() < 0.5 and len(steps) > 2:
            del steps[rng.randrange(len(steps))]
        else:
            steps.insert(rng.randrange(len(steps) + 1), rng.choice(all_steps))
        first_error = rng.choice([-1, -1, *range(len(steps))])
        labels = [1] * len(steps) if first_error < 0 else [1] * first_error + [-1]
        yield {
            "problem": f"{base}\n\n(Variant {variant // len(problems)}.)"
            if variant >= len(problems)
            else base,
            "answer": str(rng.randrange(1000)),
            "steps": steps,
            "generator": f"bench-model-{k}",
            "labels": labels,
            "source": "bench",
        }


def write_file(path: Path, n: int) -> None:
    with open(path, "w", encoding="utf-8") as f:
        for row in synthetic_rows(n):
            f.write(json.dumps(row, ensure_ascii=False) + "\n")


def imported_tables(project_id: int) -> list[tuple[Any, str]]:
    """(model, WHERE clause) for every table an import writes, parents first."""
    from labeling.models import (
        Annotation,
        Problem,
        Solution,
        Step,
        StepAlternative,
        StepLabel,
        Suggestion,
    )

    p = int(project_id)
    solutions = f"SELECT id FROM labeling_solution WHERE project_id = {p}"
    steps = f"SELECT id FROM labeling_step WHERE solution_id IN ({solutions})"
    annotations = f"SELECT id FROM labeling_annotation WHERE solution_id IN ({solutions})"
    return [
        (Problem, f"project_id = {p}"),
        (Solution, f"project_id = {p}"),
        (Step, f"solution_id IN ({solutions})"),
        (StepAlternative, f"step_id IN ({steps})"),
        (Suggestion, f"step_id IN ({steps})"),
        (Annotation, f"solution_id IN ({solutions})"),
        (StepLabel, f"annotation_id IN ({annotations})"),
    ]


def copy_baseline(project_id: int, tmp: Path) -> tuple[dict[str, int], float, str]:
    """COPY FROM STDIN of the rows the import wrote into empty tables of the same shape.

    Returns {table: rows}, the seconds of the timed part (the COPYs and the commit) and the
    database backend's CPU time in it.
    """
    import psycopg
    from django.db import connection

    tables = [(m._meta.db_table, where) for m, where in imported_tables(project_id)]
    scratch = {table: f"ie_copy_{table}" for table, _ in tables}
    files: dict[str, Path] = {}
    with connection.cursor() as cursor:
        for table, where in tables:
            files[table] = tmp / f"{table}.copy"
            with (
                open(files[table], "wb") as f,
                cursor.cursor.copy(
                    f"COPY (SELECT * FROM {table} WHERE {where} ORDER BY id) TO STDOUT"
                ) as copy,
            ):
                for block in copy:
                    f.write(block)
            cursor.execute(f"DROP TABLE IF EXISTS {scratch[table]} CASCADE")
            cursor.execute(f"CREATE TABLE {scratch[table]} (LIKE {table} INCLUDING ALL)")
        for table, _ in tables:
            # The same foreign keys (Django's are DEFERRABLE INITIALLY DEFERRED: checked at
            # commit), re-pointed at the scratch tables where the target is one of them.
            cursor.execute(
                "SELECT pg_get_constraintdef(oid) FROM pg_constraint "
                "WHERE conrelid = %s::regclass AND contype = 'f'",
                [table],
            )
            for (definition,) in cursor.fetchall():
                for target, copy_of in scratch.items():
                    definition = re.sub(
                        rf"REFERENCES {target}\(", f"REFERENCES {copy_of}(", definition
                    )
                cursor.execute(f"ALTER TABLE {scratch[table]} ADD {definition}")
    connection.close()
    dsn = os.environ["DATABASE_URL"]
    with psycopg.connect(dsn) as conn:  # a fresh connection, one transaction
        pid = conn.info.backend_pid
        db_cpu = backend_cpu_s(pid)
        started = time.perf_counter()
        with conn.cursor() as cursor:
            for table, _ in tables:
                with (
                    open(files[table], "rb") as f,
                    cursor.copy(f"COPY {scratch[table]} FROM STDIN") as copy,
                ):
                    while block := f.read(1 << 20):
                        copy.write(block)
        conn.commit()
        elapsed = time.perf_counter() - started
        db_spent = cpu_spent(pid, db_cpu)
        counts = {}
        for table, _ in tables:
            counts[table] = conn.execute(f"SELECT count(*) FROM {scratch[table]}").fetchone()[0]
            conn.execute(f"DROP TABLE {scratch[table]} CASCADE")
        conn.commit()
    for path in files.values():
        path.unlink()
    return counts, elapsed, db_spent


def backend_cpu_s(pid: int | None) -> float | None:
    """CPU seconds (user + system) the PostgreSQL backend `pid` has used so far, when the
    server runs on this machine (Linux /proc); else None. The database's own work, which a
    wall-clock ratio on a shared machine cannot isolate."""
    if pid is None:
        return None
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


def django_backend_pid() -> int | None:
    from django.db import connection

    if connection.vendor != "postgresql":
        return None
    connection.ensure_connection()
    return connection.connection.info.backend_pid


def cpu_spent(pid: int | None, before: float | None) -> str:
    after = backend_cpu_s(pid)
    return "n/a" if before is None or after is None else f"{after - before:.1f} s"


def table_counts(project_id: int) -> dict[str, int]:
    from django.db import connection

    counts = {}
    with connection.cursor() as cursor:
        for model, where in imported_tables(project_id):
            table = model._meta.db_table
            cursor.execute(f"SELECT count(*) FROM {table} WHERE {where}")
            counts[table] = cursor.fetchone()[0]
    return counts


def command_import(project, path: Path, labels_as: str) -> str:
    """`manage.py import FILE --project ID --labels-as ...`, as the CLI runs it."""
    from django.core.management import call_command

    out = io.StringIO()
    call_command(
        "import",
        str(path),
        project=str(project.pk),
        labels_as=labels_as,
        no_progress=True,
        no_detect_uses=os.environ.get("BENCH_NO_DETECT_USES") == "1",
        stdout=out,
    )
    return out.getvalue()


def naive_import(project, path: Path, limit: int) -> int:
    """One query per object: the code one writes first."""
    from django.db import transaction

    from labeling.importers.ids import problem_id, solution_id
    from labeling.models import Problem, Solution, Step, Suggestion

    done = 0
    with open(path, encoding="utf-8") as f, transaction.atomic():
        for line in f:
            if done == limit:
                break
            row = json.loads(line)
            problem, _ = Problem.objects.get_or_create(
                project=project,
                external_id=problem_id(row["problem"]),
                defaults={"text": row["problem"], "answer": row["answer"], "source": "bench"},
            )
            solution = Solution.objects.create(
                project=project,
                problem=problem,
                generator=row["generator"],
                source="bench",
                external_id=solution_id(row["problem"], row["steps"], row["generator"]),
            )
            for index, text in enumerate(row["steps"]):
                step = Step.objects.create(solution=solution, index=index, text=text)
                if index < len(row["labels"]):
                    Suggestion.objects.create(
                        step=step, source="import", agent="bench", value=row["labels"][index]
                    )
            done += 1
    return done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=100_000, help="solutions to import")
    parser.add_argument("--baseline-n", type=int, default=2_000, help="solutions, naive way")
    parser.add_argument(
        "--labels-as", default="suggestions", choices=("suggestions", "annotations", "none")
    )
    parser.add_argument(
        "--db", default=BENCH_DB, help="throwaway PostgreSQL database (created, then dropped)"
    )
    parser.add_argument(
        "--no-reimport",
        action="store_true",
        help="skip the second import of the same file (at 1M it takes as long as the first)",
    )
    args = parser.parse_args()

    sys.path.insert(0, str(REPO))
    where, cleanup = harness.django_on_throwaway_database(args.db)
    from django.db import connection

    from labeling.models import Project, Solution, Step, Suggestion

    try:
        harness.migrate(where, driver=True)
        print(harness.load_line())
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "bench.jsonl"
            started = time.perf_counter()
            write_file(path, args.n)
            size = path.stat().st_size
            print(
                f"built {args.n} solutions ({size / 1e6:.1f} MB) from shared/data "
                f"in {time.perf_counter() - started:.1f} s"
            )

            # 1. manage.py import.
            fast = Project.objects.create(name="bench: manage.py import")
            rss_before, _ = harness.rss_mb()
            harness.rss_peak_reset()
            pid = django_backend_pid()
            db_cpu = backend_cpu_s(pid)
            cpu = time.process_time()
            started = time.perf_counter()
            command_import(fast, path, args.labels_as)
            elapsed = time.perf_counter() - started
            cpu = time.process_time() - cpu
            db_spent = cpu_spent(pid, db_cpu) if django_backend_pid() == pid else "n/a"
            counts = table_counts(fast.pk)
            rows = sum(counts.values())
            solutions = counts[Solution._meta.db_table]
            rate = rows / elapsed
            per_table = ", ".join(f"{t.removeprefix('labeling_')} {n:,}" for t, n in counts.items())
            print(
                f"manage.py import --labels-as {args.labels_as}: {rows:,} rows "
                f"({per_table})"
                f" in {elapsed:.1f} s = {rate:,.0f} rows/s ({solutions / elapsed:,.0f} "
                f"solutions/s, {counts[Step._meta.db_table] / elapsed:,.0f} steps/s)"
            )
            _, rss_peak = harness.rss_mb()
            print(
                f"  peak RSS during the import: {rss_peak:.0f} MB ({rss_before:.0f} MB before it: "
                f"+{rss_peak - rss_before:.0f} MB; file: {size / 1e6:.0f} MB)"
            )
            print(f"  CPU time of this process (its threads too): {cpu:.1f} s")
            print(f"  CPU time of its database backend: {db_spent}")
            print(f"  {harness.load_line()}")

            if not args.no_reimport:
                started = time.perf_counter()
                command_import(fast, path, args.labels_as)
                again = table_counts(fast.pk)
                print(
                    f"  re-import: {sum(again.values()) - rows} rows written in "
                    f"{time.perf_counter() - started:.1f} s (every solution already there)"
                )

            # 2. COPY FROM STDIN of the same rows.
            if connection.vendor == "postgresql":
                copied, copy_s, copy_cpu = copy_baseline(fast.pk, Path(tmp))
                assert copied == counts, (copied, counts)
                copy_rate = rows / copy_s
                print(
                    f"COPY ... FROM STDIN of the same {rows:,} rows into empty tables of the "
                    f"same shape: {copy_s:.1f} s = {copy_rate:,.0f} rows/s"
                )
                print(f"  CPU time of its database backend: {copy_cpu}")
                print(f"  import / COPY: {rate / copy_rate:.2f} of the physical limit")
                print(f"  {harness.load_line()}")
            else:
                print("COPY baseline: PostgreSQL only (set DATABASE_URL)")

            # 3. One .create() per object.
            naive = Project.objects.create(name="bench: naive")
            started = time.perf_counter()
            count = naive_import(naive, path, args.baseline_n)
            naive_elapsed = time.perf_counter() - started
            naive_rate = count / naive_elapsed
            steps = Step.objects.filter(solution__project=naive).count()
            print(
                f"naive .create() per row: {count} solutions, {steps} steps, "
                f"{Suggestion.objects.filter(step__solution__project=naive).count()} "
                f"suggestions in {naive_elapsed:.1f} s = {naive_rate:,.0f} solutions/s "
                f"(extrapolated to {args.n}: {args.n / naive_rate:,.0f} s)"
            )
            assert solutions == args.n
            print(f"  import / naive: {solutions / elapsed / naive_rate:.1f}x faster")
            print(harness.load_line())
    finally:
        cleanup()


if __name__ == "__main__":
    main()
