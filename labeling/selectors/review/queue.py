"""The review queue: solutions with submitted labels, most in need of review first, its
filters and per-reason counts, and who can be filtered by."""

from datetime import datetime

from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import Count, F, Max, OuterRef, QuerySet, Subquery

from labeling.models import (
    Annotation,
    AnnotationStatus,
    Project,
    Resolution,
    Solution,
    problem_domains_matching,
)
from labeling.pg.compiled import compile_once

from .reasons import REASON_BITS, REASONS, masks_with, reason_conditions, reasons_mask

QUEUE_STATES = ("unresolved", "resolved", "all")
# The queue's counts stop here ("1,000+"): counting every queued solution of a large project
# is what made a page load grow with it (bench/scale_bench.py).
COUNT_CAP = 1_000


def with_review_reasons(
    qs: QuerySet[Solution], *, scope: dict, stored: bool = False
) -> QuerySet[Solution]:
    """Annotate solutions with `reasons`, a bit mask (REASON_BITS), and queue columns.

    `stored`: read Solution.review_reasons instead of computing the mask over `scope`.
    """
    submitted = Annotation.objects.filter(
        solution_id=OuterRef("pk"), status=AnnotationStatus.SUBMITTED
    ).order_by()
    current = Resolution.objects.filter(solution_id=OuterRef("pk"), is_current=True)
    return qs.annotate(
        reasons=F("review_reasons") if stored else reasons_mask(scope),
        annotations_submitted=Subquery(
            submitted.values("solution_id").annotate(n=Count("*")).values("n")
        ),
        last_submitted_at=Subquery(
            submitted.values("solution_id").annotate(m=Max("submitted_at")).values("m")
        ),
        resolution_id=Subquery(current.values("pk")[:1]),
        resolution_provenance=Subquery(current.values("provenance")[:1]),
    )


def review_queue(
    *,
    project: Project,
    annotator_id: int | None = None,
    source: str | None = None,
    submitted_from: datetime | None = None,
    submitted_to: datetime | None = None,
    state: str = "unresolved",
    reason: str | None = None,
    domain: str | None = None,
) -> QuerySet[Solution]:
    """Solutions with submitted labels, most in need of review first.

    Order: disagreement (a step's ratings or the first-error index differ between submitted
    annotations), unsure steps, gold failures (a rated step or the first error differs from the
    gold label), human-vs-auto conflicts (a submitted +1 on a step a symbolic check refuted),
    then the rest; oldest solution first within each. `state`: unresolved (no current
    resolution, default), resolved or all. Filters: a submitting annotator, the problem's
    source, its domain (a many-domains project's), the submission time, one reason. The
    reasons are the stored ones when the project has `review_reasons_stored` (the same values,
    see the module docstring).
    """
    submitted = Annotation.objects.filter(
        solution_id=OuterRef("pk"), status=AnnotationStatus.SUBMITTED
    )
    if annotator_id is not None:
        submitted_by = submitted.filter(annotator_id=annotator_id)
    else:
        submitted_by = submitted
    if submitted_from is not None:
        submitted_by = submitted_by.filter(submitted_at__gte=submitted_from)
    if submitted_to is not None:
        submitted_by = submitted_by.filter(submitted_at__lt=submitted_to)
    stored = project.review_reasons_stored
    qs = Solution.objects.filter(project=project)
    if stored:
        # Solution.has_submission is stored beside the mask by the same statements, so "has a
        # submission" is a column, and the queue a walk of solution_queued_idx, which holds
        # only the solutions with one: no unlabeled solution is read or probed (before, the
        # mask-0 rows were probed one by one: bench/scale_bench.py).
        qs = qs.filter(has_submission=True)
    if not stored or submitted_by is not submitted:
        # Probed per row (a scalar subquery), like "unresolved" below: as an EXISTS the
        # planner gathers every submitted annotation's solution first (a hash over all of
        # them) before the first row of a page or a capped count.
        qs = qs.alias(submitted_id=Subquery(submitted_by.order_by().values("pk")[:1])).filter(
            submitted_id__isnull=False
        )
    if source:
        qs = qs.filter(problem__source=source)
    if domain:  # the problem's domain: its own, else (blank) the project's default
        qs = qs.filter(problem__domain__in=problem_domains_matching(project, domain))
    current = Resolution.objects.filter(solution_id=OuterRef("pk"), is_current=True)
    if state in ("unresolved", "resolved"):
        # "(No) current resolution" as a per-row probe too, not (NOT) EXISTS: the planner
        # turns that into an anti or semi join that hashes every resolution of the table
        # first, where a page or a capped count needs a few hundred probes
        # (bench/scale_bench.py: the resolved state's capped counts at 1M, 137-194 ms each).
        qs = qs.alias(current_id=Subquery(current.order_by().values("pk")[:1])).filter(
            current_id__isnull=state == "unresolved"
        )
    qs = with_review_reasons(
        qs.select_related("problem"), scope={"project": project}, stored=stored
    )
    if stored:
        if reason in REASONS or reason == "rest":
            masks = masks_with(reason)
            if masks == list(range(masks[0], masks[-1] + 1)):
                # One range of the index ("rest": 0, disagreement: the top half), walked in
                # the queue's order; a list of masks is read whole and sorted.
                qs = qs.filter(review_reasons__range=(masks[0], masks[-1]))
            else:
                qs = qs.filter(review_reasons__in=masks)
        return qs.order_by("-reasons", "id")
    conditions = reason_conditions({"project": project})
    if reason in REASONS:
        qs = qs.filter(conditions[reason])
    elif reason == "rest":
        for condition in conditions.values():
            qs = qs.exclude(condition)
    return qs.order_by("-reasons", "id")


def review_queue_counts(*, project: Project, state: str = "unresolved") -> dict[str, int]:
    """How many queued solutions have each reason (one solution can count under several).

    One GROUP BY over the reason mask: at most 2^len(REASONS) rows.
    """
    rows = (
        review_queue(project=project, state=state)
        .order_by()
        .values("reasons")
        .annotate(n=Count("id"))
        .values_list("reasons", "n")
    )
    counts = {"total": 0, **{name: 0 for name in REASONS}, "rest": 0}
    for mask, n in rows:
        counts["total"] += n
        for name, bit in REASON_BITS.items():
            if mask & bit:
                counts[name] += n
        if not mask:
            counts["rest"] += n
    return counts


def review_queue_counts_bounded(
    *,
    project: Project,
    state: str = "unresolved",
    cap: int = COUNT_CAP,
    total: tuple[int, bool] | None = None,
) -> tuple[dict[str, int], list[str]]:
    """review_queue_counts counted up to `cap` each: (counts, the names that reached the cap,
    whose count reads "cap or more").

    Each count is its own `LIMIT cap + 1` walk of the stored reasons' index
    (solution_queued_idx), so a page costs the same at a million solutions as at ten thousand;
    the exact GROUP BY reads every queued solution. All of them are one statement, built once
    per state (labeling.pg.compiled): building the seven querysets cost more CPU than running
    them. `total`: the unfiltered queue's count_capped at this `cap`, when the caller has it
    (the page's own count), so it is not walked twice. A project whose reasons are computed
    live (not `review_reasons_stored`: made before the column) keeps the exact counts.

    "rest" (no stored reason, a submission) is a range of solution_queued_idx like the others:
    the unlabeled solutions, mask 0 too, are not in that index, so its walk reads only what it
    counts (tests/review/test_queue_plans.py).
    """
    if not project.review_reasons_stored:
        return review_queue_counts(project=project, state=state), []
    names = [name for name in _COUNTED if not (name == "total" and total is not None)]
    statement = compile_once(
        ("review queue counts", state, cap, tuple(names)),
        lambda stand_ins: _counts_sql(stand_ins["project"], state, cap, names),
        ints=("project",),
    )
    with connection.cursor() as cursor:  # planned per call, like every reasons statement
        statement.execute(cursor, {"project": project.pk})
        row = cursor.fetchone()
    found = dict(zip(names, row, strict=True))
    if total is not None:
        found["total"] = total[0] + (1 if total[1] else 0)
    counts = {name: min(found[name], cap) for name in _COUNTED}
    return counts, [name for name in _COUNTED if found[name] > cap]


_COUNTED = ("total", *REASONS, "rest")


def _counts_sql(project_id: int, state: str, cap: int, names: list[str]) -> tuple[str, list]:
    """One SELECT of a scalar subquery per count, each `review_queue`'s own capped walk."""
    project = Project(pk=project_id, review_reasons_stored=True)
    parts, params = [], []
    for name in names:
        qs = review_queue(project=project, state=state, reason=None if name == "total" else name)
        if name in REASONS:  # a list of masks: unordered, the index scan stops at the cap
            qs = qs.order_by()
        sql, part_params = qs.values("pk")[: cap + 1].query.sql_with_params()
        parts.append(f"(SELECT COUNT(*) FROM ({sql}) AS counted_{len(parts)})")
        params.extend(part_params)
    return f"SELECT {', '.join(parts)}", params


def count_capped(qs: QuerySet, *, cap: int = COUNT_CAP) -> tuple[int, bool]:
    """How many rows `qs` has, counting at most `cap`: (count, whether more match).

    In `qs`'s own order: the walk of the index that serves a page serves the count too (the
    planner left to itself may scan the table and discard the rows that do not match)."""
    n = qs.values("pk")[: cap + 1].count()
    return min(n, cap), n > cap


def review_annotator_list(*, project: Project) -> list[dict]:
    """The people whose submitted (or rejected) annotations the queue can be filtered by.

    Per user, the first such annotation (a walk of annotation_annotator_idx that stops at the
    first match: bounded by that user's own annotations), rather than a DISTINCT over every
    annotation of the project; a scalar subquery, since an EXISTS becomes a semi join that
    reads them all."""
    done = Annotation.objects.filter(
        annotator_id=OuterRef("pk"),
        solution__project=project,
        status__in=[AnnotationStatus.SUBMITTED, AnnotationStatus.REJECTED],
    ).order_by("status")  # annotation_annotator_idx's order: the planner walks it, no seq scan
    rows = (
        get_user_model()
        .objects.alias(done_id=Subquery(done.values("pk")[:1]))
        .filter(done_id__isnull=False)
        .order_by("username")
        .values_list("pk", "username")
    )
    return [{"id": user_id, "username": username} for user_id, username in rows]
