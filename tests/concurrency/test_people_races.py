"""Two people changing the same thing at the same moment, on PostgreSQL with real threads: one
change wins completely, the other is refused with a 4xx error; never both, never a 500.

Most tests hold the first change's transaction open (`held`) while the second runs, the
interleaving that lost a change before: the second read the row before the first committed.
"""

import threading
from collections.abc import Callable

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.db import connection, connections, transaction
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from rest_framework.test import APIClient

from labeling.errors import (
    Conflict,
    Gone,
    Missing,
    NotAuthenticated,
    ProjectDeleted,
    ValidationFailed,
)
from labeling.models import ApiToken, Export, Invite, Project, ProjectMembership, Role
from labeling.services.exports.snapshots import export_create
from labeling.services.people.accounts import (
    invite_accept,
    invite_create,
    invite_revoke,
    member_add,
    member_role_set,
    password_change,
    password_reset_confirm,
)
from labeling.services.people.tokens import token_create, token_revoke
from labeling.services.projects.delete import project_delete
from labeling.services.projects.edit import membership_remove, project_create
from tests.concurrency.threads import held, run_threads
from tests.factories import ProjectFactory, UserFactory
from tests.review.conftest import member

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

PASSWORD = "brisk-otter-harbor-42"


def _outcome(call: Callable[[], object]) -> object:
    try:
        return call()
    except (Conflict, Gone, Missing, NotAuthenticated, ValidationFailed) as exc:
        return exc


def test_invite_accepted_while_withdrawn_is_accepted_only():
    project = ProjectFactory()
    token = invite_create(project=project, role="reviewer", created_by=None).token
    stale = Invite.objects.get()  # what the withdraw view read before the accept committed

    accepted, withdrawn = held(
        lambda: invite_accept(token=token, username="newcomer", password=PASSWORD),
        lambda: invite_revoke(invite=stale),
    )
    assert isinstance(withdrawn, Conflict), withdrawn
    invite = Invite.objects.get()
    assert invite.used_by.username == "newcomer" and invite.revoked_at is None
    assert ProjectMembership.objects.filter(project=project, role="reviewer").count() == 1


def test_invite_withdrawn_while_accepted_is_withdrawn_only():
    project = ProjectFactory()
    token = invite_create(project=project, role="reviewer", created_by=None).token
    stale = Invite.objects.get()

    withdrawn, accepted = held(
        lambda: invite_revoke(invite=stale),
        lambda: invite_accept(token=token, username="newcomer", password=PASSWORD),
    )
    assert isinstance(accepted, Gone), accepted
    assert Invite.objects.get().used_at is None
    assert not get_user_model().objects.filter(username="newcomer").exists()
    assert not ProjectMembership.objects.filter(project=project).exists()


def test_invite_accept_and_withdraw_at_once_never_both():
    for round_ in range(6):
        project = ProjectFactory()
        token = invite_create(project=project, role="annotator", created_by=None).token
        stale = Invite.objects.get(project=project)

        def act(i: int, token=token, stale=stale, round_=round_) -> object:
            if i == 0:
                return _outcome(lambda: invite_revoke(invite=stale))
            return _outcome(
                lambda: invite_accept(token=token, username=f"racer{round_}", password=PASSWORD)
            )

        withdrawn, accepted = run_threads(2, act)
        invite = Invite.objects.get(project=project)
        members = ProjectMembership.objects.filter(project=project).count()
        if isinstance(accepted, Gone):  # the withdraw won
            assert invite.revoked_at is not None and invite.used_at is None and members == 0
        else:  # the accept won
            assert isinstance(withdrawn, Conflict), withdrawn
            assert invite.used_at is not None and invite.revoked_at is None and members == 1


def test_admin_removed_while_the_other_is_demoted_leaves_an_admin():
    project = ProjectFactory()
    alice, bob = member(project, "alice", role="admin"), member(project, "bob", role="admin")
    bob_row = ProjectMembership.objects.get(user=bob)

    demoted, removed = held(
        lambda: member_role_set(membership=bob_row, role=Role.ANNOTATOR),
        lambda: membership_remove(project=project, user_id=alice.pk),
    )
    assert isinstance(removed, ValidationFailed), removed
    assert ProjectMembership.objects.filter(project=project, role=Role.ADMIN).count() == 1


def test_admins_demoting_each_other_at_once_leave_one_and_never_deadlock():
    for _ in range(6):
        project = ProjectFactory()
        member(project, f"a{project.pk}", role="admin")
        member(project, f"b{project.pk}", role="admin")
        rows = list(ProjectMembership.objects.filter(project=project).order_by("pk"))

        def act(i: int, rows=rows) -> object:
            return _outcome(lambda: member_role_set(membership=rows[1 - i], role=Role.REVIEWER))

        outcomes = run_threads(2, act)
        assert sum(isinstance(o, ValidationFailed) for o in outcomes) == 1, outcomes
        assert ProjectMembership.objects.filter(project=project, role=Role.ADMIN).count() == 1


def test_role_change_of_a_member_removed_meanwhile_is_a_404():
    project = ProjectFactory()
    member(project, "admin", role="admin")
    carol = member(project, "carol")
    stale = ProjectMembership.objects.get(user=carol)

    removed, changed = held(
        lambda: membership_remove(project=project, user_id=carol.pk),
        lambda: member_role_set(membership=stale, role=Role.REVIEWER),
    )
    assert isinstance(changed, Missing), changed
    assert not ProjectMembership.objects.filter(user=carol).exists()


def test_token_minted_while_its_parent_is_revoked_does_not_outlive_it():
    user = UserFactory()
    parent = token_create(user=user, name="parent").token
    stale = ApiToken.objects.get(pk=parent.pk)  # what the mint request authenticated with

    _, minted = held(
        lambda: token_revoke(token=parent),
        lambda: token_create(user=user, name="child", minted_by=stale),
    )
    assert isinstance(minted, NotAuthenticated), minted
    assert not ApiToken.objects.filter(revoked_at__isnull=True).exists()


def test_token_revoked_while_a_child_is_minted_revokes_the_child():
    user = UserFactory()
    parent = token_create(user=user, name="parent").token

    minted, _ = held(
        lambda: token_create(user=user, name="child", minted_by=parent),
        lambda: token_revoke(token=ApiToken.objects.get(pk=parent.pk)),
    )
    assert ApiToken.objects.get(pk=minted.token.pk).revoked_at is not None
    assert not ApiToken.objects.filter(revoked_at__isnull=True).exists()


def test_reset_link_used_twice_at_once_sets_one_password():
    user = UserFactory(email="dana@example.org")
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    token = default_token_generator.make_token(user)

    first, second = held(
        lambda: password_reset_confirm(uid=uid, token=token, new_password="first-quiet-pine-71"),
        lambda: password_reset_confirm(uid=uid, token=token, new_password="other-loud-fern-38"),
    )
    assert isinstance(second, Gone), second
    user.refresh_from_db()
    assert user.check_password("first-quiet-pine-71")


def test_export_started_while_the_project_is_deleted_is_refused():
    project = ProjectFactory()
    admin = member(project, "admin", role="admin")

    def start() -> object:
        with transaction.atomic():  # as the API's outbox_job_create
            return export_create(project=project, created_by=admin, format="trl")

    _, started = held(lambda: project_delete(project=project), start)
    assert isinstance(started, ProjectDeleted), started
    assert not Export.objects.filter(project=project).exists()


def test_export_starts_while_an_import_holds_the_project():
    """The import pipeline holds the project's row (FOR NO KEY UPDATE) for its whole file: the
    start's share lock must not wait for it (lock_timeout: a wait fails the test)."""
    project = ProjectFactory()
    admin = member(project, "admin", role="admin")
    holding, release = threading.Event(), threading.Event()

    def importing() -> None:
        try:
            with transaction.atomic():
                Project.objects.select_for_update(no_key=True).filter(pk=project.pk).first()
                holding.set()
                release.wait(10)
        finally:
            holding.set()
            connections.close_all()

    thread = threading.Thread(target=importing)
    thread.start()
    try:
        assert holding.wait(10)
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL lock_timeout = '2s'")
            export = export_create(project=project, created_by=admin, format="trl")
        assert export.pk
    finally:
        release.set()
        thread.join(10)


def test_member_added_by_two_admins_at_once_is_a_409():
    project = ProjectFactory()
    UserFactory(username="erin")

    first, second = held(
        lambda: member_add(project=project, username="erin", role=Role.ANNOTATOR),
        lambda: member_add(project=project, username="erin", role=Role.REVIEWER),
    )
    assert isinstance(second, Conflict), second
    assert ProjectMembership.objects.get(project=project).role == Role.ANNOTATOR


def test_any_write_that_collides_at_once_is_a_409_not_a_500():
    """The API's net under every service: a unique violation nobody turned into words (two
    projects of one name made at once) answers 409 in the one shape."""
    staff = UserFactory(is_staff=True)
    client = APIClient()
    client.force_authenticate(staff)

    _, res = held(
        lambda: project_create(created_by=staff, name="Twin"),
        lambda: client.post("/api/projects/", {"name": "Twin"}, format="json"),
    )
    assert res.status_code == 409, res.content
    assert res.json()["error"]["code"] == "conflict"


def test_two_password_changes_at_once_one_wins_the_other_is_told():
    user = UserFactory()
    user.set_password("first-quiet-pine-71")
    user.save()
    one, two = (get_user_model().objects.get(pk=user.pk) for _ in range(2))  # two sessions

    first, second = held(
        lambda: password_change(
            user=one, old_password="first-quiet-pine-71", new_password="mine-green-lake-23"
        ),
        lambda: password_change(
            user=two, old_password="first-quiet-pine-71", new_password="theirs-red-hill-58"
        ),
    )
    assert isinstance(second, ValidationFailed), second
    user.refresh_from_db()
    assert user.check_password("mine-green-lake-23")


def _temporary_account(project: Project, name: str = "newcomer"):
    from labeling.models import TemporaryPassword

    user = member(project, name)
    TemporaryPassword.objects.create(user=user)
    return user


def test_new_temporary_password_while_the_account_joins_another_project_is_refused():
    """An admin of A issues a password while an admin of B adds the account to B: the issue
    waits for the add and then finds a project its requester does not administer."""
    from labeling.errors import NotAllowed
    from labeling.services.people.temporary_passwords import temporary_password_reissue

    a, b = ProjectFactory(), ProjectFactory()
    admin_a = member(a, "anna", role="admin")
    target = _temporary_account(a)
    before = get_user_model().objects.get(pk=target.pk).password

    added, issued = held(
        lambda: member_add(project=b, username="newcomer", role=Role.ADMIN),
        lambda: temporary_password_reissue(project=a, user_id=target.pk, issued_by=admin_a),
    )
    assert isinstance(added, ProjectMembership), added
    assert isinstance(issued, NotAllowed), issued
    assert get_user_model().objects.get(pk=target.pk).password == before


def test_new_temporary_password_while_its_requester_is_demoted_elsewhere_is_refused():
    from labeling.errors import NotAllowed
    from labeling.services.people.temporary_passwords import temporary_password_reissue

    a, b = ProjectFactory(), ProjectFactory()
    anna = member(a, "anna", role="admin")
    member(b, "bob", role="admin")
    ProjectMembership.objects.create(project=b, user=anna, role=Role.ADMIN)
    target = _temporary_account(a)
    ProjectMembership.objects.create(project=b, user=target, role=Role.ANNOTATOR)
    anna_in_b = ProjectMembership.objects.get(project=b, user=anna)

    demoted, issued = held(
        lambda: member_role_set(membership=anna_in_b, role=Role.ANNOTATOR),
        lambda: temporary_password_reissue(project=a, user_id=target.pk, issued_by=anna),
    )
    assert isinstance(demoted, ProjectMembership), demoted
    assert isinstance(issued, NotAllowed), issued
