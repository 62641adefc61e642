"""Reads for project admins: the project's members, import jobs and problem sources."""

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import (
    BooleanField,
    Count,
    DateTimeField,
    Exists,
    ExpressionWrapper,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
)
from django.db.models.functions import Coalesce

from labeling.models import (
    Annotation,
    AnnotationStatus,
    Assignment,
    ImportJob,
    Project,
    ProjectMembership,
    Role,
    Solution,
    TemporaryPassword,
)
from labeling.rules.overlap import open_q
from labeling.selectors.labeling_page import EPOCH


def import_job_list(*, project: Project) -> QuerySet[ImportJob]:
    return ImportJob.objects.filter(project=project).order_by("-id")


def member_list(
    *, project: Project, viewer: AbstractBaseUser | None = None
) -> QuerySet[ProjectMembership]:
    """The project's members with `screening_answered`: their submitted gold answers that count
    for the screening (since an admin's reset, if any); `temporary_password`: they have not
    yet changed the password an admin made for them; and `temporary_password_reissue`: `viewer`
    may issue them a new one (the rules of
    labeling.services.people.temporary_passwords.temporary_password_reissue, in SQL)."""
    answered = (
        Annotation.objects.filter(
            solution__project=project,
            solution__is_gold=True,
            annotator_id=OuterRef("user_id"),
            status=AnnotationStatus.SUBMITTED,
            # NULL reset time: every gold answer counts.
            submitted_at__gte=Coalesce(
                OuterRef("screening_reset_at"), Value(EPOCH), output_field=DateTimeField()
            ),
        )
        .order_by()
        .values("annotator_id")
        .annotate(n=Count("*"))
        .values("n")
    )
    temporary = TemporaryPassword.objects.filter(user_id=OuterRef("user_id"))
    return (
        project.memberships.select_related("user")
        .annotate(
            screening_answered=Coalesce(Subquery(answered), 0),
            temporary_password=Exists(temporary),
            temporary_password_reissue=_reissue_q(temporary, viewer),
        )
        .order_by("user__username")
    )


def _reissue_q(temporary: QuerySet, viewer: AbstractBaseUser | None) -> ExpressionWrapper:
    """Who `viewer` may give a new temporary password: an active account, neither staff nor
    superuser nor the viewer, still on its temporary password, and (unless the viewer is staff)
    a member of no project where the viewer is not an admin."""
    if viewer is None or not viewer.is_authenticated:
        return ExpressionWrapper(Value(False), output_field=BooleanField())
    allowed = (
        Exists(temporary)
        & Q(user__is_active=True, user__is_staff=False, user__is_superuser=False)
        & ~Q(user_id=viewer.pk)
    )
    if not viewer.is_staff:
        administered = ProjectMembership.objects.filter(user_id=viewer.pk, role=Role.ADMIN)
        elsewhere = ProjectMembership.objects.filter(user_id=OuterRef("user_id")).exclude(
            project_id__in=administered.values("project_id")
        )
        allowed &= ~Exists(elsewhere)
    return ExpressionWrapper(allowed, output_field=BooleanField())


def problem_source_list(*, project: Project) -> QuerySet:
    """Problem sources of the project's (non-gold) solutions with how many there are, how
    many are still open (fewer submissions than their effective overlap) and how many nobody
    is assigned: rows of `problem__source`, `solutions`, `open`, `unassigned`, by source. A
    pass over every solution of the project: the API serves it through
    labeling.services.queue.source_counts (live when small, else a stored snapshot)."""
    assigned = Assignment.objects.filter(solution_id=OuterRef("pk"))
    return (
        Solution.objects.filter(project=project, is_gold=False)
        .alias(has_assignment=Exists(assigned))
        .values("problem__source")
        .annotate(
            solutions=Count("id"),
            open=Count("id", filter=open_q(project.overlap)),
            unassigned=Count("id", filter=Q(has_assignment=False)),
        )
        .order_by("problem__source")
    )
