"""What near-duplicate screening (labeling/services/imports/near_dups.py) costs an import, and
the export's split by near-duplicate cluster, as the project grows.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \\
        .venv/bin/python bench/near_dup_bench.py --sizes 10000,200000 --rows 1000

On a throwaway database, for each project size N: a project whose first problems are real
(bench/import_bench.py's generated rows from shared/data, PLANTED solutions imported with the
screen) filled up to N problems with synthetic ones written by SQL (each with a signature and
band keys, as an import stores them; none near another). Then, each timed REPEAT times in a
transaction rolled back (the project is the same for every run), the median printed:

1. an import of ROWS more generated solutions (half their problems a planted one with a
   sentence added: near-duplicates of the project's, where long enough) with the screen
   (stored band keys, one lookup a batch), and without it (the baseline: the import as it is
   without any near-duplicate check);
2. main's screen before stored keys (emulated here, as labeling/services/imports/near_dups.py
   was: the project's stored signatures, at most INDEX_MAX = 50,000 problems, loaded into a
   datasketch MinHashLSH, then each new problem matched): its time is added to the baseline's.
   Past 50,000 problems main did not check the project's problems at all;
3. the export's split preparation: main's (every problem's text and signature read and
   clustered in memory, up to CLUSTER_MAX = 50,000 problems) and this one's (the split keys
   of a project of at most SMALL problems; the clusters come with the rows).

Prints seconds and the ratios: with / without the screen, and the largest size's over the
smallest's (1 when the cost does not grow with the project).
"""

import argparse
import json
import statistics
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

import harness
import import_bench

REPO = Path(__file__).resolve().parent.parent
PLANTED = 4000  # solutions (500 real problems) imported into every project first
LEGACY_INDEX_MAX = 50_000  # main's INDEX_MAX and CLUSTER_MAX


class Rollback(Exception):
    pass


@contextmanager
def screen_off():
    from labeling.services.imports import near_dups

    saved = near_dups.NearDupScreen.load, near_dups.NearDupScreen.rows
    near_dups.NearDupScreen.load = lambda self: self
    near_dups.NearDupScreen.rows = lambda self, rows: rows
    store = near_dups.NearDupScreen.store
    near_dups.NearDupScreen.store = lambda self: None
    try:
        yield
    finally:
        near_dups.NearDupScreen.load, near_dups.NearDupScreen.rows = saved
        near_dups.NearDupScreen.store = store


def rolled_back(fn) -> tuple[float, object]:
    """Seconds `fn()` takes in a transaction that is then rolled back."""
    from django.db import transaction

    result = None
    started = time.perf_counter()
    try:
        with transaction.atomic():
            result = fn()
            elapsed = time.perf_counter() - started
            raise Rollback
    except Rollback:
        pass
    return elapsed, result


def fill(project, problems: int) -> None:
    """Synthetic problems up to `problems`, with random signatures and band keys (one band
    layout: the current threshold's)."""
    from django.db import connection

    from labeling.models import Problem
    from labeling.rules.near_dups import band_numbers

    have = Problem.objects.filter(project=project).count()
    bands = band_numbers()
    with connection.cursor() as cursor:
        cursor.execute(
            """INSERT INTO labeling_problem (project_id, text, answer, reference_solution,
                   source, external_id, metadata, created_at, domain, near_cluster)
               SELECT %s, 'Synthetic problem ' || i || ': how many ways are there to tile a '
                      || i || ' by ' || (i %% 97) || ' board with dominoes?', '', '', 'bench',
                      'synthetic-' || i, '{}', now(), '', ''
               FROM generate_series(1, %s) AS i""",
            [project.pk, problems - have],
        )
        cursor.execute(
            """INSERT INTO labeling_problemsignature (problem_id, hashvalues)
               SELECT p.id, decode(repeat(md5(p.id::text), 32), 'hex')
               FROM labeling_problem p WHERE p.project_id = %s AND p.source = 'bench'
                 AND NOT EXISTS (SELECT 1 FROM labeling_problemsignature s
                                 WHERE s.problem_id = p.id)""",
            [project.pk],
        )
        cursor.execute(
            """INSERT INTO labeling_problemband (project_id, problem_id, band, hash)
               SELECT %s, p.id, b, ('x' || substr(md5(p.id || ':' || b), 1, 16))::bit(64)::bigint
               FROM labeling_problem p, unnest(%s::int[]) AS b
               WHERE p.project_id = %s AND p.external_id LIKE 'synthetic-%%'""",
            [project.pk, bands, project.pk],
        )


def legacy_screen(project, path: Path) -> tuple[float, int]:
    """main's screen: load the project's signatures into MinHashLSH, match the file's."""
    from labeling.importers import open_rows
    from labeling.models import Problem, ProblemSignature
    from labeling.rules.near_dups import NearIndex, signature, signature_from_bytes

    started = time.perf_counter()
    index, found, project_keys = NearIndex(), 0, set()
    if Problem.objects.filter(project=project).count() <= LEGACY_INDEX_MAX:
        rows = ProblemSignature.objects.filter(problem__project=project).values_list(
            "problem__external_id", "problem_id", "problem__text", "hashvalues"
        )
        for ext, pk, text, data in rows.iterator(chunk_size=2000):
            project_keys.add(ext or f"pk:{pk}")
            index.add(ext or f"pk:{pk}", text, signature_from_bytes(data))
    seen: set[str] = set()
    with open_rows(path, fmt="auto", filename=path.name) as parsed:
        for row in parsed:
            key, text = row.problem.external_id, row.problem.text
            if key in seen:
                continue
            seen.add(key)
            sig = signature(text)
            like = index.match(text, sig)
            if like is None:
                index.add(key, text, sig)
            found += like in project_keys
    return time.perf_counter() - started, found


def legacy_split(project) -> float:
    """main's split preparation: every problem's text and signature, clustered in memory."""
    from labeling.importers.ids import problem_id
    from labeling.models import Problem
    from labeling.rules.near_dups import clusters, signature_from_bytes

    started = time.perf_counter()
    rows = list(
        Problem.objects.filter(project=project)
        .order_by("pk")
        .values_list("external_id", "text", "signature__hashvalues")[: LEGACY_INDEX_MAX + 1]
    )
    if len(rows) <= LEGACY_INDEX_MAX:
        texts = {ext or problem_id(text): text for ext, text, _ in rows}
        sigs = {ext or problem_id(t): signature_from_bytes(d) for ext, t, d in rows if d}
        clusters(texts, sigs=sigs)
    return time.perf_counter() - started


def timed(fn) -> float:
    started = time.perf_counter()
    fn()
    return time.perf_counter() - started


def median(fn, repeat: int) -> float:
    return statistics.median(fn() for _ in range(repeat))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10000,200000", help="project sizes (problems)")
    parser.add_argument("--rows", type=int, default=1000, help="solutions imported, timed")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--db", default="steplab_near_dup_bench")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    sys.path.insert(0, str(REPO))
    where, cleanup = harness.django_on_throwaway_database(args.db)
    try:
        harness.migrate(where)
        from labeling.exporters.source import problem_split_keys
        from labeling.exporters.split import SMALL
        from labeling.models import Project
        from labeling.services.imports import import_file

        rows = list(import_bench.synthetic_rows(PLANTED + args.rows))
        results = {}
        with tempfile.TemporaryDirectory() as tmp:
            planted, new = Path(tmp) / "planted.jsonl", Path(tmp) / "new.jsonl"
            # Half the new problems repeat a planted one, reworded: near-duplicates of the
            # project's (the other half are new problems).
            per = import_bench.SOLUTIONS_PER_PROBLEM
            fresh = [dict(r) for r in rows[PLANTED:]]
            for j, row in enumerate(fresh):
                if (j // per) % 2 == 0:
                    asked = rows[(j // per) * per % PLANTED]["problem"]
                    row["problem"] = asked + " Give the answer in lowest terms."
            for path, part in ((planted, rows[:PLANTED]), (new, fresh)):
                with open(path, "w", encoding="utf-8") as f:
                    f.writelines(json.dumps(r, ensure_ascii=False) + "\n" for r in part)
            for size in sizes:
                project = Project.objects.create(name=f"{size} problems")
                import_file(project=project, path=planted, labels_as="suggestions")
                fill(project, size)
                harness.analyze()

                def one(project=project, path=new):
                    return import_file(project=project, path=path, labels_as="suggestions")

                on = median(lambda one=one: rolled_back(one)[0], args.repeat)
                with screen_off():
                    off = median(lambda one=one: rolled_back(one)[0], args.repeat)
                report = rolled_back(one)[1].near_duplicates
                legacy = median(lambda p=project: legacy_screen(p, new)[0], args.repeat)
                legacy_found = legacy_screen(project, new)[1]
                split_new = median(
                    lambda p=project: timed(lambda: problem_split_keys(project=p, limit=SMALL)),
                    args.repeat,
                )
                split_old = median(lambda p=project: legacy_split(p), args.repeat)
                checked = size <= LEGACY_INDEX_MAX
                results[size] = on
                print(f"project of {size} problems, {args.rows} solutions imported:")
                print(
                    f"  stored keys: {on:.2f} s; without any check {off:.2f} s "
                    f"(ratio {on / off:.2f}); found {report['existing']} of the project's, "
                    f"{report['in_file']} within the file"
                )
                print(
                    f"  main's in-memory screen: {off + legacy:.2f} s "
                    f"(ratio {(off + legacy) / off:.2f}); found {legacy_found} of the project's"
                    + ("" if checked else ", the project's problems not checked (past 50,000)")
                )
                print(
                    f"  split preparation: {split_new * 1000:.1f} ms here, "
                    f"main's {split_old * 1000:.1f} ms"
                    + ("" if checked else " (past 50,000: no clusters, split by problem)")
                )
        small, large = min(sizes), max(sizes)
        print(
            f"import with stored keys, {large} over {small} problems: "
            f"ratio {results[large] / results[small]:.2f}"
        )
    finally:
        harness.finish(cleanup)


if __name__ == "__main__":
    main()
