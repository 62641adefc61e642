"""The stored review reasons of many solutions at once: set-based, in bounded id ranges.

`review_reasons_refresh` computes one solution's mask (or a few) with the live queue's
expression (`labeling.selectors.review.reasons_mask`): a dozen subqueries, some correlated per
annotation. Over a whole project that one UPDATE ran for more than half an hour at a million
solutions (bench/review_fill_bench.py), in one transaction holding every row's lock. Here the
same reasons come from one statement per id range that reads each table once for the range:

- the range's submitted annotations (with their solution's gold flag);
- their step labels (by annotation), each joined to its step among the range's steps (for the
  first error's index), the step's gold label and whether a machine suggestion refutes the
  step: one row per label, grouped twice, by step (a step whose ratings differ) and by
  annotation (first error, unsure, gold mismatch, a +1 on a refuted step);
- the gold solutions' gold first error;

then the per-annotation rows grouped by solution, and every solution of the range that changed
gets its new mask and "has a submission" marker (Solution.has_submission).
tests/review/test_reasons_fill.py compares the masks with the per-solution refresh and the live
queue on a project with every reason.

`review_reasons_fill` walks a project in ranges of `batch` solutions (keyset on the id), each in
its own short transaction that locks its rows first (as the refresh does: a submit racing on a
row waits for the range, then its own refresh reads the range's result), so it holds no long
lock, reports its progress, and resumes after the last id it reported (`after`).
"""

from collections.abc import Callable

from django.db import connection, transaction

from labeling.models import AnnotationStatus, Project
from labeling.pg.id_ranges import FillProgress, walk_ranges
from labeling.selectors.review import AUTO_CONFLICT_SOURCES, NO_ERROR, REASON_BITS
from labeling.services.projects.metrics_version import metrics_version_bump

BATCH = 20_000  # solutions per range (one transaction): about 1 s at a million on 2 cores
# A range's label rows are hashed and grouped in memory rather than spilled to disk.
WORK_MEM = "64MB"

_SOURCES = ", ".join(["%s"] * len(AUTO_CONFLICT_SOURCES))

# The range's labels, annotation by annotation through (annotation, step)'s index. On
# PostgreSQL a LATERAL subquery (OFFSET 0 keeps it one): as a plain join the planner, costing a
# range's 150k labels against the table, hashed every label of the table for each range (seq
# scans of steplabel and step in EXPLAIN at 100k): a fill quadratic in the project's size.
_LABELS = {
    "postgresql": """CROSS JOIN LATERAL (
        SELECT step_id, rating, unsure FROM labeling_steplabel
        WHERE annotation_id = ann.id OFFSET 0
    ) l""",
    "other": "JOIN labeling_steplabel l ON l.annotation_id = ann.id",
}

# Every table is read by the range's bounds (its ids, or its solutions' ids) through an index:
# a range costs the same at any project size (EXPLAIN: bench/review_fill_bench.py --explain).
# Parameters, in order: project, lo, hi, lo, hi (the annotations), lo, hi (the steps), the
# sources, project, lo, hi (the gold first errors), project, lo, hi (the solutions' masks),
# lo, hi (the rows written).
_RANGE_UPDATE = """
WITH ann AS (
    SELECT a.id, a.solution_id, s.is_gold
    FROM labeling_annotation a JOIN labeling_solution s ON s.id = a.solution_id
    WHERE s.project_id = %s AND s.id BETWEEN %s AND %s AND a.solution_id BETWEEN %s AND %s
        AND a.status = '{submitted}'
),
-- A label's step is a step of its annotation's solution (the services write labels only for
-- those): the range's steps are read by their solution id, not one lookup per label.
steps AS (
    SELECT id, "index" FROM labeling_step WHERE solution_id BETWEEN %s AND %s
),
lab AS (
    SELECT ann.solution_id, ann.id AS annotation_id, l.step_id, l.rating, l.unsure,
        st."index" AS step_index,
        CASE WHEN ann.is_gold AND g.rating IS NOT NULL AND l.rating IS NOT NULL
            AND l.rating <> g.rating THEN 1 ELSE 0 END AS gold_step,
        CASE WHEN l.rating = 1 AND EXISTS (
            SELECT 1 FROM labeling_suggestion sg
            WHERE sg.step_id = l.step_id AND sg.value = -1 AND sg.source IN ({sources})
        ) THEN 1 ELSE 0 END AS conflict
    FROM ann
    {labels}
    JOIN steps st ON st.id = l.step_id
    LEFT JOIN labeling_goldlabel g ON g.step_id = l.step_id
),
step_differs AS (
    SELECT DISTINCT solution_id FROM lab
    GROUP BY solution_id, step_id HAVING MIN(rating) < MAX(rating)
),
per_annotation AS (
    SELECT annotation_id,
        MIN(CASE WHEN rating = -1 THEN step_index END) AS first_error,
        MAX(CASE WHEN unsure THEN 1 ELSE 0 END) AS unsure,
        MAX(gold_step) AS gold_step,
        MAX(conflict) AS conflict
    FROM lab GROUP BY annotation_id
),
gold_first_error AS (
    SELECT st.solution_id, MIN(st."index") AS first_error
    FROM labeling_solution s
    JOIN labeling_step st ON st.solution_id = s.id
    JOIN labeling_goldlabel g ON g.step_id = st.id
    WHERE s.project_id = %s AND s.id BETWEEN %s AND %s AND s.is_gold AND g.rating = -1
    GROUP BY st.solution_id
),
per_solution AS (
    SELECT ann.solution_id,
        COUNT(*) AS annotations,
        COUNT(DISTINCT COALESCE(pa.first_error, {no_error})) AS first_errors,
        MAX(COALESCE(pa.unsure, 0)) AS unsure,
        MAX(COALESCE(pa.gold_step, 0)) AS gold_step,
        MAX(CASE WHEN ann.is_gold AND COALESCE(pa.first_error, {no_error})
            <> COALESCE(gfe.first_error, {no_error}) THEN 1 ELSE 0 END) AS gold_first_error,
        MAX(COALESCE(pa.conflict, 0)) AS conflict
    FROM ann
    LEFT JOIN per_annotation pa ON pa.annotation_id = ann.id
    LEFT JOIN gold_first_error gfe ON gfe.solution_id = ann.solution_id
    GROUP BY ann.solution_id
),
masks AS (
    SELECT s.id,
        CASE WHEN sd.solution_id IS NOT NULL OR ps.first_errors > 1
            THEN {bit_disagreement} ELSE 0 END
        + CASE WHEN ps.unsure = 1 THEN {bit_unsure} ELSE 0 END
        + CASE WHEN ps.gold_step = 1 OR ps.gold_first_error = 1
            THEN {bit_gold_failure} ELSE 0 END
        + CASE WHEN ps.conflict = 1 THEN {bit_auto_conflict} ELSE 0 END
        + CASE WHEN ps.annotations = 1 THEN {bit_single_annotator} ELSE 0 END
        AS mask,
        ps.solution_id IS NOT NULL AS submitted
    FROM labeling_solution s
    LEFT JOIN per_solution ps ON ps.solution_id = s.id
    LEFT JOIN step_differs sd ON sd.solution_id = s.id
    WHERE s.project_id = %s AND s.id BETWEEN %s AND %s
)
UPDATE labeling_solution SET review_reasons = masks.mask, has_submission = masks.submitted
FROM masks
WHERE labeling_solution.id = masks.id
    AND (labeling_solution.review_reasons <> masks.mask
        OR labeling_solution.has_submission <> masks.submitted)
    AND labeling_solution.id BETWEEN %s AND %s
"""


def range_update_sql(vendor: str) -> str:
    """The range statement for a database vendor (parameters: `range_update_params`)."""
    return _RANGE_UPDATE.format(
        submitted=AnnotationStatus.SUBMITTED.value,
        sources=_SOURCES,
        labels=_LABELS.get(vendor, _LABELS["other"]),
        no_error=NO_ERROR,
        **{f"bit_{name}": bit for name, bit in REASON_BITS.items()},
    )


def range_update_params(project_id: int, lo: int, hi: int) -> list:
    scope = [project_id, lo, hi]
    return [*scope, lo, hi, lo, hi, *AUTO_CONFLICT_SOURCES, *scope, *scope, lo, hi]


def reasons_range_store(*, project_id: int, lo: int, hi: int) -> int:
    """Compute and store the masks of the project's solutions with lo <= id <= hi; the caller
    holds their row locks (in a transaction). Returns how many masks changed; when any did,
    the project's metrics version moves (the metrics' review progress reads the masks)."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(f"SET LOCAL work_mem = '{WORK_MEM}'")
        cursor.execute(range_update_sql(connection.vendor), range_update_params(project_id, lo, hi))
        changed = cursor.rowcount
        if changed < 0:
            cursor.execute("SELECT changes()")  # sqlite3 counts no rows for a WITH ... UPDATE
            changed = cursor.fetchone()[0]
    if changed:
        metrics_version_bump(project_id=project_id, labels=False)  # masks, not labels
    return changed


def _lock_range(project_id: int, lo: int, hi: int) -> int:
    """Lock the range's rows in id order (see review_reasons_refresh); returns how many."""
    with connection.cursor() as cursor:
        lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
        cursor.execute(
            "SELECT id FROM labeling_solution WHERE project_id = %s AND id BETWEEN %s AND %s "
            f"ORDER BY id{lock}",
            [project_id, lo, hi],
        )
        return len(cursor.fetchall())


def reasons_range_refresh(*, project_id: int, lo: int, hi: int) -> int:
    """Lock, compute and store one range in the caller's transaction; returns rows changed."""
    _lock_range(project_id, lo, hi)
    return reasons_range_store(project_id=project_id, lo=lo, hi=hi)


def _range_fill(project_id: int, lo: int, hi: int) -> tuple[int, int]:
    """One range (in the caller's transaction): (solutions locked and computed, changed)."""
    locked = _lock_range(project_id, lo, hi)
    return locked, reasons_range_store(project_id=project_id, lo=lo, hi=hi)


def review_reasons_fill(
    *,
    project: Project,
    batch: int = BATCH,
    after: int = 0,
    progress: Callable[[FillProgress], None] | None = None,
) -> int:
    """Compute every solution's stored reasons (those with ids above `after`: a fill stopped
    part way resumes there), range by range, then let the queue read them (the command
    `review_reasons_refresh` runs this for projects made before the column existed).
    Returns the solutions computed; `progress` gets the running totals after each range."""
    done = walk_ranges(
        project_id=project.pk,
        one_range=lambda lo, hi: _range_fill(project.pk, lo, hi),
        batch=batch,
        after=after,
        progress=progress,
    )
    with transaction.atomic():  # the review progress now reads the stored masks
        Project.objects.filter(pk=project.pk).update(review_reasons_stored=True)
        metrics_version_bump(project_id=project.pk, labels=False)
    project.review_reasons_stored = True
    return done.solutions
