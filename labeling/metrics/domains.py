"""A many-domains project's metrics per problem domain: progress (solutions done, started,
annotations) from two GROUP BYs, and agreement (step-rating alpha, first-error alpha) from
the same count-table queries as the project's totals, filtered to the domain's problems.

A domain is the problem's own (`Problem.domain`), else the project's default
(`Project.blank_domain`); "" gathers problems that name none in a project without a default.
"""

from collections import defaultdict
from typing import Protocol

from django.db.models import Count, F, Q

from labeling.models import Domain, Project, Solution
from labeling.rules.overlap import complete_q
from labeling.selectors.review import review_queue_counts

from .agreement import CoincidenceAccumulator
from .coverage import annotation_coverage, annotator_totals
from .queries import (
    Confusions,
    ProfileTable,
    first_error_agreement,
    project_metrics,
    rater_pair_confusions,
    step_rating_agreement,
    submitted_annotations,
)


class Partials(Protocol):
    """The label passes a caller already has (the partial aggregates,
    services/projects/metrics_parts.py): the rater-pair confusions, the step-rating profiles
    of the project (domain None) or of one problem domain, throughput and distribution."""

    def confusions(self) -> Confusions: ...

    def profiles(self, domain: str | None) -> ProfileTable: ...

    def activity(self) -> dict: ...

    def first_errors(self, domain: str | None) -> CoincidenceAccumulator: ...

    def source_agreement(self) -> list[dict]: ...

    def gold(self) -> list[dict]: ...

    def coverage(self) -> dict: ...


def project_metrics_by_domain(project: Project, partials: Partials | None = None) -> dict:
    """project_metrics plus `domains`: per problem domain in a many-domains project (empty
    for a project of one domain, whose totals are those numbers), `coverage` (solutions with
    0 / 1 / 2+ annotators) and `annotators` (each one's own totals). `partials`: the
    pair confusions, step-rating profiles, activity, first-error coincidences, agreement with
    machine sources and gold accuracy without their passes over the labels."""
    if partials is None:
        confusions = rater_pair_confusions(project)  # read once: pairs and annotators
        table = done = first_errors = sources = gold = None
    else:
        confusions, table = partials.confusions(), partials.profiles(None)
        done, first_errors = partials.activity(), partials.first_errors(None)
        sources, gold = partials.source_agreement(), partials.gold()
    data = project_metrics(project, confusions, table, done, first_errors, sources, gold)
    data["coverage"] = annotation_coverage(project) if partials is None else partials.coverage()
    data["annotators"] = annotator_totals(project, confusions)
    data["domains"] = per_domain(project, partials) if project.domain == Domain.MIXED else []
    data["review"] = review_progress(project)
    return data


def review_progress(project: Project) -> dict:
    """The review queue's exact counts, for the dashboard: per reason of the unresolved
    solutions, and the resolved ones. Exact because they are computed with the rest of the
    metrics (live for a small project, in the snapshot task for a large one), where the
    queue's own page counts stop at 1,000."""
    return {
        "unresolved": review_queue_counts(project=project, state="unresolved"),
        "resolved": review_queue_counts(project=project, state="resolved")["total"],
    }


def per_domain(project: Project, partials: Partials | None = None) -> list[dict]:
    """One row per problem domain present in the project, in name order."""
    solutions = (
        Solution.objects.filter(project=project, is_gold=False)
        .order_by()
        .values(domain=F("problem__domain"))
        .annotate(
            problems=Count("problem_id", distinct=True),
            solutions=Count("id"),
            started=Count("id", filter=Q(submitted_count__gt=0)),
            done=Count("id", filter=complete_q(project.overlap)),
        )
    )
    # A problem that names no domain is of the project's default (`blank_domain`), if any.
    annotations: dict[str, int] = defaultdict(int)
    for domain, n in (
        submitted_annotations(project)
        .values_list("solution__problem__domain")
        .annotate(n=Count("id"))
        .values_list("solution__problem__domain", "n")
    ):
        annotations[domain or project.blank_domain] += n
    merged: dict[str, dict] = {}
    for row in solutions:
        domain = row["domain"] or project.blank_domain
        into = merged.setdefault(domain, dict.fromkeys(row, 0) | {"domain": domain})
        for key in ("problems", "solutions", "started", "done"):
            into[key] += row[key]
    rows = []
    for domain, row in sorted(merged.items()):
        table = None if partials is None else partials.profiles(domain)
        steps = step_rating_agreement(project, domain, table)
        errors = None if partials is None else partials.first_errors(domain)
        first = first_error_agreement(project, domain, errors)
        rows.append(
            {
                **row,
                "annotations": annotations.get(domain, 0),
                "progress": row["done"] / row["solutions"] if row["solutions"] else None,
                "rated_steps": steps["steps"],
                "alpha_ordinal": steps["alpha_ordinal"],
                "pairwise_agreement": steps["pairwise_agreement"],
                "first_error_alpha": first["alpha_nominal"],
                "first_error_solutions": first["solutions"],
            }
        )
    return rows
