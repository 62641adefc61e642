"""Export throughput: export_build (TRL JSONL) against COPY and a DRF ModelSerializer export.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres .venv/bin/python bench/export_bench.py
    .venv/bin/python bench/export_bench.py --n 20000          # SQLite: no COPY baseline
    EXPORT_FORMAT_PROCESS=never ... bench/export_bench.py     # the export in one process

Builds N solutions from real problems and steps of shared/data (bench/import_bench.py's
generator) and imports them with their labels as imported annotations; a second project
gets the first N/10 of them. Then, in this one process:

1. steplab: `export_build` of the big project and of the small one to TRL JSONL, with the
   peak RSS growth of each (sampled every 5 ms): flat memory means the two are alike.
2. The physical limit: `COPY (SELECT ...) TO STDOUT` of the same rows (every step's problem,
   text and label, in the export's order), read and thrown away (PostgreSQL only).
3. The one-request export one writes first: a nested DRF ModelSerializer over a prefetched
   queryset, turned into TRL rows and written as JSON Lines, on --baseline-n solutions
   (it holds them all in memory), its rate extrapolated.

Rates are solutions (= TRL rows) per second. Runs on a throwaway database like
import_bench.py (PostgreSQL `--db`, default `steplab_export_bench`, dropped afterwards; else a
temporary SQLite).
"""

import argparse
import json
import os
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))
sys.path.insert(0, str(REPO))

if __package__:  # imported as bench.<name> (tests, stream_bench)
    from . import harness
else:  # run as a script: bench/ is on sys.path
    import harness
import import_bench  # noqa: E402


class PeakRss:
    """The largest RSS seen while the block runs, sampled on a thread."""

    def __init__(self, every: float = 0.005) -> None:
        import psutil

        self.process = psutil.Process()
        self.every = every
        self.start = self.peak = 0
        self.cpu = 0.0  # set by timed()
        self._stop = threading.Event()

    def _sample(self) -> None:
        while not self._stop.wait(self.every):
            self.peak = max(self.peak, self.process.memory_info().rss)

    def __enter__(self) -> "PeakRss":
        self.start = self.peak = self.process.memory_info().rss
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self.peak = max(self.peak, self.process.memory_info().rss)

    @property
    def growth_mb(self) -> float:
        return (self.peak - self.start) / 2**20


def timed(fn: Callable[[], Any]) -> tuple[Any, float, PeakRss]:
    with PeakRss() as rss:
        started = time.perf_counter()
        cpu = cpu_seconds()
        result = fn()
        rss.cpu = cpu_seconds() - cpu
        elapsed = time.perf_counter() - started
    return result, elapsed, rss


def cpu_seconds() -> float:
    """CPU seconds of this process (its threads) and of its ended children (the export's
    formatting process, EXPORT_FORMAT_PROCESS): what an export costs whatever the load."""
    import resource

    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def children_peak_mb() -> float:
    """The largest peak RSS of this process's ended children so far (the export's
    formatting processes): 0 when there were none."""
    import resource

    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


def steplab_export(project, label_source: str = "imported") -> Any:
    from labeling.services.exports.snapshots import export_build, export_create

    export = export_create(
        project=project, created_by=None, format="trl", filters={"label_source": label_source}
    )
    export = export_build(export=export)
    assert export.status == "done", export.error
    return export


def copy_baseline(project) -> tuple[int, int]:
    """COPY of the same rows the TRL export reads; returns (bytes, lines)."""
    from django.db import connection

    sql = f"""
        COPY (
            SELECT p.text, s.id, st.index, st.text, sl.rating
            FROM labeling_solution s
            JOIN labeling_problem p ON p.id = s.problem_id
            JOIN labeling_step st ON st.solution_id = s.id
            JOIN labeling_annotation a
              ON a.solution_id = s.id AND a.status = 'submitted' AND a.imported
            LEFT JOIN labeling_steplabel sl ON sl.annotation_id = a.id AND sl.step_id = st.id
            WHERE s.project_id = {int(project.pk)}
            ORDER BY p.external_id COLLATE "C", p.id, s.external_id COLLATE "C", s.id, st.index
        ) TO STDOUT
    """
    size = lines = 0
    with connection.cursor() as cursor, cursor.cursor.copy(sql) as copy:
        for block in copy:
            size += len(block)
            lines += bytes(block).count(b"\n")
    return size, lines


def drf_baseline(project, limit: int, path: Path) -> int:
    """A nested ModelSerializer over a prefetched queryset: the one-request export."""
    from django.db.models import Prefetch
    from rest_framework import serializers

    from labeling.models import Problem, Solution, Step, StepLabel

    class LabelSerializer(serializers.ModelSerializer):
        class Meta:
            model = StepLabel
            fields = ["rating", "unsure"]

    class StepSerializer(serializers.ModelSerializer):
        labels = LabelSerializer(many=True)

        class Meta:
            model = Step
            fields = ["index", "text", "labels"]

    class ProblemSerializer(serializers.ModelSerializer):
        class Meta:
            model = Problem
            fields = ["text", "external_id"]

    class SolutionSerializer(serializers.ModelSerializer):
        problem = ProblemSerializer()
        steps = StepSerializer(many=True)

        class Meta:
            model = Solution
            fields = ["id", "external_id", "problem", "steps"]

    qs = (
        Solution.objects.filter(project=project)
        .select_related("problem")
        .prefetch_related(
            Prefetch("steps", queryset=Step.objects.order_by("index")),
            Prefetch("steps__labels", queryset=StepLabel.objects.filter(annotation__imported=True)),
        )
        .order_by("problem__external_id", "problem_id", "external_id", "id")[:limit]
    )
    rows = 0
    with open(path, "w", encoding="utf-8") as f:
        for item in SolutionSerializer(qs, many=True).data:
            completions, labels = [], []
            for step in item["steps"]:
                rating = step["labels"][0]["rating"] if step["labels"] else None
                if rating is None:
                    break
                completions.append(step["text"])
                labels.append(rating >= 0)
                if rating < 0:
                    break
            if completions:
                row = {"prompt": item["problem"]["text"], "completions": completions}
                f.write(json.dumps({**row, "labels": labels}, ensure_ascii=False) + "\n")
                rows += 1
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=100_000, help="solutions in the big project")
    parser.add_argument("--baseline-n", type=int, default=10_000, help="solutions, DRF way")
    parser.add_argument(
        "--db",
        default="steplab_export_bench",
        help="name of the throwaway PostgreSQL database (created, then dropped)",
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="export then COPY this many times, interleaved (the machine's load moves both)",
    )
    parser.add_argument(
        "--no-final", action="store_true", help="skip the label_source=final export"
    )
    parser.add_argument(
        "--keep",
        action="store_true",
        help="keep the database afterwards, and reuse it when a kept one of this --n is there",
    )
    args = parser.parse_args()

    media = tempfile.TemporaryDirectory(prefix="steplab-bench-media-")
    os.environ["MEDIA_ROOT"] = media.name
    # Its own build directory: the export leftovers sweep of any other database's worker or
    # tests on this machine removes the steplab-export-* directories of the shared temp
    # directory that its database has no running build for (a 1M build lost its file so).
    os.environ["EXPORT_TMP_DIR"] = media.name
    reused = args.keep and harness.kept_database(args.db)
    if reused:
        where, cleanup = harness.django_on_kept_database(args.db)
    else:
        where, cleanup = harness.django_on_throwaway_database(args.db)
        if args.keep:
            where = where.replace("dropped afterwards", "kept afterwards: --keep")
    from django.db import connection

    from labeling.models import Step

    try:
        harness.migrate(where)
        print(harness.load_line())
        with tempfile.TemporaryDirectory() as tmp:
            big, small = (
                _projects()
                if reused
                else _build(args.n, Path(tmp), postgres=connection.vendor == "postgresql")
            )
            steps = Step.objects.filter(solution__project=big).count()
            assert big.solutions.count() == args.n, "the kept database has another --n"
            print(f"{args.n} + {args.n // 10} solutions, {steps} steps in the big one")
            # 1. steplab, small then big: compare their memory growth.
            small_export, small_s, small_rss = timed(lambda: steplab_export(small))
            small_child_mb = children_peak_mb()
            for round_ in range(1, args.rounds + 1):
                if args.rounds > 1:
                    print(f"round {round_} of {args.rounds}: {harness.load_line()}")
                export, elapsed, rss = timed(lambda: steplab_export(big))
                _drop_file(export)
                rate = export.row_count / elapsed
                print(
                    f"steplab export_build (TRL JSONL): {export.row_count} rows, "
                    f"{export.step_count} steps, {export.size_bytes / 1e6:.0f} MB in "
                    f"{elapsed:.1f} s = {rate:,.0f} rows/s "
                    f"({export.step_count / elapsed:,.0f} steps/s), {rss.cpu:.2f} s of CPU "
                    f"(EXPORT_FORMAT_PROCESS={os.environ.get('EXPORT_FORMAT_PROCESS', 'auto')})"
                )
                print(
                    f"  peak RSS growth: {rss.growth_mb:.0f} MB for {export.row_count} rows, "
                    f"{small_rss.growth_mb:.0f} MB for {small_export.row_count} rows "
                    f"(process peak {rss.peak / 2**20:.0f} MB)"
                )
                if child_mb := children_peak_mb():
                    print(
                        f"  formatting process (labeling/exporters/process.py), peak RSS: "
                        f"{small_child_mb:.0f} MB after the small export, {child_mb:.0f} MB "
                        "after this one (shared pages of the fork included)"
                    )

                # 1b. The default label source, final labels (exporters/final.py), on the
                # same rows: two more queries a chunk (resolutions, none here) and the
                # per-step rule.
                if round_ == 1 and not args.no_final:
                    final, final_s, final_rss = timed(lambda: steplab_export(big, "final"))
                    _drop_file(final)
                    assert final.row_count == export.row_count
                    print(
                        f"  label_source=final (the default): {final_s:.1f} s = "
                        f"{final.row_count / final_s:,.0f} rows/s, "
                        f"{elapsed / final_s:.2f} of imported's rate, "
                        f"{final_rss.cpu:.2f} s of CPU"
                    )

                # 2. COPY of the same rows.
                if connection.vendor == "postgresql":
                    (size, lines), copy_s, copy_rss = timed(lambda: copy_baseline(big))
                    copy_rate = args.n / copy_s
                    print(
                        f"COPY (SELECT ...) TO STDOUT: {lines} step rows, {size / 1e6:.0f} MB "
                        f"in {copy_s:.1f} s = {copy_rate:,.0f} solutions/s"
                    )
                    print(f"  steplab / COPY: {rate / copy_rate:.2f} of the physical limit")
                else:
                    print("COPY baseline: PostgreSQL only (set DATABASE_URL)")
            print(harness.load_line())

            # 3. DRF ModelSerializer on a subset, extrapolated.
            limit = min(args.baseline_n, args.n)
            drf_rows, drf_s, drf_rss = timed(lambda: drf_baseline(big, limit, Path(tmp) / "d"))
            drf_rate = limit / drf_s
            print(
                f"DRF ModelSerializer (nested, prefetched): {limit} solutions, {drf_rows} rows "
                f"in {drf_s:.1f} s = {drf_rate:,.0f} solutions/s, peak RSS growth "
                f"{drf_rss.growth_mb:.0f} MB (extrapolated to {args.n}: "
                f"{args.n / drf_rate:,.0f} s)"
            )
            print(f"  steplab / DRF: {rate / drf_rate:.1f}x faster")
    finally:
        harness.finish(cleanup, keep=args.keep, db=args.db)
        media.cleanup()


def _build(n: int, tmp: Path, *, postgres: bool) -> tuple[Any, Any]:
    """The big project of n solutions and the small one of its first n/10, imported with
    their labels as imported annotations (the file is written and read as a stream)."""
    from django.db import connection

    from labeling.models import Project
    from labeling.services.imports import import_file

    big_file, small_file = Path(tmp) / "big.jsonl", Path(tmp) / "small.jsonl"
    import_bench.write_file(big_file, n)
    with open(big_file, encoding="utf-8") as src, open(small_file, "w") as dst:
        for _, line in zip(range(n // 10), src, strict=False):
            dst.write(line)
    started = time.perf_counter()
    big = Project.objects.create(name="bench: big")
    small = Project.objects.create(name="bench: small")
    import_file(project=big, path=big_file, labels_as="annotations")
    import_file(project=small, path=small_file, labels_as="annotations")
    if postgres:
        # Fresh bulk-loaded tables have no planner statistics until autovacuum gets
        # to them; a live database has them. Without, IN lookups plan as seq scans.
        # VACUUM too, as autovacuum would: the first read of freshly written rows sets
        # their hint bits (writing the pages), a cost that would fall on whichever of
        # export_build and COPY ran first.
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")
    print(
        f"set up {n} + {n // 10} solutions with imported annotations in "
        f"{time.perf_counter() - started:.0f} s"
    )
    return big, small


def _projects() -> tuple[Any, Any]:
    """The kept database's two projects."""
    from labeling.models import Project

    return Project.objects.get(name="bench: big"), Project.objects.get(name="bench: small")


def _drop_file(export: Any) -> None:
    """The export's file, written to MEDIA_ROOT: at a million solutions several GB each."""
    if export.file:
        export.file.delete(save=False)


if __name__ == "__main__":
    main()
