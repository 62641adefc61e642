"""Reads for an annotator's own work in a project ("My work"): what they submitted or skipped,
newest first, and the last of it (the labeling page's Back)."""

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Exists, OuterRef, Q, QuerySet

from labeling.models import Annotation, AnnotationStatus, Project, Resolution

MY_WORK_STATUSES = (AnnotationStatus.SUBMITTED, AnnotationStatus.DISCARDED)
QUERY_MAX_LENGTH = 200  # the longest search a client may send (MyWorkListApi bounds it)


def my_work_list(
    *, project: Project, user: AbstractBaseUser, query: str = "", status: str | None = None
) -> QuerySet[Annotation]:
    """The user's submitted and skipped annotations in the project, newest first.

    A skip whose solution the user took up again (a draft or a submission of it now), or
    skipped again later, is left out: that later annotation is the item. `query`: words the
    problem's text contains (case insensitive, all of them); `status`: "submitted" or
    "skipped" only. Each row carries `problem_text` and `reviewed` (a current resolution
    rests on it)."""
    live_again = Annotation.objects.filter(
        solution_id=OuterRef("solution_id"),
        annotator_id=user.pk,
        status__in=[AnnotationStatus.DRAFT, AnnotationStatus.SUBMITTED],
    )
    skipped_again = Annotation.objects.filter(
        solution_id=OuterRef("solution_id"),
        annotator_id=user.pk,
        status=AnnotationStatus.DISCARDED,
        pk__gt=OuterRef("pk"),
    )
    qs = (
        Annotation.objects.filter(
            annotator_id=user.pk, solution__project=project, status__in=MY_WORK_STATUSES
        )
        .exclude(Q(status=AnnotationStatus.DISCARDED) & Exists(live_again))
        .exclude(Q(status=AnnotationStatus.DISCARDED) & Exists(skipped_again))
        .annotate(
            reviewed=Exists(Resolution.objects.filter(annotations=OuterRef("pk"), is_current=True))
        )
        .select_related("solution__problem")
        .only(
            "id",
            "solution_id",
            "status",
            "finish_reason",
            "updated_at",
            "submitted_at",
            "solution__problem__text",
            "solution__problem__source",
        )
        .order_by("-updated_at", "-id")
    )
    if status == "submitted":
        qs = qs.filter(status=AnnotationStatus.SUBMITTED)
    elif status == "skipped":
        qs = qs.filter(status=AnnotationStatus.DISCARDED)
    for word in query.split()[:10]:
        qs = qs.filter(solution__problem__text__icontains=word)
    return qs


def my_work_last(*, project: Project, user: AbstractBaseUser) -> Annotation | None:
    """The annotation the user submitted or skipped last in the project (None: nothing yet)."""
    return my_work_list(project=project, user=user).first()
