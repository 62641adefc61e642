"""Throughput and each rater's label distribution: what the project's annotators did.

On PostgreSQL both come from one statement: each submitted annotation once, its labels
counted by one join grouped per annotation, then GROUPING SETS per annotator, per day and per
annotator and day (sums, PERCENTILE_CONT medians). It replaced seven statements (three GROUP
BYs and three medians, each counting every annotation's rated labels in a subquery, and the
distribution's own pass over the labels) that a small project's dashboard paid on every load.
SQLite, without GROUPING SETS or PERCENTILE_CONT, runs them apart.
"""

from collections import defaultdict
from statistics import median

from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import Count, OuterRef, Q, QuerySet, Subquery, Sum
from django.db.models.functions import Coalesce, TruncDate

from labeling.models import Annotation, AnnotationStatus, Project, StepLabel

from .selection import _rater, submitted_annotations

# Each breakdown's name and the keys it groups by; GROUPING(rater, day) of each of its rows.
_BREAKDOWNS = (
    ("by_annotator", ("rater",), 1),
    ("by_day", ("day",), 2),
    ("by_annotator_day", ("rater", "day"), 0),
)
_RATINGS = (("wrong", -1), ("neutral", 0), ("correct", 1))
_DISTRIBUTION = ("wrong", "neutral", "correct", "unrated", "unsure")


def _rates(row: dict, med: float | None) -> dict:
    hours = (row["time_ms"] or 0) / 3_600_000
    return {
        "solutions": row["solutions"],
        "steps": row["steps"],
        "hours": round(hours, 4),
        "solutions_per_hour": row["solutions"] / hours if hours else None,
        "steps_per_hour": row["steps"] / hours if hours else None,
        "median_seconds_per_solution": med / 1000 if med is not None else None,
    }


def _throughput_out(grouped: dict[str, list[dict]]) -> dict:
    out = {}
    for name, keys, _ in _BREAKDOWNS:
        out[name] = sorted(
            (
                {
                    **{("annotator" if k == "rater" else k): row[k] for k in keys},
                    **_rates(row, row["med"]),
                }
                for row in grouped[name]
            ),
            key=lambda r: tuple(str(r.get(k, "")) for k in ("annotator", "day")),
        )
    return out


def _per_annotation(project: Project) -> QuerySet[Annotation]:
    """Each submitted annotation once: its rater, day, time and its labels counted."""
    labels = {name: Count("labels", filter=Q(labels__rating=v)) for name, v in _RATINGS}
    return (
        submitted_annotations(project)
        .annotate(
            rater=_rater(),
            day=TruncDate("submitted_at"),
            rated=Count("labels", filter=Q(labels__rating__isnull=False)),
            unrated=Count("labels", filter=Q(labels__rating__isnull=True)),
            unsure=Count("labels", filter=Q(labels__unsure=True)),
            labeled=Count("labels"),
            **labels,
        )
        .values("rater", "day", "submitted_at", "time_spent_ms", "rated", "labeled", *_DISTRIBUTION)
    )


def _activity_in_sql(project: Project) -> dict:
    sql, params = _per_annotation(project).query.sql_with_params()
    return _activity_grouped(sql, params)


def activity_from_parts(project: Project) -> dict:
    """activity() from the project's stored per-annotation rows (MetricsAnnotationPart, kept
    by services/projects/metrics_parts.py): the same statement over one row per submitted
    annotation instead of the annotations joined to their labels; the rater named now."""
    users = get_user_model()._meta.db_table
    sql = (
        "SELECT COALESCE(u.username, p.external_annotator) AS rater, p.day, p.submitted_at,"
        f" p.time_spent_ms, p.rated, p.labeled, {', '.join(f'p.{c}' for c in _DISTRIBUTION)}"
        f" FROM labeling_metricsannotationpart p LEFT JOIN {users} u ON u.id = p.annotator_id"
        " WHERE p.project_id = %s"
    )
    return _activity_grouped(sql, [project.pk])


def _activity_grouped(sql: str, params: list) -> dict:
    """Throughput and distribution from a per-annotation selection `sql` (rater, day,
    submitted_at, time_spent_ms, rated, labeled and the _DISTRIBUTION counts)."""
    timed = "FILTER (WHERE submitted_at IS NOT NULL)"  # throughput counts submission times
    sums = ", ".join(f"SUM({name})::bigint" for name in (*_DISTRIBUTION, "labeled"))
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT GROUPING(rater, day), rater, day, COUNT(*) {timed}, "
            f"(SUM(rated) {timed})::bigint, (SUM(time_spent_ms) {timed})::bigint, "
            f"PERCENTILE_CONT(0.5) WITHIN GROUP (ORDER BY time_spent_ms) {timed}, {sums} "
            f"FROM ({sql}) AS per_annotation GROUP BY GROUPING SETS ((rater), (day), (rater, day))",
            params,
        )
        rows = cursor.fetchall()
    grouped: dict[int, list[dict]] = defaultdict(list)
    distribution = []
    for mask, rater, day, solutions, steps, time_ms, med, *counts, labeled in rows:
        if solutions:  # an annotator or day with a submission time
            grouped[mask].append(
                {"rater": rater, "day": day, "solutions": solutions, "steps": steps}
                | {"time_ms": time_ms, "med": med}
            )
        if mask == 1 and labeled:  # a rater with labels
            distribution.append(
                {"annotator": rater, **dict(zip(_DISTRIBUTION, counts, strict=True))}
            )
    return {
        "throughput": _throughput_out({name: grouped[mask] for name, _, mask in _BREAKDOWNS}),
        "label_distribution": sorted(distribution, key=lambda r: r["annotator"]),
    }


def _median_times(qs: QuerySet[Annotation], keys: tuple[str, ...]) -> dict[tuple, float]:
    """Median time per group without PERCENTILE_CONT: one integer per annotation, no labels."""
    times: dict[tuple, list[int]] = defaultdict(list)
    for row in qs.values(*keys, "time_spent_ms"):
        times[tuple(row[k] for k in keys)].append(row["time_spent_ms"])
    return {key: float(median(v)) for key, v in times.items()}


def _activity_apart(project: Project) -> dict:
    """_activity_in_sql for a database without GROUPING SETS and PERCENTILE_CONT (SQLite)."""
    base = submitted_annotations(project).filter(submitted_at__isnull=False)
    rated = StepLabel.objects.filter(annotation_id=OuterRef("pk"), rating__isnull=False)
    annotated = base.annotate(
        rater=_rater(),
        day=TruncDate("submitted_at"),
        rated_steps=Coalesce(
            Subquery(rated.order_by().values("annotation_id").annotate(c=Count("id")).values("c")),
            0,
        ),
    )
    grouped = {}
    for name, keys, _ in _BREAKDOWNS:
        rows = annotated.values(*keys).annotate(
            solutions=Count("id"), steps=Sum("rated_steps"), time_ms=Sum("time_spent_ms")
        )
        medians = _median_times(annotated, keys)
        grouped[name] = [{**row, "med": medians.get(tuple(row[k] for k in keys))} for row in rows]
    rows = (
        StepLabel.objects.filter(
            annotation__solution__project=project, annotation__status=AnnotationStatus.SUBMITTED
        )
        .order_by()
        .annotate(rater=_rater("annotation__"))
        .values("rater")
        .annotate(
            **{name: Count("id", filter=Q(rating=v)) for name, v in _RATINGS},
            unrated=Count("id", filter=Q(rating__isnull=True)),
            unsure=Count("id", filter=Q(unsure=True)),
        )
    )
    distribution = ({"annotator": r.pop("rater"), **r} for r in rows)
    return {
        "throughput": _throughput_out(grouped),
        "label_distribution": sorted(distribution, key=lambda r: r["annotator"]),
    }


def activity(project: Project) -> dict:
    """`throughput` and `label_distribution` together (one statement on PostgreSQL)."""
    if connection.vendor == "postgresql":
        return _activity_in_sql(project)
    return _activity_apart(project)


def throughput(project: Project) -> dict:
    """Solutions and steps per hour of labeling time and median time per solution, per
    annotator, per day (of submission) and per annotator and day. Time is the annotation's
    `time_spent_ms`; steps are rated steps."""
    return activity(project)["throughput"]


def label_distribution(project: Project) -> list[dict]:
    """Per rater: how many steps they rated −1 / 0 / +1 and left unrated or marked unsure."""
    return activity(project)["label_distribution"]
