"""Which solutions and labels an export takes: the label source and filters as ORM
conditions (`annotation_q`, `suggestion_q`, `resolution_q`) and the solutions that have at
least one admitted label (`matching_solutions`)."""

from typing import Any

from django.db.models import Exists, OuterRef, Q, QuerySet

from labeling.models import (
    Annotation,
    AnnotationStatus,
    Project,
    Provenance,
    Resolution,
    Solution,
    Suggestion,
    blank_means,
)

from .options import Filters, LabelSource


def annotation_q(filters: Filters, prefix: str = "") -> Q:
    """The annotations the label source and filters admit (`prefix` for related lookups)."""

    def q(**lookups: Any) -> Q:
        return Q(**{prefix + key: value for key, value in lookups.items()})

    cond = q(status=AnnotationStatus.SUBMITTED)
    if filters.label_source == LabelSource.HUMAN:
        cond &= q(imported=False, annotator__isnull=False)
    elif filters.label_source == LabelSource.IMPORTED:
        cond &= q(imported=True)
    if filters.annotators:
        names = list(filters.annotators)
        cond &= q(annotator__username__in=names) | q(
            annotator__isnull=True, external_annotator__in=names
        )
    if filters.labeled_after:
        cond &= q(submitted_at__gte=filters.labeled_after)
    if filters.labeled_before:
        cond &= q(submitted_at__lt=filters.labeled_before)
    return cond


def auto_sources(filters: Filters) -> tuple[str, ...]:
    if filters.label_source == LabelSource.AUTO_CONSENSUS:
        return ("consensus",)
    return filters.auto_sources


# Sources whose verdicts carry their model's own score (autolabel/calibration/bins.py
# RAW_SCORE): it is a measured probability only once calibration mapped it.
MODEL_SCORED = ("rollout", "judge", "prm")


def suggestion_q(filters: Filters, prefix: str = "") -> Q:
    def q(**lookups: Any) -> Q:
        return Q(**{prefix + key: value for key, value in lookups.items()})

    # value None: evidence only ("checks out", "tests pass"), never a label.
    cond = q(source__in=list(auto_sources(filters)), value__isnull=False)
    if filters.min_score is not None:  # an unknown score (NULL) is not >= anything
        cond &= q(score__gte=filters.min_score)
        # A model's own estimate (a model never measured, or a row stored before
        # calibration) is not a measured probability: unknown, so left out as well.
        measured = q(evidence__calibration__has_key="right")
        cond &= ~q(source__in=MODEL_SCORED) | measured
    if filters.labeled_after:
        cond &= q(updated_at__gte=filters.labeled_after)
    if filters.labeled_before:
        cond &= q(updated_at__lt=filters.labeled_before)
    return cond


def resolution_q(filters: Filters) -> Q:
    """Current resolutions in the date range (the resolution's own time); for the final
    source, those machine sources agreed on only with `machine_labels`."""
    cond = Q(is_current=True)
    if filters.label_source == LabelSource.FINAL and not filters.machine_labels:
        cond &= ~Q(provenance=Provenance.AUTO_CONSENSUS)
    if filters.labeled_after:
        cond &= Q(created_at__gte=filters.labeled_after)
    if filters.labeled_before:
        cond &= Q(created_at__lt=filters.labeled_before)
    return cond


def candidate_solutions(*, project: Project, filters: Filters) -> QuerySet[Solution]:
    """The project's solutions the filters admit, labeled or not; gold questions only with
    `include_gold` (their labels are the reviewers' answer key)."""
    qs = Solution.objects.filter(project=project)
    if not filters.include_gold:
        qs = qs.filter(is_gold=False)
    if filters.problem_sources:
        qs = qs.filter(problem__source__in=list(filters.problem_sources))
    if filters.domains:  # a blank problem domain is the project's default
        blank = [""] if any(blank_means(project, d) for d in filters.domains) else []
        qs = qs.filter(problem__domain__in=[*filters.domains, *blank])
    return qs


def matching_solutions(*, project: Project, filters: Filters) -> QuerySet[Solution]:
    """candidate_solutions with at least one label the label source and filters admit."""
    qs = candidate_solutions(project=project, filters=filters)
    if filters.label_source == LabelSource.FINAL:
        resolved = Resolution.objects.filter(resolution_q(filters), solution_id=OuterRef("pk"))
        annotated = Annotation.objects.filter(annotation_q(filters), solution_id=OuterRef("pk"))
        labeled = Exists(resolved) | Exists(annotated)
        if filters.machine_labels:
            suggested = Suggestion.objects.filter(
                suggestion_q(filters), step__solution_id=OuterRef("pk")
            )
            labeled |= Exists(suggested)
        return qs.filter(labeled)
    if filters.label_source == LabelSource.REVIEWED:
        labels = Resolution.objects.filter(resolution_q(filters), solution_id=OuterRef("pk"))
    elif filters.label_source.uses_annotations:
        labels = Annotation.objects.filter(annotation_q(filters), solution_id=OuterRef("pk"))
    else:
        labels = Suggestion.objects.filter(suggestion_q(filters), step__solution_id=OuterRef("pk"))
    return qs.filter(Exists(labels))
