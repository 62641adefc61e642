"""Projects and their members."""

from django.db import transaction

from labeling.errors import ValidationFailed
from labeling.models import Domain, Project, ProjectMembership, Role, StepSplit
from labeling.services.gold.pace import answers_forget
from labeling.services.people.accounts import memberships_locked
from labeling.services.projects.domain_change import domain_change
from labeling.services.projects.metrics_version import metrics_version_bump
from labeling.services.queue.pool import project_queue_refresh_later
from labeling.steps.patterns import compile_user_pattern
from labeling.steps.splitting import tag_pattern

PROJECT_FIELDS = (
    "name",
    "description",
    "domain",
    "guidelines",
    "label_scale",
    "first_error_mode",
    "overlap",
    "lock_ttl_seconds",
    "show_suggestions",
    "allow_resegment",
    "auto_resolve",
    "gold_rate",
    "screening_size",
    "screening_pass_rate",
    "step_split",
    "step_split_regex",
    "step_split_tag",
)


def _validate(project: Project) -> None:
    if project.domain not in Domain.values:
        raise ValidationFailed(
            f"Unknown domain {project.domain!r}; use one of {Domain.values}.", field="domain"
        )
    if project.overlap < 1:
        raise ValidationFailed("overlap must be at least 1.", field="overlap")
    if project.lock_ttl_seconds < 60:
        raise ValidationFailed("lock_ttl_seconds must be at least 60.", field="lock_ttl_seconds")
    if project.step_split == "regex" and not project.step_split_regex:
        raise ValidationFailed("The regex rule needs a regex.", field="step_split_regex")
    if project.step_split_regex:
        try:
            compile_user_pattern(project.step_split_regex)
        except ValueError as exc:
            raise ValidationFailed(f"step_split_regex: {exc}.", field="step_split_regex") from exc
    project.step_split_tag = project.step_split_tag.strip()
    if project.step_split == StepSplit.STEP_TAGS or project.step_split_tag:
        try:
            tag_pattern(project.step_split_tag)
        except ValueError as exc:
            raise ValidationFailed(f"step_split_tag: {exc}.", field="step_split_tag") from exc
    # A deleted project's name is free at once, while its purge runs (the constraint is on
    # live projects only: labeling.models.Project.Meta).
    taken = Project.objects.filter(name=project.name, deleted_at__isnull=True)
    if taken.exclude(pk=project.pk).exists():
        raise ValidationFailed(f"A project named {project.name!r} exists.", field="name")


@transaction.atomic
def project_create(*, created_by, name: str, **settings: object) -> Project:
    """Create a project; its creator becomes its first admin."""
    unknown = set(settings) - set(PROJECT_FIELDS)
    if unknown:
        raise ValidationFailed(f"Unknown project settings: {sorted(unknown)}.")
    # A new project has no rows to fill: the services keep its stored review reasons.
    project = Project(
        name=name.strip(), created_by=created_by, review_reasons_stored=True, **settings
    )
    if not project.name:
        raise ValidationFailed("A project needs a name.", field="name")
    _validate(project)
    project.save()
    if created_by is not None:
        ProjectMembership.objects.create(project=project, user=created_by, role=Role.ADMIN)
    return project


@transaction.atomic
def project_update(*, project: Project, **changes: object) -> Project:
    overlap, gold_rate, domain = project.overlap, project.gold_rate, project.domain
    for field, value in changes.items():
        if field not in PROJECT_FIELDS:
            raise ValidationFailed(f"{field} cannot be changed.", field=field)
        setattr(project, field, value)
    _validate(project)
    written = [*changes, "updated_at"]
    if project.domain != domain:
        # Writes no problem: a blank one is of the project's default (domain_change).
        written += domain_change(project=project, before=domain)
    # Only the fields changed: the row's other fields are written by others meanwhile (a
    # delete's deleted_at, a pending overlap refresh's mark, the webhooks' events, the review
    # reasons' fill), and a whole-row save from this request's copy would undo them.
    project.save(update_fields=written)
    # The scale, overlap and domain are read by the metrics (any change: one statement).
    metrics_version_bump(project_id=project.pk)
    if project.overlap != overlap:
        # Every solution's place in the claim pool depends on it: refreshed by a background
        # job, range by range (one UPDATE of the project here took seconds at a million).
        project_queue_refresh_later(project=project)
    if project.gold_rate != gold_rate:
        # Without a gold rate the answer counts are not kept (labeling.services.gold.pace).
        answers_forget(project=project)
    return project


@transaction.atomic
def membership_remove(*, project: Project, user_id: int) -> None:
    """Remove a member; the last admin stays. Under the admin rows' locks
    (`memberships_locked`): two admins removing or demoting each other at once leave one."""
    target, other_admins = memberships_locked(project_id=project.pk, user_id=user_id)
    if target is None:
        raise ValidationFailed("That user is not a member of this project.", field="user")
    if target.role == Role.ADMIN and not other_admins:
        raise ValidationFailed("A project keeps at least one admin.", field="user")
    target.delete()
