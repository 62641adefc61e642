"""Object-level access: fetch a project the user may act on, or fail the request.

A project the user is not a member of answers 404, so its existence does not leak; a member
whose role is too low gets 403; a member of a deleted project 410 `project_deleted`.
"""

from collections.abc import Iterator
from contextlib import contextmanager
from typing import NoReturn

from django.core.exceptions import ObjectDoesNotExist
from django.db.models import OuterRef, Subquery
from django.http import Http404
from django.shortcuts import get_object_or_404
from rest_framework.exceptions import NotFound, PermissionDenied

from labeling.errors import DomainError, ProjectDeleted
from labeling.models import Project, ProjectMembership, Role
from labeling.pg.compiled import compile_queryset_once
from labeling.selectors.labeling_page import ROLE_RANK, project_role

_UNREAD = object()


def _project_with_role():
    """The project and the user's membership role in one query, compiled once (every
    labeling request makes it: labeling.pg.compiled)."""

    def build(s: dict):
        role = ProjectMembership.objects.filter(project=OuterRef("pk"), user_id=s["user"])
        return Project.objects.annotate(member_role=Subquery(role.values("role")[:1])).filter(
            pk=s["project"]
        )

    return compile_queryset_once(("project with role",), build, ints=("project", "user"))


def project_for(
    request,
    project_id: int | Project,
    *,
    at_least: str = Role.ANNOTATOR,
    member_role: str | None | object = _UNREAD,
) -> Project:
    """The project (an id, or an instance already loaded) if the user's role allows. By id, the
    project and the user's membership role come in one query; with an instance, `member_role`
    is the user's membership role when the caller read it already (None: not a member)."""
    user = request.user
    if isinstance(project_id, Project):
        project = project_id
        if member_role is _UNREAD or user.is_staff or not user.is_authenticated:
            role = project_role(project=project, user=user)
        else:
            role = member_role
    elif user.is_authenticated and not user.is_staff:
        found = _project_with_role().fetch({"project": int(project_id), "user": user.pk})
        if not found:
            raise Http404("No such project.")
        project = found[0]
        role = project.member_role
    else:
        project = get_object_or_404(Project, pk=project_id)
        role = project_role(project=project, user=user)
    if role is None:
        raise NotFound("No such project.")
    if project.deleted_at is not None:
        # Its members (only they: to others it stays a 404) learn why their work stopped.
        raise ProjectDeleted()
    if ROLE_RANK[role] < ROLE_RANK[at_least]:
        raise PermissionDenied(f"This needs the {at_least} role in project {project.name!r}.")
    project.my_role = role
    return project


@contextmanager
def writes_of_a_live_project(project_id: int) -> Iterator[None]:
    """An annotation write whose rows vanished under it (the project was deleted after the
    request's access check; its purge took the rows) answers 410 `project_deleted`, not the
    404 or version conflict the missing rows would otherwise give."""
    try:
        yield
    except (ObjectDoesNotExist, Http404, NotFound, DomainError) as exc:
        if isinstance(exc, ProjectDeleted):
            raise
        live = Project.objects.filter(pk=project_id, deleted_at__isnull=True).exists()
        if live:
            raise
        raise ProjectDeleted() from exc


def not_found_unless_purging(request, kind: str) -> NoReturn:
    """An annotation or solution id that names no row: 404, or 410 `project_deleted` to a
    member of a project whose background purge is under way (to staff: while any is).

    The purge deletes a deleted project's solutions a batch at a time, so until it ends the
    rows it has not reached yet answer 410 (project_for): the ones it took must too, or the
    same page answers 410 for one annotation and 404 for its sibling. Which project a deleted
    row was in cannot be read any more, so any id missing for such a member answers 410; once
    the purge ends (the project row and its memberships gone) everything of it is a 404."""
    user = request.user
    if user.is_authenticated:
        purging = Project.objects.filter(deleted_at__isnull=False)
        if not user.is_staff:
            purging = purging.filter(memberships__user=user)
        if purging.exists():
            raise ProjectDeleted()
    raise NotFound(f"No such {kind}.")
