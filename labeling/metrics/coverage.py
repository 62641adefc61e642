"""How many annotators each solution has, and each annotator's own totals.

Agreement needs two raters: the agreement metrics (queries.py) only read steps and solutions
with two or more submitted ratings, and `annotation_coverage` counts the rest apart, so a
project labeled once per solution shows "1 annotator" coverage, never agreement.
"""

from collections import defaultdict

from django.db import connection
from django.db.models import Count, Q, Sum

from labeling.models import Annotation, AnnotationStatus, Project, Solution

from .queries import Confusions, _rater, rater_pair_confusions, submitted_annotations


def annotation_coverage(project: Project) -> dict:
    """Solutions with 0, 1 and 2+ submitted annotations (imported ones count)."""
    per_solution = submitted_annotations(project).values("solution_id").annotate(n=Count("id"))
    sql, params = per_solution.query.sql_with_params()
    solutions = Solution.objects.filter(project=project).values("pk")
    total_sql, total_params = solutions.query.sql_with_params()
    with connection.cursor() as cursor:  # one statement: it was three
        cursor.execute(
            "SELECT COUNT(*) FILTER (WHERE n = 1), COUNT(*) FILTER (WHERE n >= 2), "
            f"(SELECT COUNT(*) FROM ({total_sql}) AS solutions) FROM ({sql}) AS per_solution",
            (*total_params, *params),
        )
        one, many, total = cursor.fetchone()
    return {"solutions": total, "none": total - one - many, "one": one, "two_plus": many}


def annotator_totals(project: Project, confusions: Confusions | None = None) -> list[dict]:
    """Per rater, their own numbers: submitted and skipped annotations, labeling hours, and
    their step agreement with the others on the steps they both rated (None: no shared step).
    `confusions`: rater_pair_confusions' answer when the caller has it.
    """
    if confusions is None:
        confusions = rater_pair_confusions(project)
    rows = (
        Annotation.objects.filter(solution__project=project)
        .order_by()
        .annotate(rater=_rater())
        .exclude(rater__isnull=True)
        .values("rater")
        .annotate(
            submitted=Count("id", filter=Q(status=AnnotationStatus.SUBMITTED)),
            skipped=Count("id", filter=Q(status=AnnotationStatus.DISCARDED)),
            time_ms=Sum("time_spent_ms", filter=Q(status=AnnotationStatus.SUBMITTED)),
        )
    )
    shared: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])  # [agreeing, steps]
    for (a, b), matrix in confusions.items():
        for rater in (a, b):
            shared[rater][0] += float(matrix.trace())
            shared[rater][1] += float(matrix.sum())
    out = []
    for row in rows:
        if not row["submitted"] and not row["skipped"]:
            continue  # drafts only: nothing of theirs to count yet
        agreeing, steps = shared.get(row["rater"], (0.0, 0.0))
        out.append(
            {
                "annotator": row["rater"],
                "submitted": row["submitted"],
                "skipped": row["skipped"],
                "hours": round((row["time_ms"] or 0) / 3_600_000, 4),
                "shared_steps": int(steps),
                "agreement": agreeing / steps if steps else None,
            }
        )
    return sorted(out, key=lambda r: r["annotator"])
