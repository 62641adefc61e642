"""People: accounts made by project admins, invite links, members, passwords.

Usernames are unique by `labeling.accounts.usernames.username_key` (case, Unicode form, look-alike
letters); every way steplab makes an account goes through `_username_check`.
"""

import secrets
import string
from dataclasses import dataclass
from datetime import timedelta

from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.models import AbstractBaseUser
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.encoding import force_bytes, force_str
from django.utils.http import urlsafe_base64_decode, urlsafe_base64_encode

from labeling.accounts.usernames import normalize, username_key, username_problem
from labeling.errors import Conflict, Gone, Missing, ProjectDeleted, ValidationFailed
from labeling.models import Invite, Project, ProjectMembership, Role, TemporaryPassword
from labeling.models.people import invite_hash
from labeling.services.collection_caps import collection_room_check

INVITE_DAYS_DEFAULT = 7
INVITE_DAYS_MAX = 30
# Letters and digits without look-alikes (no 0/O, 1/l/I): read off a screen and typed in.
_TEMP_ALPHABET = "".join(c for c in string.ascii_letters + string.digits if c not in "0O1lI")
TEMP_PASSWORD_LENGTH = 14


def username_existing(name: str) -> str | None:
    """The existing username that `name` would be confused with, or None."""
    key = username_key(name)
    users = get_user_model()._default_manager
    exact = users.filter(username__iexact=normalize(name)).values_list("username", flat=True)
    for found in exact[:1]:
        return found
    # NFKC forms and look-alike letters are not a database lookup: compare every name's key.
    for found in users.values_list("username", flat=True).iterator(chunk_size=2000):
        if username_key(found) == key:
            return found
    return None


def _username_check(name: str) -> str:
    """The name as it will be stored, or ValidationFailed/Conflict saying why it cannot be."""
    problem = username_problem(name)
    if problem:
        raise ValidationFailed(problem, field="username")
    name = normalize(name)
    existing = username_existing(name)
    if existing is not None:
        same = existing == name
        raise Conflict(
            f"The username {name!r} is taken"
            + ("." if same else f": it is too close to the existing {existing!r}."),
            field="username",
        )
    return name


def _password_check(password: str, user: AbstractBaseUser | None) -> None:
    try:
        password_validation.validate_password(password, user)
    except ValidationError as exc:
        raise ValidationFailed(" ".join(exc.messages), field="password") from exc


def _user_create(*, username: str, email: str, password: str | None) -> AbstractBaseUser:
    name = _username_check(username)
    model = get_user_model()
    user = model(username=name, email=model._default_manager.normalize_email(email or ""))
    if password is None:
        user.set_unusable_password()
    else:
        _password_check(password, user)
        user.set_password(password)
    try:
        with transaction.atomic():
            user.save()
    except IntegrityError as exc:  # the same name created at the same moment
        raise Conflict(f"The username {name!r} is taken.", field="username") from exc
    return user


def temporary_password() -> str:
    return "".join(secrets.choice(_TEMP_ALPHABET) for _ in range(TEMP_PASSWORD_LENGTH))


@dataclass(frozen=True)
class CreatedUser:
    membership: ProjectMembership
    password: str  # the temporary password, shown once


@transaction.atomic
def project_user_create(
    *, project: Project, username: str, email: str, role: str, created_by: AbstractBaseUser
) -> CreatedUser:
    """Make an account with a server-made password (they must change it at first sign-in) and
    add it to `project` with `role`."""
    password = temporary_password()
    user = _user_create(username=username, email=email, password=None)
    user.set_password(password)
    user.save(update_fields=["password"])
    TemporaryPassword.objects.create(user=user, created_by=created_by)
    membership = ProjectMembership.objects.create(project=project, user=user, role=role)
    return CreatedUser(membership=membership, password=password)


def must_change_password(*, user: AbstractBaseUser) -> bool:
    return TemporaryPassword.objects.filter(user=user).exists()


@transaction.atomic
def member_add(*, project: Project, username: str, role: str) -> ProjectMembership:
    """Add an existing user to `project`. Someone already in it is refused (409): changing a
    member's role is `member_role_set`, never a side effect of adding."""
    name = normalize(username)
    # The user's row locked: a new temporary password issued at the same moment (which checks
    # every project the account is in, under the same lock) sees this membership or waits.
    users = get_user_model()._default_manager.select_for_update()
    user = users.filter(username=name).first() or (
        users.filter(username__iexact=name).first() if name else None
    )
    if user is None:
        raise ValidationFailed(
            f"No user named {name!r}. Create the account or send an invite link below.",
            field="username",
        )
    existing = ProjectMembership.objects.filter(project=project, user=user).first()
    if existing is not None:
        raise Conflict(
            f"{user.username} is already a member of this project (as {existing.role}); "
            "change their role in the members table.",
            field="username",
        )
    try:
        with transaction.atomic():
            return ProjectMembership.objects.create(project=project, user=user, role=role)
    except IntegrityError:  # added by another admin since the check above
        raise Conflict(
            f"{user.username} was just added to this project by someone else; reload the "
            "members table.",
            field="username",
        ) from None


def memberships_locked(*, project_id: int, user_id: int) -> tuple[ProjectMembership | None, int]:
    """`user_id`'s membership and how many other admins the project has, their rows locked.

    Every change that may take away an admin (a role change, a removal) locks the project's
    admin rows and the target's in id order first: two admins demoting or removing each other
    at once are then serialized (the second sees the first's change: PostgreSQL re-reads a
    locked row and re-checks the filter) instead of leaving a project without an admin, and
    never deadlock. A membership removed meanwhile comes back as None.
    """
    rows = list(
        ProjectMembership.objects.select_for_update()
        .filter(project_id=project_id)
        .filter(Q(role=Role.ADMIN) | Q(user_id=user_id))
        .order_by("pk")
    )
    target = next((m for m in rows if m.user_id == user_id), None)
    other_admins = sum(1 for m in rows if m.role == Role.ADMIN and m.user_id != user_id)
    return target, other_admins


@transaction.atomic
def member_role_set(*, membership: ProjectMembership, role: str) -> ProjectMembership:
    """Change a member's role; the last admin of a project stays an admin.

    `membership` may be stale (read before the lock): the row is read again under it, and a
    member removed meanwhile is a 404, not a write that hits no row."""
    target, other_admins = memberships_locked(
        project_id=membership.project_id, user_id=membership.user_id
    )
    if target is None:
        raise Missing("That user is no longer a member of this project.")
    if target.role == Role.ADMIN and role != Role.ADMIN and not other_admins:
        raise ValidationFailed("A project keeps at least one admin.", field="role")
    target.role = role
    target.save(update_fields=["role"])
    return target


@dataclass(frozen=True)
class CreatedInvite:
    invite: Invite
    token: str  # the secret of the link, shown once


def invite_create(
    *, project: Project, role: str, created_by: AbstractBaseUser, days: int = INVITE_DAYS_DEFAULT
) -> CreatedInvite:
    if not 1 <= days <= INVITE_DAYS_MAX:
        raise ValidationFailed(f"An invite lasts 1 to {INVITE_DAYS_MAX} days.", field="days")
    token = secrets.token_urlsafe(32)
    with transaction.atomic():
        # The pending invites are listed whole (InviteListApi): bounded.
        pending = Invite.objects.filter(
            project=project, used_at=None, revoked_at=None, expires_at__gt=timezone.now()
        )
        collection_room_check(kind="invites", owner_id=project.pk, held=pending)
        invite = Invite.objects.create(
            project=project,
            role=role,
            token_hash=invite_hash(token),
            created_by=created_by,
            expires_at=timezone.now() + timedelta(days=days),
        )
    return CreatedInvite(invite=invite, token=token)


def invite_usable(token: str, *, lock: bool = False) -> Invite:
    """The invite behind `token` if it can still be used; else 404 or 410 saying why."""
    rows = Invite.objects.select_related("project")
    if lock:
        # The project's row too: a project deleted meanwhile (its purge) waits for the accept,
        # or the accept sees it deleted.
        rows = rows.select_for_update(of=("self", "project"))
    invite = rows.filter(token_hash=invite_hash(token)).first() if token else None
    if invite is None:
        raise Missing("This invite link is not valid. Ask the project admin for a new one.")
    if invite.used_at is not None:
        raise Gone("This invite link was already used. Ask the project admin for a new one.")
    if invite.revoked_at is not None:
        raise Gone("This invite link was withdrawn. Ask the project admin for a new one.")
    if invite.is_expired():
        raise Gone("This invite link has expired. Ask the project admin for a new one.")
    if invite.project.deleted_at is not None:  # no account made for a project that is gone
        raise ProjectDeleted("This invite's project was deleted.")
    return invite


@transaction.atomic
def invite_accept(*, token: str, username: str, password: str) -> tuple[AbstractBaseUser, Invite]:
    """Make the invitee's account with the password they chose and add it to the project."""
    invite = invite_usable(token, lock=True)  # the row lock: one account per link
    user = _user_create(username=username, email="", password=password)
    ProjectMembership.objects.create(project=invite.project, user=user, role=invite.role)
    invite.used_at = timezone.now()
    invite.used_by = user
    invite.save(update_fields=["used_at", "used_by"])
    return user, invite


@transaction.atomic
def invite_revoke(*, invite: Invite) -> Invite:
    """Withdraw a pending invite. The row is read again under its lock (the lock the accept
    takes): an accept at the same moment either finished first (409: remove the member) or
    waits and then finds the link withdrawn (410), never both."""
    invite = Invite.objects.select_for_update().filter(pk=invite.pk).first()
    if invite is None:
        raise Missing("No such invite.")
    if invite.used_at is not None:
        raise Conflict("This invite was used already; remove the member instead.")
    if invite.revoked_at is None:
        invite.revoked_at = timezone.now()
        invite.save(update_fields=["revoked_at"])
    return invite


@transaction.atomic
def password_change(
    *, user: AbstractBaseUser, old_password: str, new_password: str
) -> AbstractBaseUser:
    """Change a password (Django's validators apply); a temporary one is then gone.

    The current password is checked against the row read under its lock, not the caller's copy
    (the session's user, loaded before): of two changes or a change and a reset at the same
    moment, the later one finds the password changed and is refused."""
    locked = get_user_model()._default_manager.select_for_update().get(pk=user.pk)
    if not locked.check_password(old_password):
        raise ValidationFailed("The current password is wrong.", field="old_password")
    if old_password == new_password:
        raise ValidationFailed("Choose a password other than the current one.", field="password")
    _password_check(new_password, locked)
    locked.set_password(new_password)
    locked.save(update_fields=["password"])
    user.password = locked.password  # the caller's copy: the session's hash follows it
    TemporaryPassword.objects.filter(user=user).delete()
    return user


def password_reset_send(*, email: str, base_url: str) -> int:
    """E-mail a reset link to every active account with this address (how many were sent).

    The answer to the caller is the same either way, so it does not tell which addresses exist.
    """
    users = get_user_model()._default_manager.filter(email__iexact=email.strip(), is_active=True)
    sent = 0
    for user in users[:10]:
        if not user.has_usable_password():
            continue  # as Django's PasswordResetForm: such accounts sign in another way
        uid = urlsafe_base64_encode(force_bytes(user.pk))
        token = default_token_generator.make_token(user)
        link = f"{base_url.rstrip('/')}/reset/{uid}/{token}"
        send_mail(
            "Reset your steplab password",
            f"Hello {user.username},\n\nSomeone (hopefully you) asked to reset your steplab "
            f"password. Choose a new one here:\n\n{link}\n\nThe link works once. If you did "
            "not ask, ignore this e-mail: your password stays as it is.\n",
            None,
            [user.email],
        )
        sent += 1
    return sent


@transaction.atomic
def password_reset_confirm(*, uid: str, token: str, new_password: str) -> AbstractBaseUser:
    """Set a new password from an e-mailed link (Django's PasswordResetTokenGenerator: the link
    stops working once the password changed, and after PASSWORD_RESET_TIMEOUT)."""
    model = get_user_model()
    try:
        # Locked: the same link sent twice at once sets one password; the second, waiting,
        # then checks the token against the new password hash and is told the link is used.
        user = model._default_manager.select_for_update().get(
            pk=force_str(urlsafe_base64_decode(uid))
        )
    except (ValueError, TypeError, OverflowError, model.DoesNotExist):
        user = None
    if user is None or not default_token_generator.check_token(user, token):
        raise Gone("This reset link is not valid any more. Ask for a new one.")
    _password_check(new_password, user)
    user.set_password(new_password)
    user.save(update_fields=["password"])
    TemporaryPassword.objects.filter(user=user).delete()
    return user
