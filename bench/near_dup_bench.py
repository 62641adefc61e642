"""What near-duplicate screening (labeling/services/imports/near_dups.py) costs an import.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \
        .venv/bin/python bench/near_dup_bench.py --big 20000 --small 2000

bench/import_bench.py's generated rows (real problems and steps from shared/data), in one run
on a throwaway database:

1. a new project: the first BIG solutions imported with the screen (signatures computed and
   stored), and the same file into a second new project with the screen turned off (the
   baseline, the import as it was before);
2. a project of BIG solutions: the next SMALL solutions imported with the screen (the
   project's index read from the stored signatures) and, into a copy of the project made the
   same way, without it.

Prints seconds and the ratios with / without.
"""

import argparse
import json
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

import harness
import import_bench

REPO = Path(__file__).resolve().parent.parent


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


def _timed(project, path: Path) -> float:
    from labeling.services.imports import import_file

    started = time.perf_counter()
    import_file(project=project, path=path, labels_as="suggestions")
    return time.perf_counter() - started


def _line(on: float, off: float) -> None:
    print(f"  with screen {on:.2f} s, without {off:.2f} s, ratio {on / off:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--big", type=int, default=20_000, help="solutions in the project")
    parser.add_argument("--small", type=int, default=2_000, help="solutions imported after")
    parser.add_argument("--db", default="steplab_near_dup_bench")
    args = parser.parse_args()
    sys.path.insert(0, str(REPO))
    where, cleanup = harness.django_on_throwaway_database(args.db)
    try:
        harness.migrate(where)
        from labeling.models import Problem, Project

        rows = list(import_bench.synthetic_rows(args.big + args.small))
        with tempfile.TemporaryDirectory() as tmp:
            big, small = Path(tmp) / "big.jsonl", Path(tmp) / "small.jsonl"
            for path, part in ((big, rows[: args.big]), (small, rows[args.big :])):
                with open(path, "w", encoding="utf-8") as f:
                    f.writelines(json.dumps(r, ensure_ascii=False) + "\n" for r in part)
            on = Project.objects.create(name="with screen")
            off = Project.objects.create(name="without screen")
            with screen_off():
                first_off = _timed(off, big)
            first_on = _timed(on, big)
            problems = Problem.objects.filter(project=on).count()
            with screen_off():
                next_off = _timed(off, small)
            next_on = _timed(on, small)
        print(f"{args.big} solutions ({problems} problems) into a new project:")
        _line(first_on, first_off)
        print(f"{args.small} more solutions into that project:")
        _line(next_on, next_off)
    finally:
        harness.finish(cleanup)


if __name__ == "__main__":
    main()
