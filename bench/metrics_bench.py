"""Agreement metrics: steplab's SQL aggregation against loading every label into Python.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres .venv/bin/python bench/metrics_bench.py
    .venv/bin/python bench/metrics_bench.py --n 5000          # SQLite, small

Builds N solutions from real problems and steps of shared/data (bench/import_bench.py's
generator, imported without labels), then three annotators' submitted labels on every step,
written by the database itself (INSERT ... SELECT): a per-step true rating with 20% noise per
annotator. Then, in this one process:

1. steplab: `step_rating_agreement` (Krippendorff's alpha ordinal, Fleiss' kappa), `rater_pairs`
   (Cohen's kappa per pair) and `first_error_agreement`, from SQL-grouped count tables.
2. The baseline one writes first: every submitted label as a row in Python (values_list, not
   even model instances), a raters × steps reliability matrix for `krippendorff.alpha`, and the
   same kappas and first-error agreement from it.

Prints time and peak RSS growth of each and their ratios, and checks both give the same
numbers. Runs on a throwaway database (PostgreSQL `--db`, default `steplab_metrics_bench`,
dropped afterwards; else a temporary SQLite file).
"""

import argparse
import sys
import time
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))
sys.path.insert(0, str(REPO))

import export_bench  # noqa: E402  (bench/ is not a package)

if __package__:  # imported as bench.<name> (tests, stream_bench)
    from . import harness
else:  # run as a script: bench/ is on sys.path
    import harness

RATERS = ("bench-a", "bench-b", "bench-c")


def _rand(vendor: str) -> str:
    return "random()" if vendor == "postgresql" else "((abs(random()) %% 1000000) / 1000000.0)"


def add_labels(project, users) -> int:
    """Three submitted annotations per solution and a label on every step, in SQL."""
    from django.db import connection

    rand = _rand(connection.vendor)
    user_ids = ", ".join(str(u.pk) for u in users)
    now = "now()" if connection.vendor == "postgresql" else "CURRENT_TIMESTAMP"
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
            WHERE s.project_id = %s AND u.id IN ({user_ids})
            """,
            [project.pk],
        )
        # A step's "true" rating from its id; each annotator keeps it 80% of the time.
        truth = (
            "(CASE WHEN (st.id * 7919) %% 100 < 12 THEN -1 "
            "WHEN (st.id * 7919) %% 100 < 22 THEN 0 ELSE 1 END)"
        )
        cursor.execute(
            f"""
            INSERT INTO labeling_steplabel (annotation_id, step_id, rating, unsure, comment,
                alternative_text)
            SELECT a.id, st.id,
                CASE WHEN {rand} < 0.8 THEN {truth}
                     ELSE CAST(floor({rand} * 3) AS INTEGER) - 1 END,
                false, '', ''
            FROM labeling_annotation a JOIN labeling_step st ON st.solution_id = a.solution_id
            JOIN labeling_solution s ON s.id = a.solution_id
            WHERE s.project_id = %s
            """,
            [project.pk],
        )
        cursor.execute(
            "UPDATE labeling_solution SET submitted_count = 3 WHERE project_id = %s", [project.pk]
        )
        cursor.execute(
            "SELECT COUNT(*) FROM labeling_steplabel l JOIN labeling_step st ON st.id = l.step_id "
            "JOIN labeling_solution s ON s.id = st.solution_id WHERE s.project_id = %s",
            [project.pk],
        )
        return cursor.fetchone()[0]


def steplab(project) -> dict:
    from labeling.metrics.queries import first_error_agreement, rater_pairs, step_rating_agreement

    return {
        "step_ratings": step_rating_agreement(project),
        "pairs": rater_pairs(project),
        "first_error": first_error_agreement(project),
    }


def load_everything(project) -> dict:
    """Every label into Python, then the same statistics from a reliability matrix."""
    import numpy as np

    from labeling.metrics.agreement import cohen_kappa, fleiss_kappa, krippendorff_alpha
    from labeling.models import StepLabel

    rows = list(
        StepLabel.objects.filter(
            annotation__solution__project=project, annotation__status="submitted"
        )
        .order_by()
        .values_list(
            "annotation__annotator__username",
            "annotation_id",
            "annotation__solution_id",
            "step_id",
            "step__index",
            "rating",
        )
    )
    raters = sorted({r[0] for r in rows})
    step_ids = sorted({r[3] for r in rows})
    column = {step_id: i for i, step_id in enumerate(step_ids)}
    matrix = np.full((len(raters), len(step_ids)), np.nan)
    first_error: dict[int, int] = {}
    solution_of: dict[int, int] = {}
    for rater, annotation_id, solution_id, step_id, index, rating in rows:
        if rating is not None:
            matrix[raters.index(rater), column[step_id]] = rating
        solution_of[annotation_id] = solution_id
        if rating == -1:
            first_error[annotation_id] = min(first_error.get(annotation_id, index), index)
    values = [-1, 0, 1]
    counts = np.stack([(matrix == v).sum(axis=0) for v in values], axis=1)
    rated = counts.sum(axis=1)
    alpha = krippendorff_alpha(counts, level="ordinal", value_domain=values)
    m = int(np.bincount(rated[rated >= 2].astype(int)).argmax())
    pairs = []
    for i in range(len(raters)):
        for j in range(i + 1, len(raters)):
            both = ~np.isnan(matrix[i]) & ~np.isnan(matrix[j])
            confusion = np.zeros((3, 3))
            np.add.at(
                confusion,
                (matrix[i, both].astype(int) + 1, matrix[j, both].astype(int) + 1),
                1,
            )
            pairs.append({"a": raters[i], "b": raters[j], "cohen_kappa": cohen_kappa(confusion)})
    per_solution: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    for annotation_id, solution_id in solution_of.items():
        per_solution[solution_id][first_error.get(annotation_id, -1)] += 1
    domain = sorted({fe for c in per_solution.values() for fe in c})
    fe_matrix = np.zeros((len(per_solution), len(domain)))
    for row, c in enumerate(per_solution.values()):
        for fe, n in c.items():
            fe_matrix[row, domain.index(fe)] = n
    return {
        "alpha_ordinal": alpha,
        "fleiss_kappa": fleiss_kappa(counts[rated == m]),
        "pairs": pairs,
        "first_error_alpha": krippendorff_alpha(fe_matrix, level="nominal", value_domain=domain),
        "labels_loaded": len(rows),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=100_000, help="solutions")
    parser.add_argument(
        "--db",
        default="steplab_metrics_bench",
        help="name of the throwaway PostgreSQL database (created, then dropped)",
    )
    args = parser.parse_args()

    where, cleanup = harness.django_on_throwaway_database(args.db)
    from django.contrib.auth import get_user_model

    import labeling.metrics.queries  # noqa: F401  (imported before timing either side)

    try:
        harness.migrate(where)
        started = time.perf_counter()
        project = harness.imported_project(n=args.n, name="bench: metrics", overlap=3)
        users = [get_user_model().objects.create(username=name) for name in RATERS]
        labels = add_labels(project, users)
        harness.analyze()
        print(
            f"set up {args.n} solutions x {len(RATERS)} annotators = {labels} labels "
            f"in {time.perf_counter() - started:.0f} s"
        )

        ours, ours_s, ours_rss = export_bench.timed(lambda: steplab(project))
        base, base_s, base_rss = export_bench.timed(lambda: load_everything(project))
        sr = ours["step_ratings"]
        print(
            f"steplab (SQL count tables): {ours_s:.2f} s, peak RSS growth "
            f"{ours_rss.growth_mb:.0f} MB; alpha {sr['alpha_ordinal']:.4f}, Fleiss "
            f"{sr['fleiss_kappa']:.4f} over {sr['steps']} steps, first-error alpha "
            f"{ours['first_error']['alpha_nominal']:.4f}"
        )
        print(
            f"baseline (all {base['labels_loaded']} labels into Python): {base_s:.2f} s, peak "
            f"RSS growth {base_rss.growth_mb:.0f} MB; alpha {base['alpha_ordinal']:.4f}"
        )
        print(
            f"ratio baseline / steplab: time {base_s / ours_s:.1f}x, peak memory growth "
            f"{base_rss.growth_mb / max(ours_rss.growth_mb, 1):.1f}x"
        )
        same = (
            abs(sr["alpha_ordinal"] - base["alpha_ordinal"]) < 1e-9
            and abs(sr["fleiss_kappa"] - base["fleiss_kappa"]) < 1e-9
            and abs(ours["first_error"]["alpha_nominal"] - base["first_error_alpha"]) < 1e-9
            and all(
                abs(a["cohen_kappa"] - b["cohen_kappa"]) < 1e-9
                for a, b in zip(ours["pairs"], base["pairs"], strict=True)
            )
        )
        print(f"same numbers both ways: {same}")
        if not same:
            raise SystemExit("steplab and the baseline disagree")
    finally:
        cleanup()


if __name__ == "__main__":
    main()
