"""Import throughput: labeling.services.imports.import_file against one-.create()-per-row.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres .venv/bin/python bench/import_bench.py
    .venv/bin/python bench/import_bench.py --n 20000          # SQLite, a temporary file

Builds N solutions in steplab's JSON Lines format by recombining real problems and real step
texts from shared/data (each problem gets a variant number, each of its solutions another
generator, so every row has its own content-hash id; labels are first-error style), imports
them with import_file (labels as suggestions), then imports a smaller subset the naive way
(get_or_create the problem, .create() the solution, each step and each suggestion, all in
one transaction, which is the naive code's best case) and extrapolates its rate.

Runs on a throwaway database: on PostgreSQL it creates and finally drops `steplab_bench` next
to the database DATABASE_URL names; otherwise a temporary SQLite file. Migrations are run
programmatically.
"""

import argparse
import json
import os
import random
import resource
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

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


def throwaway_database() -> tuple[str, callable]:
    """Point DATABASE_URL at a fresh database; returns a description and a cleanup."""
    url = os.environ.get("DATABASE_URL", "")
    if url.startswith(("postgres://", "postgresql://")):
        import psycopg

        parts = urlsplit(url)
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {BENCH_DB}")
            conn.execute(f"CREATE DATABASE {BENCH_DB}")
        os.environ["DATABASE_URL"] = urlunsplit(parts._replace(path=f"/{BENCH_DB}"))

        def drop() -> None:
            from django.db import connections

            connections.close_all()
            with psycopg.connect(url, autocommit=True) as conn:
                conn.execute(f"DROP DATABASE IF EXISTS {BENCH_DB}")

        return f"PostgreSQL database {BENCH_DB} (dropped afterwards)", drop
    handle, name = tempfile.mkstemp(prefix="steplab_bench_", suffix=".sqlite3")
    os.close(handle)
    os.environ["DATABASE_URL"] = f"sqlite:///{name}"

    def remove() -> None:
        from django.db import connections

        connections.close_all()
        for suffix in ("", "-wal", "-shm", "-journal"):
            Path(name + suffix).unlink(missing_ok=True)

    return f"SQLite file {name} (removed afterwards)", remove


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
    args = parser.parse_args()

    where, cleanup = throwaway_database()
    os.environ["DEBUG"] = "False"  # DEBUG would keep every query in memory
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "annotate.settings.local")
    sys.path.insert(0, str(REPO))
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from labeling.models import Project, Solution, Step, Suggestion
    from labeling.services.imports import import_file

    try:
        call_command("migrate", verbosity=0)
        print(f"database: {where}; {connection.vendor} {connection.Database.__name__}")
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "bench.jsonl"
            started = time.perf_counter()
            write_file(path, args.n)
            size = path.stat().st_size
            print(
                f"built {args.n} solutions ({size / 1e6:.1f} MB) from shared/data "
                f"in {time.perf_counter() - started:.1f} s"
            )

            fast = Project.objects.create(name="bench: import_file")
            started = time.perf_counter()
            result = import_file(project=fast, path=path, labels_as="suggestions")
            elapsed = time.perf_counter() - started
            rate = result.solutions_created / elapsed
            print(
                f"import_file: {result.solutions_created} solutions, {result.steps_created} "
                f"steps, {result.labels_created} suggestions, {result.problems_created} "
                f"problems in {elapsed:.1f} s = {rate:,.0f} solutions/s "
                f"({result.steps_created / elapsed:,.0f} steps/s)"
            )
            rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
            print(f"peak RSS of this process: {rss:.0f} MB (file: {size / 1e6:.0f} MB)")

            started = time.perf_counter()
            again = import_file(project=fast, path=path)
            print(
                f"re-import: {again.solutions_created} created, {again.solutions_skipped} "
                f"skipped in {time.perf_counter() - started:.1f} s"
            )

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
            assert Solution.objects.filter(project=fast).count() == args.n
            print(f"speed-up: {rate / naive_rate:.1f}x")
    finally:
        cleanup()


if __name__ == "__main__":
    main()
