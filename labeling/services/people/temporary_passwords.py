"""A new temporary password for an account that never chose its own (the first was lost).

An admin who closed the dialog that showed a new account's temporary password has no other way
to get the account going (an invite link needs a new username). No privilege may be gained by
it, so it is refused:
- for an account that set its own password (no TemporaryPassword row): that one uses
  "Forgot password?", which only its owner's e-mail can finish;
- for staff and superusers, inactive accounts, and the requester's own account;
- unless the requester is an admin of every project the account is a member of (else an admin
  of project A could take over an account that is an admin in project B); staff may always, as
  the Django admin lets them set any password anyway.

The old temporary password stops working at once (a new hash), which also ends the account's
sessions (Django checks each session against the password hash), and its API tokens are revoked.
`labeling.selectors.admin.member_list` answers the same question for the members table
(`temporary_password_reissue`), so the button is shown only where this would succeed.
"""

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from labeling.errors import Conflict, Missing, NotAllowed
from labeling.models import ApiToken, Project, ProjectMembership, Role, TemporaryPassword
from labeling.services.people.accounts import temporary_password
from labeling.services.people.tokens import token_revoke


@dataclass(frozen=True)
class IssuedPassword:
    membership: ProjectMembership
    password: str  # the new temporary password, shown once


def _projects_not_administered(*, user_id: int, requester: AbstractBaseUser) -> int:
    """How many projects `user_id` is a member of where `requester` is not an admin.

    The account's membership rows and the requester's admin rows are locked in one statement,
    in id order, as role changes and removals lock theirs (`memberships_locked`): a demotion or
    removal at the same moment either comes first and is seen here, or waits for this password
    to be issued, and the two never deadlock."""
    rows = list(
        ProjectMembership.objects.select_for_update()
        .filter(Q(user_id=user_id) | Q(user_id=requester.pk, role=Role.ADMIN))
        .order_by("pk")
        .values_list("user_id", "project_id")
    )
    theirs = {project for user, project in rows if user == user_id}
    administered = {project for user, project in rows if user == requester.pk}
    return len(theirs - administered)


@transaction.atomic
def temporary_password_reissue(
    *, project: Project, user_id: int, issued_by: AbstractBaseUser
) -> IssuedPassword:
    """Give a member of `project` who never chose a password a new temporary one (returned
    once); the old one, their sessions and their API tokens stop working. `issued_by` is an
    admin of `project` (the caller checked) or staff."""
    if user_id == issued_by.pk:
        raise NotAllowed("You cannot issue a temporary password to yourself: change yours.")
    membership = (
        ProjectMembership.objects.select_related("user")
        .filter(project=project, user_id=user_id)
        .first()
    )
    if membership is None:
        raise Missing("That user is not a member of this project.")
    # The user's row locked: a password change or a second issue at the same moment waits.
    user = get_user_model()._default_manager.select_for_update().get(pk=user_id)
    membership.user = user
    if user.is_staff or user.is_superuser:
        raise NotAllowed(
            f"{user.username} is staff: their password is changed in the Django admin only."
        )
    if not user.is_active:
        raise Conflict(f"{user.username}'s account is deactivated.")
    held = TemporaryPassword.objects.select_for_update().filter(user=user).first()
    if held is None:
        raise Conflict(
            f"{user.username} has chosen their own password: they can reset it with "
            '"Forgot password?" on the sign-in page.'
        )
    if not issued_by.is_staff:
        others = _projects_not_administered(user_id=user.pk, requester=issued_by)
        if others:
            raise NotAllowed(
                f"{user.username} is also a member of {others} project(s) where you are not an "
                "admin: an admin of all of them (or staff) can issue a new password."
            )
    password = temporary_password()
    user.set_password(password)
    user.save(update_fields=["password"])
    held.created_by = issued_by
    held.created_at = timezone.now()
    held.save(update_fields=["created_by", "created_at"])
    for token in ApiToken.objects.filter(user=user, revoked_at__isnull=True):
        token_revoke(token=token)
    return IssuedPassword(membership=membership, password=password)
