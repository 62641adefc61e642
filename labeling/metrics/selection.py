"""The rows every metric starts from: the project's submitted annotations and their rated
labels (imported ones included), and who a rater is (a person's username, else an imported
dataset's labeler, `external_annotator`)."""

from django.db.models import Q, QuerySet
from django.db.models.functions import Coalesce

from labeling.models import (
    Annotation,
    AnnotationStatus,
    Project,
    StepLabel,
    problem_domains_matching,
)

NO_ERROR = -1  # first-error "index" of an annotation without a wrong step


def _rater(prefix: str = "") -> Coalesce:
    return Coalesce(f"{prefix}annotator__username", f"{prefix}external_annotator")


def _in_domain(prefix: str, project: Project, domain: str | None) -> Q:
    """Rows of one problem domain (None: all), a problem that names none counted as the
    project's default (`blank_domain`); "" is problems that name none, of no default."""
    if domain is None:
        return Q()
    return Q(
        **{f"{prefix}solution__problem__domain__in": problem_domains_matching(project, domain)}
    )


def submitted_labels(project: Project, domain: str | None = None) -> QuerySet[StepLabel]:
    """Rated labels of submitted annotations in the project (imported ones included)."""
    return StepLabel.objects.filter(
        _in_domain("annotation__", project, domain),
        annotation__solution__project=project,
        annotation__status=AnnotationStatus.SUBMITTED,
        rating__isnull=False,
    ).order_by()


def submitted_annotations(project: Project, domain: str | None = None) -> QuerySet[Annotation]:
    return Annotation.objects.filter(
        _in_domain("", project, domain),
        solution__project=project,
        status=AnnotationStatus.SUBMITTED,
    ).order_by()
